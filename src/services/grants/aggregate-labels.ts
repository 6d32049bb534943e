// The stored aggregates in the language a request asks for. They are stored with the English names of coded values
// (NAICS sectors, recipient types, value ranges, notable categories); in French each is served under the same field
// with its French name: sectors from NAICS Canada's French edition (source/naics.ts), recipient types from the labels
// the pages use (messages/fr.ts, after the official schema's French names), value ranges from VALUE_RANGES, notable
// categories from the rule file (source/notable-keywords.json). Each sector's entry is labelled in the language,
// the agreements whose source gives no sector (the entry "") as such.
// The top lists' programs and recipients are stored with their French names from the source beside the English
// ones (aggregates.ts, fillFrenchNames): `lang=fr` serves the French name under the English field (the English
// one where the source gives none), `lang=both` both, `en` the English one alone.
import { VALUE_RANGES } from './aggregates.ts';
import type { GrantsLanguage } from './language.ts';
import { grantsMessages } from './messages/index.ts';
import type { GrantsKey } from './messages/index.ts';
import type { GrantsRecipients } from './schemas/recipients.ts';
import type { GrantsComprehensiveStats, GrantsStats } from './schemas/stats.ts';
import { naicsSectorInFrench, notableCategoryLabel } from './source/index.ts';

const RANGE_IN_FRENCH = new Map(VALUE_RANGES.map((r) => [r.range, r.rangeFr]));

/** A recipient type's French label, or `label` for a code the catalogue does not name. */
function recipientTypeInFrench(code: string, label: string): string {
  const key = `recipientType.${code}`;
  return key in grantsMessages.tables.fr ? grantsMessages.in('fr')(key as GrantsKey) : label;
}

/** A top list's entry with its name `en` in `language` (see above): its French name `fr` goes but with `both`. */
function named<E extends Record<string, unknown>, K extends keyof E & string, F extends keyof E & string>(
  entry: E,
  en: K,
  fr: F,
  language: GrantsLanguage,
): E {
  // (aggregates stored before the French names were: none)
  const french = typeof entry[fr] === 'string' ? entry[fr] : '';
  if (language === 'both') return { ...entry, [fr]: french };
  const { [fr]: _french, ...rest } = entry;
  return (language === 'fr' && french !== '' ? { ...rest, [en]: french } : rest) as E;
}

const program = <E extends { program_name_en: string; program_name_fr?: string }>(e: E, language: GrantsLanguage): E =>
  named(e, 'program_name_en', 'program_name_fr', language);

export function statsIn(value: GrantsStats, language: GrantsLanguage): GrantsStats {
  return { ...value, top_programs: value.top_programs.map((p) => program(p, language)) };
}

/** A sector's entry with its `label`: its name in `language`, or the words for the agreements with no sector (""). */
function sectorLabel(sector: string, language: 'en' | 'fr'): string {
  if (sector === '') return grantsMessages.format(language, 'sector.none');
  return language === 'fr' ? naicsSectorInFrench(sector) : sector;
}

export function comprehensiveIn(value: GrantsComprehensiveStats, language: GrantsLanguage): GrantsComprehensiveStats {
  const labelled = language === 'fr' ? 'fr' : 'en';
  const programs = {
    ...value,
    program_analysis: value.program_analysis.map((p) => program(p, language)),
    sector_analysis: value.sector_analysis.map((s) => ({ ...s, label: sectorLabel(s.naics_sector_en, labelled) })),
  };
  if (language !== 'fr') return programs;
  return {
    ...programs,
    sector_analysis: programs.sector_analysis.map((s) => ({ ...s, naics_sector_en: naicsSectorInFrench(s.naics_sector_en) })),
    value_distribution: value.value_distribution.map((r) => ({ ...r, range: RANGE_IN_FRENCH.get(r.range) ?? r.range })),
    notable_breakdown: {
      ...value.notable_breakdown,
      by_reason: value.notable_breakdown.by_reason.map((r) => ({ ...r, label: notableCategoryLabel(r.category, 'fr') })),
    },
  };
}

export function recipientsIn(value: GrantsRecipients, language: GrantsLanguage): GrantsRecipients {
  const withNames = {
    ...value,
    top_recipients: value.top_recipients.map((r) => named(r, 'recipient_legal_name', 'recipient_legal_name_fr', language)),
  };
  if (language !== 'fr') return withNames;
  return { ...withNames, by_type: value.by_type.map((t) => ({ ...t, label: recipientTypeInFrench(t.recipient_type, t.label) })) };
}
