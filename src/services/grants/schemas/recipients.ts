// GET /api/recipients/: recipients by value, type and province, computed at import.
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { DataSourceSchema, countValue, money } from './common.ts';

export const RECIPIENTS_DOCS = {
  summary: 'Recipients: top 50 by value, by type, by province',
  description:
    'Recipients are grouped by legal name as published. `recipient_type` keeps the source codes; `label` gives the meaning of the official schema ' +
    '(A Indigenous recipients, S Academia, …).',
};

export const RecipientsBody = Type.Object({
  top_recipients: Type.Array(
    Type.Object({
      recipient_legal_name: Type.String({
        description: 'The legal name as published; with `lang=fr` its French name where the source gives one (else the English one).',
      }),
      recipient_legal_name_fr: Type.Optional(
        Type.String({ description: 'With `lang=both`: the French name ("" where the source gives none).' }),
      ),
      total_value: money(),
      grant_count: Type.Integer(),
      avg_value: money(),
    }),
    { description: 'The 50 recipients (by legal name as published) with the largest total value.' },
  ),
  by_type: Type.Array(Type.Object({ recipient_type: Type.String(), label: Type.String(), ...countValue, avg_value: money() }), {
    description: 'By total value, descending.',
  }),
  by_province: Type.Array(Type.Object({ recipient_province: Type.String(), ...countValue, unique_recipients: Type.Integer() }), {
    description: 'By total value, descending.',
  }),
  data_source: DataSourceSchema,
});

export type GrantsRecipients = Static<typeof RecipientsBody>;
