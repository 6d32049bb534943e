// The stored aggregates in the language a request asks for. They are stored with the English names of coded values
// (NAICS sectors, recipient types, value ranges); in French each is served under the same field with its French
// name: sectors from NAICS Canada's French edition (source/naics.ts), recipient types from the labels the pages
// use (messages/fr.ts, after the official schema's French names), value ranges from VALUE_RANGES.
import { VALUE_RANGES } from './aggregates.ts';
import type { GrantsLanguage } from './language.ts';
import { grantsMessages } from './messages/index.ts';
import type { GrantsKey } from './messages/index.ts';
import type { GrantsRecipients } from './schemas/recipients.ts';
import type { GrantsComprehensiveStats } from './schemas/stats.ts';
import { naicsSectorInFrench } from './source/index.ts';

const RANGE_IN_FRENCH = new Map(VALUE_RANGES.map((r) => [r.range, r.rangeFr]));

/** A recipient type's French label, or `label` for a code the catalogue does not name. */
function recipientTypeInFrench(code: string, label: string): string {
  const key = `recipientType.${code}`;
  return key in grantsMessages.tables.fr ? grantsMessages.in('fr')(key as GrantsKey) : label;
}

export function comprehensiveIn(value: GrantsComprehensiveStats, language: GrantsLanguage): GrantsComprehensiveStats {
  if (language !== 'fr') return value;
  return {
    ...value,
    sector_analysis: value.sector_analysis.map((s) => ({ ...s, naics_sector_en: naicsSectorInFrench(s.naics_sector_en) })),
    value_distribution: value.value_distribution.map((r) => ({ ...r, range: RANGE_IN_FRENCH.get(r.range) ?? r.range })),
  };
}

export function recipientsIn(value: GrantsRecipients, language: GrantsLanguage): GrantsRecipients {
  if (language !== 'fr') return value;
  return { ...value, by_type: value.by_type.map((t) => ({ ...t, label: recipientTypeInFrench(t.recipient_type, t.label) })) };
}
