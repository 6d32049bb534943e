// The French of texts D's code writes in English (served so by the API), keyed by a stable identifier: the models and
// rules of forecast/model-catalogue.ts as `model.<name>`, `parameter.<model>.<name>` (a text value) and
// `rule.<key of FORECAST_METHOD>`; the known categories' descriptions (feed/categories.ts) as `category.<slug>`. Each translation keeps the fingerprint of the English it was made from
// (translated.ts): when the English changes, the page shows the English until the French is redone, and
// translated.test.ts names the text to translate again. Numbers are written in the text, as the English has them.
export interface Translation {
  /** First 12 hex digits of the SHA-256 of the English text translated. */
  from: string;
  fr: string;
}

export const TRANSLATIONS_FR: Readonly<Record<string, Translation>> = {
  'model.naive': {
    from: '469dbab950ee',
    fr: 'Marche aléatoire : ŷ_{T+h} = y_T, la dernière valeur. La référence que tout modèle doit battre.',
  },
  'model.window_mean': {
    from: 'eb5ecad35212',
    fr:
      'Moyenne des 6 dernières valeurs : ŷ_{T+h} = (1/6) Σ_{i<6} y_{T−i}. Une référence, qui n’entre pas dans la ' +
      'combinaison (là où l’ancienne méthode la choisissait, elle faisait moins bien que la méthode naïve).',
  },
  'model.ses': {
    from: '1a940dc561fc',
    fr:
      'Lissage exponentiel simple (ETS(A,N,N)) : ℓ_t = ℓ_{t−1} + α(y_t − ℓ_{t−1}), ℓ_1 = y_1; ŷ_{T+h} = ℓ_T. ' +
      'α minimise l’erreur quadratique de prévision à un pas. Avec moins de 3 valeurs : la dernière valeur.',
  },
  'parameter.ses.alpha': { from: '2d4ea670cb3e', fr: 'ajusté pour chaque série et chaque origine dans [0,01; 1]' },
  'model.damped_trend': {
    from: '48bbf4cd15fe',
    fr:
      'Tendance amortie additive (ETS(A,Ad,N)) : ŷ = ℓ + φb, e = y − ŷ, ℓ ← ŷ + αe, b ← φb + βe, en partant de ' +
      'ℓ = y_1, b = 0; ŷ_{T+h} = ℓ_T + (φ + … + φ^h) b_T. Avec moins de 10 valeurs : lissage exponentiel simple.',
  },
  'parameter.damped_trend.alpha': { from: '37c73ffff411', fr: 'ajusté : [0,01; 1]' },
  'parameter.damped_trend.beta': { from: '33474fe62dfc', fr: 'ajusté : [0; alpha]' },
  'parameter.damped_trend.phi': { from: 'a7d20704e98f', fr: 'ajusté : [0,8; 0,98]' },
  'parameter.damped_trend.fitting': {
    from: '7f8bb4b00c0e',
    fr: 'minimise la somme des carrés des erreurs à un pas : grille grossière, puis Nelder–Mead',
  },
  'model.pooled_reversion': {
    from: '097ce0556805',
    fr:
      'Mise en commun entre catégories : ŷ_{T+h} = m_T + (y_T − m_T)(1 − φ_c)^h, où m_T est la médiane des 5 dernières ' +
      'valeurs. φ mesure à quel point les scores reviennent vers leur niveau récent d’une ronde à l’autre, et il est ' +
      'commun aux catégories : moindres carrés passant par l’origine de z = (y_{t+1} − y_t)/s sur x = (m_t − y_t)/s, ' +
      'sur les paires de toutes les catégories des 4 dernières années (pénalité ridge de 4 vers 0), puis rétréci par ' +
      'catégorie : φ_c = (n_c φ̂_c + 10 φ)/(n_c + 10), borné à [0; 1].',
  },
  'model.combination': {
    from: 'f1059d33194f',
    fr:
      'La prévision publiée des catégories établies (5 rondes ou plus). La prévision publiée d’une catégorie établie ' +
      'est une moyenne pondérée des modèles naïf, lissage exponentiel simple, tendance amortie et retour à la moyenne ' +
      'groupé (la moyenne mobile n’est présentée qu’à titre de référence) : ŷ = Σ_m w_m ŷ_m avec w_m ∝ 1/S_m et ' +
      'S_m = (Σ_{10 dernières erreurs propres à h = 1} e² + 4 · s² · moyenne sur toutes les catégories de (e/s)²) / ' +
      '(n_own + 4), en n’utilisant que les erreurs dont la cible était connue (depuis au plus 730 jours) au moment de ' +
      'la prévision; s est l’échelle de la catégorie. Les mêmes poids s’appliquent à tous les horizons. Les ' +
      'invitations sont prévues de la même façon sur log(invitations) et publiées sous la forme exp(ŷ), arrondie.',
  },
  'model.pooled_young': {
    from: 'cb9f346b2f75',
    fr:
      'La prévision publiée des catégories récentes. Une catégorie qui compte de 1 à 4 rondes est récente : elle est ' +
      'prévue par le modèle de retour à la moyenne groupé appliqué à ses propres rondes (avec une seule ronde, cette ' +
      'ronde), avec le φ commun, et publiée avec des intervalles plus larges (voir les intervalles); model_used vaut ' +
      '« pooled_young » et son statut le précise. Ses dates empruntent les écarts récents de toutes les catégories.',
  },
  'parameter.pooled_young.draws': { from: '278369d80f51', fr: '1 à 4' },
  'rule.interval': {
    from: '870d0d53a3cc',
    fr:
      'uncertainty_range (SCG) et invitations_range (sur l’échelle logarithmique) sont des intervalles de 95 % par ' +
      'conformité avec division (split-conformal), tirés des erreurs récentes hors échantillon : demi-largeur = ' +
      'q_h × u. u est la volatilité de la catégorie : la moyenne pondérée exponentiellement des |variations| de ses ' +
      'rondes depuis sa dernière pause (poids divisés par deux toutes les 8 rondes en remontant), rétrécie vers la ' +
      'volatilité médiane des catégories établies avec le poids de 3 variations, de sorte qu’une catégorie dont les ' +
      'rondes se sont stabilisées obtient un intervalle étroit en quelques rondes. q_h est le k-ième plus petit |e|/u, ' +
      'k = ⌈(n + 1) × 0,95⌉, parmi les prévisions publiées à h pas de toutes les catégories établies dont la cible est ' +
      'tombée dans les 1095 jours (SCG; invitations : 365 jours) précédant la date de référence (toutes ces prévisions ' +
      'si elles sont trop peu nombreuses; 4 si elles le sont encore), chaque erreur étant divisée par le u de sa propre ' +
      'prévision. Pour le SCG, ' +
      'le niveau 0,95 s’adapte en continu (inférence conforme adaptative, Gibbs et Candès 2021) : après chaque ' +
      'prévision à h pas évaluée d’une catégorie établie, α ← α + 0,0025 × (0,05 − échec), à partir de α = 0,05, le ' +
      'niveau 1 − α restant entre 0,8 et 0,995, et k = ⌈(n + 1)(1 − α)⌉, de sorte que la part des échecs suit 5 % (les ' +
      'invitations gardent 0,95). La demi-largeur à h est la plus grande de celles de 1…h (une ronde plus lointaine ' +
      'n’est jamais plus certaine). Les ' +
      'plages d’invitations restent dans ce que la catégorie a plausiblement invité : ses plus petites et plus grandes ' +
      'rondes ×÷ 1,42, la borne haute tirée de sa 2e plus grande ronde quand sa plus grande est exceptionnelle, plus ' +
      'de 2 fois la 2e (une catégorie récente : les rondes de toutes les catégories des 730 derniers jours, la plus ' +
      'grande d’entre elles). La ' +
      'demi-largeur d’une catégorie récente est le même quantile des erreurs absolues de toutes les prévisions de ' +
      'catégories récentes jamais évaluées, et n’est jamais plus étroite que celle qu’aurait une catégorie établie à ' +
      'l’échelle commune. La plage SCG est bornée à 0–1200 (margin_of_error est la demi-largeur avant cette borne); ' +
      'les invitations sont d’au moins 1.',
  },
  'rule.young': {
    from: 'c40a8f6820a8',
    fr:
      'Une catégorie qui compte de 1 à 4 rondes est récente : elle est prévue par le modèle de retour à la moyenne ' +
      'groupé appliqué à ses propres rondes (avec une seule ronde, cette ronde), avec le φ commun, et publiée avec des ' +
      'intervalles plus larges (voir les intervalles); model_used vaut « pooled_young » et son statut le précise. Ses ' +
      'dates empruntent les écarts récents de toutes les catégories.',
  },
  'rule.dates': {
    from: '6f9b50b57f46',
    fr:
      'predicted_date : pas = la médiane des six derniers écarts entre les dates de rondes de la catégorie (en jours ' +
      'entiers, demi arrondi vers le haut, au moins un; pour une catégorie récente n’ayant qu’une date de ronde : la ' +
      'médiane des écarts récents de toutes les catégories); le rang h est le h-ième pas après la dernière ronde qui ' +
      'tombe après la date de référence, de sorte qu’une date déjà passée est remplacée par la suivante au même ' +
      'rythme; un samedi ou un dimanche est reporté au lundi suivant, et chaque rang tombe après le précédent. Les ' +
      'rangs à plus de 365 jours de la date de référence ne sont pas prévus. date_range : un modèle de renouvellement ' +
      'des écarts : le premier écart est conditionné à dépasser les jours déjà écoulés depuis la dernière ronde (si ' +
      'aucun écart de la distribution n’est aussi long, le décompte repart de la date de référence), la h-ième ronde ' +
      'est la somme de ce premier écart et de h − 1 autres écarts indépendants, calculée exactement par convolution; ' +
      'la plage est le plus court intervalle contenant le niveau de cette somme (fins de semaine reportées au lundi), ' +
      'élargi pour inclure predicted_date, et non borné : une ronde lointaine d’une catégorie lente peut tomber à plus ' +
      'd’un an. Au-delà de l’écart typique de la catégorie (la médiane de ses six derniers écarts), le premier écart ' +
      'suit pour moitié la loi conditionnée propre à la catégorie et pour moitié la prochaine vague du programme : ' +
      'IRCC tient ses rondes par vagues réunissant plusieurs catégories (les jours de ronde de toute catégorie à 3 jours ' +
      'ou moins du précédent forment une vague), et les écarts entre les vagues des 730 derniers jours, étalés de ±10 % ' +
      'et conditionnés à dépasser les jours écoulés depuis la dernière vague du programme, disent quand vient la ' +
      'suivante. La plage d’un rang n’est jamais plus étroite que celle du rang précédent et ne finit jamais avant elle ' +
      '(son dernier jour est reculé s’il le faut). La distribution des écarts est formée des 8 derniers écarts de la catégorie, chacun étalé sur ±10 % ' +
      'de sa longueur (loi triangulaire) et pondéré selon sa récence (poids divisé par deux tous les 4 écarts en ' +
      'remontant), mélangés aux écarts de toutes les catégories des 730 derniers jours (5 % du poids; une catégorie ' +
      'ayant moins de trois écarts en emprunte assez pour en compter trois). Le niveau est calibré : le plus petit de ' +
      '0,8, 0,85, 0,9, 0,93, 0,95, 0,97, 0,98 et 0,99 dont les intervalles, dans la rétrovalidation progressive, ont ' +
      'contenu au moins 90 % des dates réelles des rondes des 730 derniers jours (les rangs 4 et 5 prennent le niveau ' +
      'du rang 3). Un flux périmé (la ronde la plus récente, toutes catégories confondues, date de plus de ' +
      'PDI_DRAWS_STALE_DAYS jours, 30 par défaut, avant la date de référence : data_source.stale) a probablement manqué ' +
      'des rondes; les jours écoulés depuis la dernière ronde connue d’une catégorie ne sont donc pas une attente : sa ' +
      'prochaine ronde suit alors la loi résiduelle (temps de récurrence avant) de la même distribution des écarts, ' +
      'l’attente d’un jour quelconque jusqu’à la prochaine ronde, r = 1, 2, … jours après la date de référence avec le ' +
      'poids P(écart ≥ r) ÷ E[écart]; les rondes suivantes ajoutent d’autres écarts indépendants; les rondes du programme ' +
      'n’interviennent pas; les niveaux sont les niveaux calibrés.',
  },
  'rule.likely_window': {
    from: 'cc2a64f935a0',
    fr:
      'likely_window (la prochaine ronde seulement) : les 21 jours civils (le premier et le dernier compris) qui ' +
      'portent le plus de la loi des dates derrière date_range, à l’intérieur de date_range (ou la contenant quand la ' +
      'plage est plus courte), avec la probabilité que la ronde y tombe : trois semaines avec lesquelles on peut ' +
      's’organiser, là où une plage calibrée pour contenir 90 % doit aussi couvrir les longues pauses du programme. La ' +
      'probabilité est la masse de la loi dans la fenêtre, recalibrée par une régression isotone, sur leur masse, du ' +
      'fait que les fenêtres passées ont contenu leur ronde : les fenêtres servies tous les 7 jours de chaque écart de ' +
      'toutes les catégories dont la ronde était connue, sur les 730 derniers jours, ajustée à part pour les fenêtres ' +
      'demandées un jour de ronde, plus tard dans l’écart typique de la catégorie, et au-delà; gardée entre 1/(n + 1) ' +
      'et n/(n + 1) selon les n fenêtres des blocs extrêmes; la masse de la loi elle-même tant que moins de 30 ' +
      'fenêtres sont connues. Elle vaut au plus 0,9 quand la fenêtre est à l’intérieur de date_range, et au moins 0,9 ' +
      'quand elle la contient, ou contient la plage au niveau calibré que date_range élargit pour y inclure ' +
      'predicted_date. Pour un flux périmé (voir dates), la probabilité est la masse de la loi elle-même dans la ' +
      'fenêtre, dans les mêmes bornes : aucune fenêtre de la loi résiduelle ne figure parmi celles dont la calibration ' +
      'a appris.',
  },
  'rule.dormant': {
    from: '667b6c6ee437',
    fr:
      'Une catégorie est en sommeil, et n’est pas prévue, lorsque sa dernière ronde remonte à plus de max(365, 3 × le ' +
      '95e centile de ses écarts entre dates de rondes) jours avant la date de référence (centile par interpolation ' +
      'linéaire; 365 jours si elle compte moins de deux dates de rondes). Quand le flux est périmé (sa ronde la plus ' +
      'récente, toutes catégories confondues, date de plus de PDI_DRAWS_STALE_DAYS jours avant la date de référence : ' +
      'data_source.stale), le silence est compté jusqu’à cette ronde la plus récente : les rondes qui manquent au flux ' +
      'sont inconnues, non absentes; seuls les jours que couvre le flux peuvent montrer qu’une catégorie a cessé ses ' +
      'rondes.',
  },
  'rule.confidence': {
    from: '6794301ac29b',
    fr:
      'confidence_score (0–100) est le taux de réussite des prévisions SCG publiées à cet horizon dans la ' +
      'rétrovalidation progressive (les prévisions de la catégorie elle-même; pour une catégorie récente, celles de ' +
      'toutes les catégories récentes), une réussite étant une prévision à 10 points SCG ou moins du score limite ' +
      'réel, lissé par une loi a priori uniforme Beta(1,1) (règle de succession de Laplace) : (réussites + 1) / ' +
      '(n + 2) × 100, arrondi à une décimale. Sans prévision évaluée, il vaut 50. Chaque prévision donne n dans ' +
      'confidence_forecasts_scored.',
  },
  'rule.backtest_definition': {
    from: '14e324ca3a96',
    fr:
      'Rétrovalidation progressive (origine glissante, fenêtre croissante) : après chaque ronde de chaque catégorie, ' +
      'chaque modèle prévoit les cinq prochaines rondes de la catégorie à partir de ce que l’on savait ce jour-là ' +
      'seulement (ses propres rondes, et les quantités communes estimées à partir des rondes de toutes les catégories ' +
      'jusqu’à ce jour). Les erreurs valent réel − prévision. Les tableaux portent sur les prévisions dont la cible est ' +
      'tombée dans les 730 jours précédant la date de référence, pour les catégories établies (5 rondes ou plus au ' +
      'moment de la prévision); pooled_young porte sur toutes les prévisions de catégories récentes jamais évaluées. ' +
      'mase = moyenne des |erreurs| / l’échelle de la catégorie au moment de la prévision (sa variation absolue ' +
      'moyenne sur les 12 dernières rondes). coverage_95 est la part des valeurs réelles comprises dans l’intervalle ' +
      'publié à ce moment, dimensionné d’après les erreurs alors connues.',
  },
  'category.general': {
    from: 'dceffb358479',
    fr:
      'Rondes ouvertes aux candidats de tous les programmes d’Entrée express (Programme des travailleurs qualifiés ' +
      '(fédéral), Catégorie de l’expérience canadienne, Programme des travailleurs de métiers spécialisés (fédéral), ' +
      'Programme des candidats des provinces). Le flux les appelle « No Program Specified » (Aucun programme ' +
      'spécifié) jusqu’en octobre 2023 et « General » (Général) à partir de décembre 2023.',
  },
  'category.cec': {
    from: '37ec0da3094a',
    fr: 'Rondes propres à un programme, pour les candidats de la Catégorie de l’expérience canadienne.',
  },
  'category.pnp': {
    from: '084d960eeb0d',
    fr:
      'Rondes propres à un programme, pour les candidats ayant une désignation provinciale ou territoriale; leurs ' +
      'scores comprennent les 600 points qu’ajoute une désignation.',
  },
  'category.fsw': {
    from: 'c2014562fc03',
    fr: 'Rondes propres à un programme, pour les candidats du Programme des travailleurs qualifiés (fédéral).',
  },
  'category.fst': {
    from: 'f63ce8ef6eae',
    fr: 'Rondes propres à un programme, pour les candidats du Programme des travailleurs de métiers spécialisés (fédéral).',
  },
  'category.french': {
    from: 'cbeacf20caf2',
    fr: 'Rondes par catégorie, pour les candidats ayant une solide maîtrise du français.',
  },
  'category.healthcare': {
    from: '50aca2c61e0f',
    fr:
      'Rondes par catégorie, pour les professions des soins de santé, nommées « Healthcare occupations » ' +
      '(Professions des soins de santé, version 1) et « Healthcare and social services occupations » (Professions ' +
      'des soins de santé et des services sociaux, version 2) dans le flux.',
  },
  'category.stem': {
    from: '45546b75e86f',
    fr: 'Rondes par catégorie, pour les professions en sciences, technologies, génie et mathématiques.',
  },
  'category.trade': {
    from: '3d7f4784bead',
    fr: 'Rondes par catégorie, pour les métiers (distinctes du Programme des travailleurs de métiers spécialisés (fédéral)).',
  },
  'category.transport': { from: '38000072ab4d', fr: 'Rondes par catégorie, pour les professions du transport.' },
  'category.agriculture': {
    from: '0d55e00495d2',
    fr: 'Rondes par catégorie, pour les professions de l’agriculture et de l’agroalimentaire.',
  },
  'category.education': { from: '9f374bafa763', fr: 'Rondes par catégorie, pour les professions de l’éducation.' },
};

/** French names of the parameters the model catalogue lists (its keys are the API's). */
export const PARAMETER_NAMES_FR: Readonly<Record<string, string>> = {
  window: 'fenêtre',
  years: 'années',
  shrinkage_pairs: 'paires de rétrécissement',
  ridge: 'pénalité ridge',
  own_errors: 'erreurs propres',
  prior_errors: 'erreurs a priori',
  window_days: 'fenêtre (jours)',
  draws: 'rondes',
  fitting: 'ajustement',
};
