// Service C routes: the five endpoints of the specification plus GET /api/grants/{id}/, served at the spec's
// address (host/api + /api/<x>/ = /api/api/<x>/) and at the old address /api/<x>/ that clients still call.
import { getAggregate } from '../../core/db/datasets.ts';
import { HttpError, badRequest, notFound } from '../../core/http/errors.ts';
import { clampLimit, cleanText, parseBoolean } from '../../core/http/params.ts';
import { withAliases } from '../../core/http/service-app.ts';
import type { ServiceApp, ServiceContext } from '../../core/service.ts';
import { CALCULATOR_FORMULAS_MARKDOWN, CalculatorInputError, calculateTaxpayerShare } from './calculator/index.ts';
import {
  PROVINCE_CODES,
  RECIPIENT_TYPES,
  dollarsToCents,
  fiscalYearLabel,
  normaliseProvince,
  parseFiscalYearLabel,
} from './source/index.ts';
import { DEFAULT_SORT, SORT_FIELDS, getGrant, parseSort, readAggregate, searchGrants } from './repository.ts';
import type { SearchFilters } from './repository.ts';
import { MemorySearch } from './memory-search.ts';
import type { StoredCalculator } from './statistics.ts';
import * as S from './schemas.ts';

const NO_DATA = 'no grants data has been imported yet; run `pdi import grants <csv>` (or start the server with demo data)';

function parseProvince(value: string | undefined): string | undefined {
  const text = cleanText(value);
  if (text === undefined) return undefined;
  const code = normaliseProvince(text);
  if (!code) throw badRequest(`province must be a province or territory code (${PROVINCE_CODES.join(', ')}), got "${text}"`);
  return code;
}

function parseFiscalYear(value: string | undefined, name: string): string | undefined {
  const text = cleanText(value);
  if (text === undefined) return undefined;
  const start = /^\d{4}$/.test(text) ? Number(text) : parseFiscalYearLabel(text);
  if (start === null) throw badRequest(`${name} must be a fiscal year in the form YYYY-YY (e.g. 2018-19), got "${text}"`);
  return fiscalYearLabel(start);
}

function parseRecipientType(value: string | undefined): string | undefined {
  const text = cleanText(value);
  if (text === undefined) return undefined;
  const code = text.toUpperCase();
  if (!(code in RECIPIENT_TYPES))
    throw badRequest(`recipient_type must be one of ${Object.keys(RECIPIENT_TYPES).join(', ')}, got "${text}"`);
  return code;
}

/** Dollars → the smallest (bound "min") or largest (bound "max") whole number of cents inside the bound. */
function boundCents(value: number | undefined, name: string, bound: 'min' | 'max'): number | undefined {
  if (value === undefined) return undefined;
  let cents: number;
  try {
    cents = dollarsToCents(value);
  } catch {
    throw badRequest(`${name} is out of range`);
  }
  if (bound === 'min' && cents / 100 < value) cents++;
  if (bound === 'max' && cents / 100 > value) cents--;
  return cents;
}

