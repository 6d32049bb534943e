// Statistics of the store's key resources tables (GET /api/statistics/, the /statistics page): resource types,
// vendors, and the share of rows that write a valid RRID, overall and by year of the article. Each count comes with
// its denominator. The tables counted are the ones the knowledge base is built from (each article's best table of the
// built-in extractors: the authors' own table, else the text extractor's key resources table without its further
// mentions), so no table a language model wrote is counted. "Valid" is what POST /api/ai/validate-rrid/ answers (the validation the caller passes in).
import type { KrtRow } from './extract/index.ts';
import { canonicalVendor, parseIdentifierText } from './extract/index.ts';
import type { RridStatus } from './rrid/index.ts';

/** z of a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * Wilson's score interval for a proportion of k in n (95%): unlike k/n ± z·se it stays inside [0, 1] and is not
 * empty at k = 0 or k = n. Null when n = 0.
 */
export function wilsonInterval(k: number, n: number, z = Z95): [number, number] | null {
  if (n <= 0) return null;
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** One article's table as the statistics read it. */
export interface StatisticsTable {
  doi: string;
  /** YYYY-MM-DD or null when the article gives no date. */
  publication_date: string | null;
  rows: readonly KrtRow[];
}

interface Share {
  /** Rows that write an RRID (well-formed or written broken). */
  rows_with_rrid: number;
  /** Rows with at least one RRID that validation calls `valid`. */
  rows_with_valid_rrid: number;
  /** rows_with_valid_rrid / rows (null without rows), with Wilson's 95% interval. */
  share_valid: number | null;
  share_valid_interval: [number, number] | null;
}

interface TypeCount extends Share {
  resource_type: string;
  rows: number;
  /** rows / all rows. */
  share_of_rows: number;
  /** Articles whose table has a row of this type. */
  articles: number;
}

interface VendorCount {
  vendor: string;
  rows: number;
  /** rows / rows of reused resources that name a source. */
  share_of_rows: number;
  articles: number;
}

interface YearCount extends Share {
  /** The article's year, or null for articles without a date. */
  year: number | null;
  articles: number;
  rows: number;
}

export interface StoreStatistics extends Share {
  articles: number;
  articles_with_rows: number;
  rows: number;
  resource_types: TypeCount[];
  /** Rows of reused resources that name a source: the vendors' denominator. */
  vendor_rows: number;
  /** Distinct vendors (as canonicalVendor names them). */
  vendors_total: number;
  /** Every vendor, most rows first (callers cut the list). */
  vendors: VendorCount[];
  by_year: YearCount[];
  /** Distinct RRIDs validated. */
  rrids_checked: number;
}

function share(rows: number, withRrid: number, valid: number): Share {
  return {
    rows_with_rrid: withRrid,
    rows_with_valid_rrid: valid,
    share_valid: rows > 0 ? valid / rows : null,
    share_valid_interval: wilsonInterval(valid, rows),
  };
}

/** The RRIDs a row writes: well-formed ones as `RRID:<id>`, broken ones as written. */
export function rridsOfRow(row: KrtRow): string[] {
  return parseIdentifierText(row.IDENTIFIER).flatMap((part) =>
    part.kind === 'rrid' ? [`RRID:${part.value}`] : part.kind === 'unresolved-rrid' ? [part.value] : [],
  );
}

interface Tally {
  rows: number;
  withRrid: number;
  valid: number;
  articles: Set<string>;
}

const tally = (): Tally => ({ rows: 0, withRrid: 0, valid: 0, articles: new Set() });

/**
 * Counts the tables. `statusOf` validates one RRID (each distinct one is asked once); rows are counted by article,
 * by resource type, by vendor (reused resources naming a source) and by the article's year.
 */
export async function computeStatistics(
  tables: readonly StatisticsTable[],
  statusOf: (rrid: string) => Promise<RridStatus>,
): Promise<StoreStatistics> {
  const statuses = new Map<string, RridStatus>();
  for (const table of tables)
    for (const row of table.rows) for (const rrid of rridsOfRow(row)) if (!statuses.has(rrid)) statuses.set(rrid, await statusOf(rrid));

  const all = tally();
  const byType = new Map<string, Tally>();
  const byVendor = new Map<string, Tally>();
  const byYear = new Map<number | null, Tally>();
  let vendorRows = 0;
  for (const table of tables) {
    const year = /^\d{4}/.test(table.publication_date ?? '') ? Number(table.publication_date!.slice(0, 4)) : null;
    const yearTally = byYear.get(year) ?? tally();
    byYear.set(year, yearTally);
    yearTally.articles.add(table.doi);
    for (const row of table.rows) {
      const rrids = rridsOfRow(row);
      const valid = rrids.some((r) => statuses.get(r) === 'valid');
      const type = row['RESOURCE TYPE'].trim() || 'other';
      const typeTally = byType.get(type) ?? tally();
      byType.set(type, typeTally);
      for (const t of [all, typeTally, yearTally]) {
        t.rows++;
        if (rrids.length > 0) t.withRrid++;
        if (valid) t.valid++;
        t.articles.add(table.doi);
      }
      const source = row.SOURCE.trim();
      if (source && row['NEW/REUSE'] !== 'new') {
        vendorRows++;
        const vendor = canonicalVendor(source);
        const v = byVendor.get(vendor) ?? tally();
        byVendor.set(vendor, v);
        v.rows++;
        v.articles.add(table.doi);
      }
    }
  }
  const byRows = <T extends { rows: number }>(a: T & { name: string }, b: T & { name: string }) =>
    b.rows - a.rows || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return {
    articles: tables.length,
    articles_with_rows: tables.filter((t) => t.rows.length > 0).length,
    rows: all.rows,
    ...share(all.rows, all.withRrid, all.valid),
    resource_types: [...byType.entries()]
      .map(([name, t]) => ({ name, ...t }))
      .sort(byRows)
      .map(({ name, rows, withRrid, valid, articles }) => ({
        resource_type: name,
        rows,
        share_of_rows: all.rows > 0 ? rows / all.rows : 0,
        articles: articles.size,
        ...share(rows, withRrid, valid),
      })),
    vendor_rows: vendorRows,
    vendors_total: byVendor.size,
    vendors: [...byVendor.entries()]
      .map(([name, t]) => ({ name, ...t }))
      .sort(byRows)
      .map(({ name, rows, articles }) => ({
        vendor: name,
        rows,
        share_of_rows: vendorRows > 0 ? rows / vendorRows : 0,
        articles: articles.size,
      })),
    by_year: [...byYear.entries()]
      // Years in order, articles without a date last.
      .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a - b))
      .map(([year, t]) => ({ year, articles: t.articles.size, rows: t.rows, ...share(t.rows, t.withRrid, t.valid) })),
    rrids_checked: statuses.size,
  };
}
