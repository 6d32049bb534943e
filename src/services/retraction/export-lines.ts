// The CSV export's rows, written once per import rather than once per request. Profiling the CSV export of
// 1,000 rows showed the time going to building each row from the database (two keyset pages of a join, the
// second scanned from the top of the index) and to turning 16,000 values into CSV text (csv-stringify) on
// every request; then, with stored lines, to reading and decoding 1,000 rows. The importers now store the
// finished CSV lines (made by the core CSV writer itself, so the bytes are exactly those it would stream) in
// export order, in blocks of BLOCK_LINES lines with the end offset of each line: a request reads the blocks it
// needs in pages, cuts the last one at its limit, and streams them as they come. One series of blocks per
// `nature=` value (every record, and each kind of notice).
import type { Insertable } from 'kysely';
import { insertMany, lockForTransaction } from '../../core/db/dialect.ts';
import { csvChunks } from '../../core/export/index.ts';
import { NATURES } from './nature.ts';
import type { NatureFilter } from './nature.ts';
import { EXPORT_COLUMNS, exportRows } from './repository.ts';
import type { ExportPaper } from './repository.ts';
import type { ExportBlocksTable, RetractionDb } from './tables.ts';

const COLUMNS = [...EXPORT_COLUMNS];
/** Lines per stored block: a 1,000-row export reads 16 rows. */
const BLOCK_LINES = 64;

/** The CSV text of one paper (one record, CRLF-terminated), as the core writer writes it. */
async function csvLine(paper: ExportPaper): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of csvChunks([paper], { columns: COLUMNS, header: false })) parts.push(chunk);
  return Buffer.concat(parts);
}

/** The header record of the CSV export. */
async function csvHeader(): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of csvChunks([], { columns: COLUMNS })) parts.push(chunk);
  return Buffer.concat(parts);
}
const HEADER = csvHeader();
/**
 * The header the lines were written under, stored as block -1 of the `all` series (pages read blocks from 0): lines
 * stored under other columns (the columns of paper-fields.ts changed since) are written again, so a new export
 * column needs no migration of the stored lines.
 */
const HEADER_BLOCK = -1;

/** Collects the lines of one series into blocks. */
class BlockWriter {
  private lines: Buffer[] = [];
  private next = 0;
  readonly done: Insertable<ExportBlocksTable>[] = [];
  private readonly series: NatureFilter;
  constructor(series: NatureFilter) {
    this.series = series;
  }
  add(line: Buffer): void {
    this.lines.push(line);
    if (this.lines.length === BLOCK_LINES) this.close();
  }
  close(): void {
    if (this.lines.length === 0) return;
    const ends = new Uint32Array(this.lines.length);
    let at = 0;
    this.lines.forEach((l, i) => (ends[i] = at += l.length));
    this.done.push({
      series: this.series,
      block: this.next++,
      lines: this.lines.length,
      bytes: Buffer.concat(this.lines),
      ends: Buffer.from(ends.buffer, ends.byteOffset, ends.byteLength),
    });
    this.lines = [];
  }
}

/** Rewrites the stored CSV blocks (after the papers or their citation counts changed). */
export async function refreshExportLines(trx: RetractionDb): Promise<void> {
  await trx.deleteFrom('retraction_export_blocks').execute();
  const header = await HEADER;
  await insertMany(trx, 'retraction_export_blocks', [
    { series: 'all', block: HEADER_BLOCK, lines: 1, bytes: header, ends: Buffer.from(new Uint32Array([header.length]).buffer) },
  ]);
  const writers = new Map<NatureFilter, BlockWriter>([
    ['all', new BlockWriter('all')],
    ...NATURES.map((n) => [n, new BlockWriter(n)] as const),
  ]);
  const flush = async (force: boolean) => {
    for (const writer of writers.values()) {
      if (force) writer.close();
      if (writer.done.length >= 64 || (force && writer.done.length > 0))
        await insertMany(trx, 'retraction_export_blocks', writer.done.splice(0));
    }
  };
  for await (const row of exportRows(trx, Number.MAX_SAFE_INTEGER, { pageSize: 5000 })) {
    const line = await csvLine(row.paper);
    writers.get('all')!.add(line);
    writers.get(row.nature)!.add(line);
    await flush(false);
  }
  await flush(true);
}

type Block = Pick<ExportBlocksTable, 'lines' | 'bytes' | 'ends'>;

