// The CSV export's rows, written once per import rather than once per request. Profiling the CSV export of
// 1,000 rows showed the time going to building each row from the database (two keyset pages of a join) and to
// turning 16,000 values into CSV text (csv-stringify) on every request. The importers now store each paper's
// finished CSV line (made by the core CSV writer itself, so the bytes are exactly those it would stream) in
// export order; a request reads the lines in keyset pages and streams them as they come.
import type { Insertable } from 'kysely';
import { insertMany, lockForTransaction } from '../../core/db/dialect.ts';
import { csvChunks } from '../../core/export/index.ts';
import type { NatureFilter } from './nature.ts';
import { EXPORT_COLUMNS, exportRows } from './repository.ts';
import type { ExportPaper } from './repository.ts';
import type { ExportLinesTable, RetractionDb } from './tables.ts';

const COLUMNS = [...EXPORT_COLUMNS];

/** The CSV text of one paper (one record, CRLF-terminated), as the core writer writes it. */
async function csvLine(paper: ExportPaper): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of csvChunks([paper], { columns: COLUMNS, header: false })) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

/** The header record of the CSV export. */
export async function csvHeader(): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of csvChunks([], { columns: COLUMNS })) parts.push(chunk);
  return Buffer.concat(parts);
}
const HEADER = csvHeader();

/** Rewrites every paper's stored CSV line (after the papers or their citation counts changed). */
export async function refreshExportLines(trx: RetractionDb): Promise<void> {
  await trx.deleteFrom('retraction_export_lines').execute();
  let batch: Insertable<ExportLinesTable>[] = [];
  for await (const row of exportRows(trx, Number.MAX_SAFE_INTEGER, { pageSize: 5000 })) {
    batch.push({ paper_id: row.id, retraction_sort: row.sort, nature: row.nature, line: await csvLine(row.paper) });
    if (batch.length >= 5000) {
      await insertMany(trx, 'retraction_export_lines', batch);
      batch = [];
    }
  }
  await insertMany(trx, 'retraction_export_lines', batch);
}

/**
 * Data imported by an older pdi has papers but no stored lines: write them once, under the import lock.
 * (One indexed probe per export otherwise.)
 */
export async function ensureExportLines(db: RetractionDb): Promise<void> {
  if (await db.selectFrom('retraction_export_lines').select('paper_id').limit(1).executeTakeFirst()) return;
  if (!(await db.selectFrom('retraction_papers').select('id').limit(1).executeTakeFirst())) return;
  await db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, 'import:retraction');
    if (!(await trx.selectFrom('retraction_export_lines').select('paper_id').limit(1).executeTakeFirst())) await refreshExportLines(trx);
  });
}

/**
 * The CSV export: the header, then up to `limit` stored lines in export order (retraction date newest first,
 * then row id), read in keyset pages of `pageSize` and handed on one page per chunk.
 */
export async function* exportCsvChunks(
  db: RetractionDb,
  limit: number,
  options: { nature?: NatureFilter; pageSize?: number } = {},
): AsyncGenerator<Buffer, void, undefined> {
  const nature = options.nature ?? 'all';
  const pageSize = options.pageSize ?? 2000;
  yield await HEADER;
  let after: { sort: string; id: number } | null = null;
  let remaining = limit;
  while (remaining > 0) {
    let query = db
      .selectFrom('retraction_export_lines')
      .select(['paper_id', 'retraction_sort', 'line'])
      .orderBy('retraction_sort', 'desc')
      .orderBy('paper_id')
      .limit(Math.min(pageSize, remaining));
    if (nature !== 'all') query = query.where('nature', '=', nature);
    if (after) {
      const { sort, id } = after;
      // sort ≤ last bounds an index range (the scan starts at the last page's end, not at the top); the rest
      // skips the rows of that same day already sent.
      query = query.where('retraction_sort', '<=', sort).where((eb) => eb.or([eb('retraction_sort', '<', sort), eb('paper_id', '>', id)]));
    }
    const page = await query.execute();
    if (page.length === 0) return;
    let text = '';
    for (const r of page) text += r.line;
    yield Buffer.from(text, 'utf8');
    remaining -= page.length;
    const last = page[page.length - 1];
    after = { sort: last.retraction_sort, id: Number(last.paper_id) };
  }
}
