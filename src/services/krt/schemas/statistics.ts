// Statistics of the store's key resources tables: request, response and route schemas.
import { Type } from 'typebox';
import { limitParam } from '../../../core/http/params.ts';
import { Nullable } from '../../../core/http/schema.ts';

export const VENDORS_DEFAULT = 10;
export const VENDORS_MAX = 50;

const StatisticsQuery = Type.Object({
  vendors: Type.Optional(limitParam(VENDORS_DEFAULT, VENDORS_MAX, 'vendors listed, most rows first')),
});

const interval = Nullable(
  Type.Array(Type.Number({ minimum: 0, maximum: 1 }), {
    minItems: 2,
    maxItems: 2,
    description: "Wilson's 95% score interval of share_valid; null without rows.",
  }),
);

const shareFields = {
  rows_with_rrid: Type.Integer({ description: 'Rows that write an RRID (well-formed, or written broken).' }),
  rows_with_valid_rrid: Type.Integer({ description: 'Rows with at least one RRID that POST /api/ai/validate-rrid/ calls `valid`.' }),
  share_valid: Nullable(Type.Number({ minimum: 0, maximum: 1, description: 'rows_with_valid_rrid / rows; null without rows.' })),
  share_valid_interval: interval,
};

export const StatisticsResponse = Type.Object({
  success: Type.Literal(true),
  data_version: Nullable(Type.String({ description: 'The data version the figures were computed from.' })),
  articles: Type.Integer({ description: 'Articles of the store.' }),
  articles_with_rows: Type.Integer({ description: 'Articles whose best built-in table has at least one row.' }),
  rows: Type.Integer({ description: "Rows of the articles' best built-in tables: the denominator of the shares below." }),
  ...shareFields,
  rrids_checked: Type.Integer({ description: 'Distinct RRIDs validated.' }),
  resource_types: Type.Array(
    Type.Object({
      resource_type: Type.String(),
      rows: Type.Integer(),
      share_of_rows: Type.Number({ minimum: 0, maximum: 1, description: 'rows / all rows.' }),
      articles: Type.Integer({ description: 'Articles with a row of this type.' }),
      ...shareFields,
    }),
    { description: 'Every resource type, most rows first; the shares of valid RRIDs are of the rows of that type.' },
  ),
  vendor_rows: Type.Integer({ description: "Rows of reused resources that name a source: the vendors' denominator." }),
  vendors_total: Type.Integer({ description: 'Distinct vendors (names of known vendors unified: "Abcam plc" is Abcam).' }),
  vendors: Type.Array(
    Type.Object({
      vendor: Type.String(),
      rows: Type.Integer(),
      share_of_rows: Type.Number({ minimum: 0, maximum: 1, description: 'rows / vendor_rows.' }),
      articles: Type.Integer(),
    }),
    { description: 'The vendors with the most rows (as many as `vendors` asks), most rows first, then by name.' },
  ),
  by_year: Type.Array(
    Type.Object({
      year: Nullable(Type.Integer({ description: "The article's year of publication; null for articles without a date." })),
      articles: Type.Integer(),
      rows: Type.Integer(),
      ...shareFields,
    }),
    { description: 'By year of the article, oldest first; articles without a date last.' },
  ),
});

export const statisticsSchema = {
  summary: "Statistics of the store's key resources tables",
  description:
    "Resource types, vendors and the share of rows that write a valid RRID, overall and by year of the article, each count with its denominator. The tables counted are each article's best table of the built-in extractors (the authors' own table, else the text extractor's): the tables the RRID knowledge base is built from; language-model tables are not counted. A row has a valid RRID when at least one RRID it writes is `valid` as POST /api/ai/validate-rrid/ defines it (listed by its registry when that dump is imported, or written by at least two papers of the store; an RRID only generated demo articles write is not valid). Vendors are the sources of reused resources, known vendors under one name. Computed once per data version. `vendors`: how many vendors to list (default 10; values above 50 are reduced to 50).",
  querystring: StatisticsQuery,
  response: { 200: StatisticsResponse },
};