async function storedUnderCurrentHeader(db: RetractionDb): Promise<boolean> {
  const stored = await db
    .selectFrom('retraction_export_blocks')
    .select('bytes')
    .where('series', '=', 'all')
    .where('block', '=', HEADER_BLOCK)
    .executeTakeFirst();
  return stored !== undefined && Buffer.from(stored.bytes).equals(await HEADER);
}

const readBlocks = (db: RetractionDb, series: NatureFilter, from: number, count: number): Promise<Block[]> =>
  db
    .selectFrom('retraction_export_blocks')
    .select(['lines', 'bytes', 'ends'])
    .where('series', '=', series)
    .where('block', '>=', from)
    .orderBy('block')
    .limit(count)
    .execute();

/** What a server process holds of one database's stored export lines (one per service state, state.ts). */
export class HeldExportLines {
  /** The blocks were seen: an import rewrites them in its transaction, so they stay. */
  private present = false;
  /**
   * The first page of each series, per data version. Every export starts at the top of its series (it takes a
   * limit, never an offset), and profiling the 1,000-row export at 50 connections put about half of its CPU time in
   * reading that same page again; it is read once per data version instead (at most one page, about 400 KB, per
   * series). The version is the service's data version as the kernel sees it.
   */
  private firstPages: { version: string; pages: Map<string, Promise<Block[]>> } | null = null;

  /**
   * Data imported by an older pdi, or stored under other columns, has papers but no blocks of the current header:
   * write them once, under the import lock. (One probe per process once they are current.)
   */
  async ensure(db: RetractionDb): Promise<void> {
    if (this.present) return;
    if (await storedUnderCurrentHeader(db)) {
      this.present = true;
      return;
    }
    if (!(await db.selectFrom('retraction_papers').select('id').limit(1).executeTakeFirst())) return;
    await db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, 'import:retraction');
      if (!(await storedUnderCurrentHeader(trx))) await refreshExportLines(trx);
    });
  }

  firstPage(db: RetractionDb, version: string, series: NatureFilter, pageBlocks: number): Promise<Block[]> {
    let held = this.firstPages;
    if (held?.version !== version) this.firstPages = held = { version, pages: new Map() };
    const key = `${series} ${pageBlocks}`;
    let page = held.pages.get(key);
    if (!page) {
      const pages = held.pages;
      const read = readBlocks(db, series, 0, pageBlocks);
      pages.set(key, (page = read));
      read.catch(() => {
        if (pages.get(key) === read) pages.delete(key); // a failed read is tried again by the next request
      });
    }
    return page;
  }
}

/**
 * The CSV export: the header, then the first `limit` stored lines of the series in export order (retraction
 * date newest first, then row id), read `pageBlocks` blocks at a time (about 400 KB; one read for 1,000 rows)
 * and handed on one page per chunk: what is held is a page and the chunk the client has not taken yet. With
 * `held` and `dataVersion`, the first page comes from the per-version copy (HeldExportLines.firstPage).
 */
export async function* exportCsvChunks(
  db: RetractionDb,
  limit: number,
  options: { nature?: NatureFilter; pageBlocks?: number; held?: HeldExportLines; dataVersion?: string | null } = {},
): AsyncGenerator<Buffer, void, undefined> {
  const series = options.nature ?? 'all';
  const pageBlocks = options.pageBlocks ?? 16;
  yield await HEADER;
  let remaining = limit;
  let next = 0;
  while (remaining > 0) {
    const wanted = Math.min(pageBlocks, Math.ceil(remaining / BLOCK_LINES));
    const page =
      next === 0 && options.held && options.dataVersion
        ? (await options.held.firstPage(db, options.dataVersion, series, pageBlocks)).slice(0, wanted)
        : await readBlocks(db, series, next, wanted);
    const parts: Buffer[] = [];
    for (const b of page) {
      if (remaining >= b.lines) {
        parts.push(b.bytes);
        remaining -= b.lines;
      } else {
        // The limit ends inside this block: its line ends say where.
        parts.push(b.bytes.subarray(0, b.ends.readUInt32LE(4 * (remaining - 1))));
        remaining = 0;
        break;
      }
    }
    if (parts.length > 0) yield parts.length === 1 ? parts[0] : Buffer.concat(parts);
    if (page.length < wanted) return;
    next += page.length;
  }
}
