// Parts of Service C's response schemas that several endpoint groups share.
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { RECIPIENT_TYPES } from '../source/index.ts';

/** The recipient type codes with their meanings, for descriptions. */
export const RECIPIENT_TYPE_LIST = Object.entries(RECIPIENT_TYPES)
  .map(([code, label]) => `${code} (${label})`)
  .join(', ');

export const DataSourceSchema = Type.Object(
  {
    kind: Type.String({ description: '"demo" for generated data, "import" for an imported file.' }),
    is_demo: Type.Boolean(),
    description: Type.String(),
    source: Type.String(),
    schema: Type.String({ description: 'CSV schema of the file: pre2025 or 2025.' }),
    data_version: Type.String(),
    imported_at: Type.String(),
    notable_rules_version: Type.String(),
  },
  { description: 'Where the data comes from; generated demo data is labelled kind "demo".' },
);
/** Where the data came from; generated data says so (kind "demo", is_demo true). */
export type DataSource = Static<typeof DataSourceSchema>;

export const money = (description?: string) => Type.Number(description ? { description } : {});
export const countValue = { count: Type.Integer(), total_value: money() };

/** The body of every error response. */
export const ErrorBody = Type.Object({ error: Type.String() });
