// GET /api/grants/{id}/: one agreement, and the record every search result is.
import { Type } from 'typebox';
import type { Static, TOptional, TString } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';
import { integerPathParam } from '../../../core/http/params.ts';
import { BILINGUAL_FIELDS, langParam } from '../language.ts';
import type { FrenchField } from '../language.ts';
import { RECIPIENT_TYPE_LIST } from './common.ts';

export const GRANT_DOCS = { summary: 'One grant agreement' };

export const GrantParams = Type.Object({ id: integerPathParam('Grant id (as in search results).', '1') });
export const GrantQuery = Type.Object({ lang: Type.Optional(langParam()) });

export const GrantRecord = Type.Object({
  id: Type.Integer(),
  reference_number: Type.String({ description: 'ref_number (pre-2025 files) or agreement_number (December 2025 schema).' }),
  owner_org: Type.String({ description: 'Publishing department code; with reference_number it identifies the agreement.' }),
  owner_org_title: Type.String(),
  amendment_number: Type.Integer({ description: 'The current (highest) amendment; its value is the agreement value.' }),
  amendment_date: Nullable(Type.String()),
  agreement_type: Type.String({ description: 'G grant, C contribution, O other transfer payment ("" when not given).' }),
  recipient_type: Type.String({ description: `Code as published: ${RECIPIENT_TYPE_LIST} ("" when not given).` }),
  recipient_legal_name: Type.String(),
  recipient_operating_name: Type.String(),
  recipient_country: Type.String(),
  recipient_province: Type.String({ description: 'Two-letter code; "" when not given or outside Canada.' }),
  recipient_city_en: Type.String(),
  recipient_postal_code: Type.String(),
  agreement_title_en: Type.String(),
  agreement_value: Type.Number({ description: 'Canadian dollars (exact to the cent).' }),
  description_en: Type.String(),
  agreement_start_date: Type.String({ description: 'YYYY-MM-DD' }),
  agreement_end_date: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
  program_name_en: Type.String(),
  program_purpose_en: Type.String(),
  naics_identifier: Type.String(),
  naics_sector_en: Type.String({
    description:
      'NAICS Canada sector of the two-digit code; "" when unknown. With lang=fr: its name in NAICS Canada’s French edition (SCIAN Canada).',
  }),
  naics_sector_fr: Type.Optional(
    Type.String({ description: 'With lang=both: the sector’s name in NAICS Canada’s French edition (SCIAN Canada; "" when unknown).' }),
  ),
  expected_results_en: Type.String(),
  fiscal_year: Type.String({ description: 'YYYY-YY, from the reference number pattern DDD-YYYY-YYYY-Qn, else from the start date.' }),
  is_major_funding: Type.Boolean({ description: 'agreement_value over $1,000,000.' }),
  is_notable: Type.Boolean(),
  notable_reason: Type.String({
    description:
      'Names the rule category, the keyword and the English field it was found in; "" when not notable. With lang=fr: in French (the category’s French label; the keyword as the rule writes it).',
  }),
  ...(Object.fromEntries(
    Object.entries(BILINGUAL_FIELDS).map(([en, fr]) => [
      fr,
      Type.Optional(Type.String({ description: `With lang=both: the French ${en} ("" where the source gives none).` })),
    ]),
  ) as Record<FrenchField, TOptional<TString>>),
});

/** A grant agreement as the API serves it. */
export type Grant = Static<typeof GrantRecord>;