export async function grantsRoutes(app: ServiceApp, ctx: ServiceContext): Promise<void> {
  const db = ctx.db.kysely;
  // Searches count and order their matches in memory (memory-search.ts): loaded in the background when the
  // server is ready (about 3 s for 1.1 million agreements), else by the first search; closing waits for it.
  const memory = new MemorySearch(db, ctx.dataVersion);
  let warming: Promise<void> | null = null;
  app.addHook('onReady', async () => {
    warming = memory.ready().catch((error) => ctx.log.warn({ err: error }, 'in-memory search not loaded; the first search will load it'));
  });
  app.addHook('onClose', async () => {
    await warming;
  });

  async function aggregate<N extends 'stats' | 'recipients' | 'comprehensive'>(name: N) {
    const stored = await readAggregate(db, name);
    if (!stored) throw new HttpError(503, NO_DATA);
    return stored.value;
  }

  // The calculator's aggregates are parsed once per data version (POST responses are not cached).
  let calculatorMemo: { version: string; value: StoredCalculator } | null = null;
  async function calculatorAggregates(): Promise<StoredCalculator> {
    const row = await db
      .selectFrom('aggregates')
      .select('data_version')
      .where('service', '=', 'grants')
      .where('name', '=', 'calculator')
      .executeTakeFirst();
    if (!row) throw new HttpError(503, NO_DATA);
    const memo = calculatorMemo;
    if (memo !== null && memo.version === row.data_version) return memo.value;
    const stored = await getAggregate<StoredCalculator>(db, 'grants', 'calculator');
    if (!stored) throw new HttpError(503, NO_DATA);
    calculatorMemo = { version: stored.data_version, value: stored.value };
    return stored.value;
  }

  await withAliases(app, { spec: '/api/api', aliases: ['/api'] }, async (scope) => {
    scope.get(
      '/stats/',
      {
        schema: {
          summary: 'Totals by province, fiscal year and program',
          description: 'Totals over all agreements (each counted once, at its current amendment), computed when the data is imported.',
          response: { 200: S.StatsBody },
        },
        config: { operation: 'statistics', responseCache: true },
      },
      async () => aggregate('stats'),
    );

    scope.get(
      '/search/',
      {
        schema: {
          summary: 'Search grant agreements',
          description:
            '`search` (alias `q`) is a case-insensitive substring match over agreement title, recipient legal name, description and program name, ' +
            'served by a trigram index over the distinct texts. All filters combine with AND. `count` is the number of all matches; `limit` (default 100) above 1000 is reduced to 1000. ' +
            `Sort fields: ${SORT_FIELDS.join(', ')} (prefix \`-\` for descending; default \`${DEFAULT_SORT}\`; fiscal_year and recipient_province then by value); ties are broken by id, so pages never overlap.`,
          querystring: S.SearchQuery,
          response: { 200: S.SearchBody },
        },
        config: { operation: 'search', responseCache: true },
      },
      async (request) => {
        const q = request.query;
        const sortText = cleanText(q.sort) ?? DEFAULT_SORT;
        const order = parseSort(sortText);
        if (!order)
          throw badRequest(
            `sort must be one of ${SORT_FIELDS.join(', ')}, each optionally prefixed with - for descending; got "${sortText}"`,
          );
        const filters: SearchFilters = {
          text: cleanText(q.search !== undefined ? q.search : q.q),
          province: parseProvince(q.province),
          fiscalYear: q.fiscal_year !== undefined ? parseFiscalYear(q.fiscal_year, 'fiscal_year') : parseFiscalYear(q.year, 'year'),
          recipientType: parseRecipientType(q.recipient_type),
          minCents: boundCents(q.min_value, 'min_value', 'min'),
          maxCents: boundCents(q.max_value, 'max_value', 'max'),
          isMajor: parseBoolean(q.is_major),
          isNotable: parseBoolean(q.is_notable),
        };
        if (q.min_value !== undefined && q.max_value !== undefined && q.min_value > q.max_value) {
          throw badRequest('min_value must not be greater than max_value');
        }
        const limit = clampLimit(q.limit, S.MAX_LIMIT);
        const result = await searchGrants(db, memory, filters, order, { limit, offset: q.offset });
        return { count: result.count, limit, offset: q.offset, results: result.rows };
      },
    );

    scope.get(
      '/grants/:id/',
      {
        schema: { summary: 'One grant agreement', params: S.GrantParams, response: { 200: S.GrantRecord } },
        config: { operation: 'grant lookup', responseCache: true },
      },
      async (request) => {
        const grant = await getGrant(db, Number(request.params.id));
        if (!grant) throw notFound('grant not found');
        return grant;
      },
    );

    scope.get(
      '/recipients/',
      {
        schema: {
          summary: 'Recipients: top 50 by value, by type, by province',
          description:
            'Recipients are grouped by legal name as published. `recipient_type` keeps the source codes; `label` gives the meaning of the official schema ' +
            '(A Indigenous recipients, S Academia, …).',
          response: { 200: S.RecipientsBody },
        },
        config: { operation: 'recipient statistics', responseCache: true },
      },
      async () => aggregate('recipients'),
    );

    scope.get(
      '/comprehensive-stats/',
      {
        schema: {
          summary: 'Detailed statistics',
          description:
            'Basic statistics (with the median), by fiscal year, province, NAICS sector and program (top 50), the value distribution over the half-open ranges ' +
            '[min, max) Under $10K … Over $10M, and the notable and major-funding breakdown by rule category. Computed when the data is imported.',
          response: { 200: S.ComprehensiveBody },
        },
        config: { operation: 'comprehensive statistics', responseCache: true },
      },
      async () => aggregate('comprehensive'),
    );

    scope.post(
      '/calculate/',
      {
        schema: {
          summary: "A taxpayer's share of federal grants",
          description: CALCULATOR_FORMULAS_MARKDOWN,
          body: S.CalculateRequest,
          response: { 200: S.CalculateBody },
        },
        config: { operation: 'calculation' },
      },
      async (request) => {
        const stored = await calculatorAggregates();
        if (!stored.ok) throw new HttpError(500, `calculation error: ${stored.error}`);
        try {
          return { ...calculateTaxpayerShare(request.body, stored.aggregates), data_source: stored.data_source };
        } catch (error) {
          if (error instanceof CalculatorInputError) throw badRequest(error.message);
          throw error;
        }
      },
    );
  });
}
