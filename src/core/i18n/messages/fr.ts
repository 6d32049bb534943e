// The shared layout's messages in Canadian French (Government of Canada usage); the keys are en.ts's.
import type { LayoutKey } from './en.ts';

export const fr: Record<LayoutKey, string> = {
  'layout.skip': 'Passer au contenu principal',
  'layout.otherServices': 'Autres services',
  'layout.language': 'Langue',
  'layout.languageName': 'Français',
  'layout.demoData': 'Données de démonstration générées.',
  'layout.dataVersion': 'Version des données',
  'layout.noData': 'aucune (aucune donnée importée)',
  'layout.imported': ', importée le {date}',
  'layout.sources': 'Sources : {sources}.',
  'layout.apiDocs': 'Documentation de l’API',
  'layout.openApi': 'OpenAPI',
  'layout.demoBanner': 'Données de démonstration.',
  'layout.demoBannerText':
    'Ce que ce service affiche actuellement est généré à des fins de démonstration; aucun chiffre de ces pages n’est réel.',
  'layout.staleTitle': 'Les données ne sont peut-être pas à jour.',
  'layout.staleObservation':
    'La plus récente {noun} qu’elles contiennent date du {date}, il y a {age, plural, one {# jour} other {# jours}} : aucune {noun} depuis plus de {limit, plural, one {# jour} other {# jours}}, il en manque donc probablement de plus récentes.',
  'layout.staleConfirmed':
    'Elles ont été vérifiées auprès de leur source pour la dernière fois le {date} (il y a {age, plural, one {# jour} other {# jours}}); la source a pu changer depuis.',
  'layout.observation.draw': 'ronde',
  'error.cannotUse': 'Impossible de traiter cette demande :',
  'error.notFound': 'Introuvable',
  'error.noData': 'Aucune donnée pour l’instant',
  'error.cannotShow': 'Impossible d’afficher cette page',
  'chart.dataBehind': 'Données du graphique « {title} »',
  'chart.dataCaption': '{title} : données',
  'chart.lower': '{name} : borne inférieure',
  'chart.upper': '{name} : borne supérieure',
  'chart.date': 'Date',
  'pager.label': 'Pages de résultats',
  'pager.previous': '← Précédente',
  'pager.next': 'Suivante →',
  'pager.position': 'Page {page, number} de {pages, number}',
  'service.oral': 'Données probantes en santé buccodentaire',
  'service.krt': 'Tableaux des ressources clés',
  'service.grants': 'Subventions fédérales',
  'service.draws': 'Rondes d’invitations d’Entrée express',
  'service.retraction': 'Articles rétractés',
};
