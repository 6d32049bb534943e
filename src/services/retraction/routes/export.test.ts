// GET /api/export/ on SQLite and PostgreSQL: JSON, CSV and xlsx read back, keyset paging, the export budget and
// the bad inputs.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import Papa from 'papaparse';
import readXlsxFile from 'read-excel-file/node';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { TOKEN, errorCases, retractionHttpFixture } from '../../../../test/support/retraction/http.ts';
import { EXPORT_COLUMNS, exportPapers } from '../repository.ts';
import { natureOf } from '../nature.ts';
import type { NatureFilter } from '../nature.ts';
import { HeldExportLines, exportCsvChunks } from '../export-lines.ts';
import { csvChunks } from '../../../core/export/index.ts';
import { retractionService } from '../service.ts';
import { retractionDb } from '../tables.ts';

describeEachDatabase(
  'retraction routes: export',
  (t) => {
    const fx = retractionHttpFixture(t);

    it('exports JSON with the contract columns and analytics, streamed as an attachment', async () => {
      const res = await fx.get('/api/export/');
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-disposition']), /^attachment; filename="retracted-papers-\d{4}-\d{2}-\d{2}-1000\.json"$/);
      assert.equal(res.headers['x-ratelimit-limit'], '10');
      const body = JSON.parse(res.text);
      assert.equal(body.papers.length, fx.paperCount);
      assert.deepEqual(Object.keys(body.papers[0]), [...EXPORT_COLUMNS]);
      assert.equal(body.analytics.exported_papers, fx.paperCount);
      assert.equal(body.analytics.limit, 1000);
      assert.equal(
        body.analytics.total_citations,
        body.papers.reduce((a: number, p: { total_citations: number }) => a + p.total_citations, 0),
      );
      assert.equal(body.analytics.data_source.kind, 'generated');
      const dates = body.papers.map((p: { retraction_date: string | null }) => p.retraction_date ?? '');
      for (let i = 1; i < dates.length; i++) assert.ok(dates[i - 1] >= dates[i], 'newest retraction first');
      const clamped = JSON.parse((await fx.get('/api/export/?limit=20000')).text);
      assert.equal(clamped.analytics.limit, 10000);
    });

    it('exports CSV with formula-like titles escaped, and xlsx that read-excel-file opens', async () => {
      const csv = await fx.get('/api/export/?format=csv&limit=6');
      assert.match(String(csv.headers['content-type']), /^text\/csv/);
      assert.match(String(csv.headers['content-disposition']), /^attachment; filename="retracted-papers-.*-6\.csv"$/);
      const parsed = Papa.parse<string[]>(csv.text.trim(), { header: false });
      assert.deepEqual(parsed.data[0], [...EXPORT_COLUMNS]);
      assert.equal(parsed.data.length, 7);
      const titles = parsed.data.slice(1).map((r) => r[1]);
      assert.deepEqual(titles.slice(0, 4), [`'=HYPERLINK("http://evil.example","click")`, `'+SUM(1,2)`, `'-2+3 results`, `'@cmd trouble`]);

      const xlsx = await fx.get('/api/export/?format=excel&limit=25');
      assert.equal(xlsx.headers['content-type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      assert.match(String(xlsx.headers['content-disposition']), /\.xlsx"$/);
      const [sheet] = await readXlsxFile(xlsx.raw, { trim: false });
      assert.equal(sheet.data.length, 26);
      assert.deepEqual(sheet.data[0], [...EXPORT_COLUMNS]);
      assert.equal(
        sheet.data[1][1],
        '=HYPERLINK("http://evil.example","click")',
        'xlsx keeps the text exact: a string cell is never a formula',
      );
      assert.equal(sheet.data[1][0], '900011');
    });

    it('pages the export by keyset without overlap or gap, whatever the page size', async () => {
      const all: string[] = [];
      for await (const p of exportPapers(retractionDb(t.db), 10000, { pageSize: 100000 })) all.push(p.record_id);
      const small: string[] = [];
      for await (const p of exportPapers(retractionDb(t.db), 10000, { pageSize: 7 })) small.push(p.record_id);
      assert.equal(all.length, fx.paperCount);
      assert.deepEqual(small, all);
      const limited: string[] = [];
      for await (const p of exportPapers(retractionDb(t.db), 50, { pageSize: 7 })) limited.push(p.record_id);
      assert.deepEqual(limited, all.slice(0, 50));
    });

    it('exports one kind of notice with nature=, and gives the exported rows by kind in the JSON analytics', async () => {
      const all = JSON.parse((await fx.get('/api/export/?limit=10000')).text);
      assert.equal(all.analytics.nature, 'all');
      assert.equal(
        all.analytics.by_nature.reduce((a: number, n: { papers: number }) => a + n.papers, 0),
        fx.paperCount,
      );
      const res = await fx.get('/api/export/?limit=10000&nature=correction');
      assert.match(String(res.headers['content-disposition']), /retracted-papers-\d{4}-\d{2}-\d{2}-correction-10000\.json/);
      const corrections = JSON.parse(res.text);
      assert.ok(corrections.papers.length > 0);
      assert.equal(corrections.papers.length, all.analytics.by_nature.find((n: { nature: string }) => n.nature === 'correction').papers);
      assert.ok(corrections.papers.every((p: { retraction_nature: string }) => natureOf(p.retraction_nature) === 'correction'));
      assert.equal(corrections.analytics.papers_available, corrections.papers.length);
      const csv = Papa.parse<string[]>((await fx.get('/api/export/?format=csv&limit=10000&nature=correction')).text.trim()).data;
      assert.equal(csv.length - 1, corrections.papers.length);
    });

    it('streams the CSV from the lines stored at import, byte for byte what the CSV writer makes of the rows', async () => {
      const db = retractionDb(t.db);
      const written = async (nature: NatureFilter, limit: number) => {
        const parts: Buffer[] = [];
        for await (const chunk of csvChunks(exportPapers(db, limit, { nature }), { columns: [...EXPORT_COLUMNS] })) parts.push(chunk);
        return Buffer.concat(parts);
      };
      // Limits that end inside a block, on a block's end, and past the end; pages of one block and of many.
      for (const [nature, limit, pageBlocks] of [
        ['all', 10000, 32],
        ['all', 37, 1],
        ['all', 64, 1],
        ['all', 65, 2],
        ['all', 300, 1],
        ['correction', 10000, 1],
        ['correction', 5, 32],
      ] as const) {
        const expected = await written(nature, limit);
        // Read from the tables, then twice through the first page held for a data version (filled, then reused).
        const held = new HeldExportLines();
        for (const dataVersion of [null, 'v1', 'v1']) {
          const parts: Buffer[] = [];
          for await (const chunk of exportCsvChunks(db, limit, { nature, pageBlocks, held, dataVersion })) parts.push(chunk);
          assert.ok(Buffer.concat(parts).equals(expected), `${nature} ${limit} ${pageBlocks} ${dataVersion}`);
        }
      }
      const res = await fx.get('/api/export/?format=csv&limit=10000');
      assert.ok(res.raw.equals(await written('all', 10000)));
    });

    it('holds the first page for one data version only: another version reads the tables again', async () => {
      const db = retractionDb(t.db);
      const held = new HeldExportLines();
      const text = async (dataVersion: string) => {
        const parts: Buffer[] = [];
        for await (const chunk of exportCsvChunks(db, 5, { held, dataVersion })) parts.push(chunk);
        return Buffer.concat(parts).toString();
      };
      const first = await db
        .selectFrom('retraction_export_blocks')
        .selectAll()
        .where('series', '=', 'all')
        .where('block', '=', 0)
        .executeTakeFirstOrThrow();
      const before = await text('held-a');
      // The block changes under the held copy (as an import would rewrite it with a new data version).
      const changed = Buffer.from(first.bytes.toString('latin1').replace(/^[^,]*/, 'CHANGED'), 'latin1');
      const ends = Buffer.from(first.ends);
      const shift = changed.length - first.bytes.length;
      for (let i = 0; i < first.lines; i++) ends.writeUInt32LE(ends.readUInt32LE(4 * i) + shift, 4 * i);
      await db
        .updateTable('retraction_export_blocks')
        .set({ bytes: changed, ends })
        .where('series', '=', 'all')
        .where('block', '=', 0)
        .execute();
      try {
        assert.equal(await text('held-a'), before);
        const after = await text('held-b');
        assert.notEqual(after, before);
        assert.match(after.split('\r\n')[1], /^CHANGED/);
      } finally {
        await db
          .updateTable('retraction_export_blocks')
          .set({ bytes: first.bytes, ends: first.ends })
          .where('series', '=', 'all')
          .where('block', '=', 0)
          .execute();
      }
    });

    it('writes the stored lines again when they were stored under other columns (the declared fields changed)', async () => {
      const db = retractionDb(t.db);
      const header = () =>
        db
          .selectFrom('retraction_export_blocks')
          .select('bytes')
          .where('series', '=', 'all')
          .where('block', '=', -1)
          .executeTakeFirstOrThrow();
      const current = Buffer.from((await header()).bytes);
      assert.equal(current.toString(), `${EXPORT_COLUMNS.join(',')}\r\n`);
      // Lines of an earlier column set: its header and a first block without the last column.
      await db
        .updateTable('retraction_export_blocks')
        .set({ bytes: Buffer.from('record_id,title\r\n') })
        .where('block', '=', -1)
        .execute();
      await db
        .updateTable('retraction_export_blocks')
        .set({ bytes: Buffer.from('stale') })
        .where('series', '=', 'all')
        .where('block', '=', 0)
        .execute();
      await new HeldExportLines().ensure(db);
      assert.ok(Buffer.from((await header()).bytes).equals(current));
      const parts: Buffer[] = [];
      for await (const chunk of csvChunks(exportPapers(db, 10000), { columns: [...EXPORT_COLUMNS] })) parts.push(chunk);
      const streamed: Buffer[] = [];
      for await (const chunk of exportCsvChunks(db, 10000)) streamed.push(chunk);
      assert.ok(Buffer.concat(streamed).equals(Buffer.concat(parts)));
    });

    it('answers the 11th export within a minute with 429, Retry-After and the error body', async () => {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 11; i++) {
        last = await fx.app.inject({ url: '/api/export/?format=csv&limit=1', remoteAddress: '192.0.2.11' });
        statuses.push(last.statusCode);
      }
      assert.deepEqual(statuses, [...Array(10).fill(200), 429]);
      assert.ok(Number(last!.headers['retry-after']) > 0);
      assert.equal(last!.headers['x-ratelimit-remaining'], '0');
      assert.deepEqual(Object.keys(last!.json()), ['error', 'code']);
      assert.equal(last!.json().code, 'RATE_LIMITED');
      // The export budget is its own: the same client can still search and read analytics.
      assert.equal((await fx.app.inject({ url: `/api/search-autocomplete/?q=${TOKEN}`, remoteAddress: '192.0.2.11' })).statusCode, 200);
      assert.equal((await fx.app.inject({ url: '/api/analytics-realtime/', remoteAddress: '192.0.2.11' })).statusCode, 200);
    });

    errorCases(fx, [
      ['GET', '/api/export/?format=pdf', 400, 'INVALID_PARAMETER', /^format must be one of: json, csv, excel$/],
      ['GET', '/api/export/?limit=0', 400, 'INVALID_PARAMETER', /^limit must be at least 1$/],
      ['GET', '/api/export/?limit=ten', 400, 'INVALID_PARAMETER', /^limit must be an integer$/],
      ['GET', '/api/export/?nature=retractions', 400, 'INVALID_PARAMETER', /^nature must be one of: /],
      ['POST', '/api/export/', 405, 'METHOD_NOT_ALLOWED', /^GET method required$/],
    ]);
  },
  { migrations: retractionService.migrations },
);
