// The language of C's answers: the source gives some texts in English and French (bilingual cells, *_fr columns),
// both stored. The API keeps its English field names; `lang` (then Accept-Language) picks the language of their
// values, and `lang=both` adds each French text beside its English one, under the French field name.
import type { FastifyRequest } from 'fastify';
import { choiceParam } from '../../core/http/params.ts';
import { negotiateLanguage } from '../../core/i18n/language.ts';
import type { Language } from '../../core/i18n/language.ts';
import { naicsSectorInFrench, notableReasonInFrench } from './source/index.ts';

/** The languages C serves; the first is the default. */
export const GRANTS_LANGUAGES: readonly Language[] = ['en', 'fr'];

/** What a request asks for: one language, or both side by side. */
export type GrantsLanguage = Language | 'both';

/**
 * Each text served under its English name, with the stored French text beside it: served in French where the
 * source gives it ('' in French: the source gave none, and the English one is served).
 */
export const BILINGUAL_FIELDS = {
  owner_org_title: 'owner_org_title_fr',
  recipient_legal_name: 'recipient_legal_name_fr',
  recipient_operating_name: 'recipient_operating_name_fr',
  recipient_city_en: 'recipient_city_fr',
  program_name_en: 'program_name_fr',
  program_purpose_en: 'program_purpose_fr',
  agreement_title_en: 'agreement_title_fr',
  description_en: 'description_fr',
  expected_results_en: 'expected_results_fr',
} as const;
export type EnglishField = keyof typeof BILINGUAL_FIELDS;
export type FrenchField = (typeof BILINGUAL_FIELDS)[EnglishField];
const PAIRS = Object.entries(BILINGUAL_FIELDS) as Array<[EnglishField, FrenchField]>; // (Object.entries is typed string[])

export const langParam = () =>
  choiceParam(
    ['en', 'fr', 'both'],
    'Language of the texts the source gives in English and French (titles, descriptions, program, recipient, department, city): ' +
      '`en` or `fr` (the English field names are kept; a text the source gives in English only is served in English), or `both`: ' +
      'the English texts and, beside each, its French one (`agreement_title_fr`, …; "" where the source has none). ' +
      'Without it, the Accept-Language header decides (English by default).',
    { example: 'fr' },
  );

/**
 * The language a request asks for: `lang` (validated by the route's schema), else Accept-Language. The routes declare
 * `languages`, so the response cache keys their answers by the negotiated language and says `Vary: Accept-Language`.
 */
export function requestLanguage(request: FastifyRequest, lang: string | undefined): GrantsLanguage {
  const wanted = lang?.trim().toLowerCase();
  if (wanted === 'both' || wanted === 'en' || wanted === 'fr') return wanted;
  return negotiateLanguage(undefined, request.headers['accept-language'], GRANTS_LANGUAGES);
}

/** A record with both languages' texts as served in `language` (the French fields only with `both`). */
export function inLanguage<R extends Record<EnglishField | FrenchField, string>>(
  record: R,
  language: GrantsLanguage,
): Omit<R, FrenchField> | R {
  if (language === 'both') return record;
  const served: Record<string, unknown> = { ...record };
  for (const [en, fr] of PAIRS) {
    if (language === 'fr' && record[fr] !== '') served[en] = record[fr];
    delete served[fr];
  }
  return served as Omit<R, FrenchField>;
}

/**
 * The NAICS sector in `language`: the name of NAICS Canada's French edition (SCIAN Canada, source/naics.ts) under
 * `naics_sector_en` with `fr`, as `lang` serves every other text; beside it as `naics_sector_fr` with `both` ("" where
 * the sector is unknown).
 */
export function sectorInLanguage<R extends { naics_sector_en: string }>(
  record: R,
  language: GrantsLanguage,
): R & { naics_sector_fr?: string } {
  if (language === 'en') return record;
  const french = record.naics_sector_en === '' ? '' : naicsSectorInFrench(record.naics_sector_en);
  return language === 'fr' ? { ...record, naics_sector_en: french } : { ...record, naics_sector_fr: french };
}

/**
 * The reason an agreement is notable in `language`: with `fr`, the stored reason in French (the rule category's
 * French label, the keyword as the rule writes it, the English field it was found in: notableReasonInFrench), as
 * stored where it does not read as the rules write it; with `en` and `both`, as stored.
 */
export function notableInLanguage<R extends { notable_reason: string }>(record: R, language: GrantsLanguage): R {
  const french = language === 'fr' && record.notable_reason !== '' ? notableReasonInFrench(record.notable_reason) : null;
  return french === null ? record : { ...record, notable_reason: french };
}
