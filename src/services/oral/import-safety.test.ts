// Imports that never lose data, on SQLite and PostgreSQL, with real-shaped files: the guard on
// unreadable rows and on deletions (and the flags that lift it), truncated files refused naming where, and
// demo data that never mixes with real data.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describeEachDatabase, needsSharedData, sharedData } from '../../../test/support/databases.ts';
import { buildTestApp, testContext } from '../../../test/support/app.ts';
import { copyCochrane, readRealJson, scratchDir, writeFile } from '../../../test/support/oral/files.ts';
import { listDataVersions } from '../../core/db/datasets.ts';
import type { ImportReport } from '../../core/import.ts';
import type { ServiceContext } from '../../core/service.ts';
import { oralService } from './service.ts';
import { loadOralDemo } from './demo.ts';
import { oralDatabase } from './tables.ts';

const gate = needsSharedData('oral');
const run = (ctx: ServiceContext, kind: string, source: string, options: Record<string, unknown> = {}) =>
  oralService.importers[kind].run(ctx, source, options);

/** Whether `error` is a refusal of the given class whose message matches. */
const refused = (name: string, message: RegExp) => (error: unknown) => {
  assert.ok(error instanceof Error, String(error));
  assert.equal(error.name, name, error.message);
  assert.match(error.message, message);
  return true;
};

describeEachDatabase(
  'oral imports refuse what would lose data',
  (t) => {
    let dir: string;
    let ctx: ServiceContext;
    before(() => {
      if (gate.problem) throw new Error(gate.problem);
      dir = scratchDir();
      ctx = testContext(oralService, t.db, { dataDir: dir });
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const db = () => oralDatabase(t.db);
    const stored = async () =>
      (await db().selectFrom('oral_recommendations').select(['source_key', 'content_hash']).orderBy('source_key').execute()).map(
        (r) => `${r.source_key}:${r.content_hash}`,
      );
    const toolkit = readRealJson('uk_guidelines.json');
    const toolkitFile = (name: string, recommendations: unknown[]) => writeFile(dir, name, JSON.stringify({ ...toolkit, recommendations }));

    it('refuses a file with more than 5% unreadable rows, naming the counts; --allow-skips imports the readable rows', async () => {
      const rows = toolkit.recommendations.map((r, i) => (i % 9 === 0 ? { ...r, text: '' } : r));
      const file = toolkitFile('unreadable.json', rows);
      await assert.rejects(
        run(ctx, 'toolkit', file),
        refused('ImportRefusedError', /refused: 10 of the 90 rows read could not be read \(11\.1%; the limit is 5\.0%\)/),
      );
      assert.deepEqual(await stored(), []);
      const [report] = await run(ctx, 'toolkit', file, { allowSkips: true });
      assert.equal(report.rows_read, 90);
      assert.equal(report.unreadable, 10);
      assert.equal(report.inserted, 80);
    });

    it('counts rows the dataset does not keep (a repeated key) as excluded, not unreadable', async () => {
      const rows = [...toolkit.recommendations, ...toolkit.recommendations.slice(0, 10)];
      const [report] = await run(ctx, 'toolkit', toolkitFile('repeated.json', rows));
      assert.equal(report.rows_read, 100);
      assert.equal(report.unreadable, 0);
      assert.equal(report.skipped, 10);
      assert.equal(report.inserted, 10, 'the 10 rows that were unreadable before');
      assert.equal(report.unchanged, 80);
      assert.equal((await stored()).length, 90);
    });

    it('refuses an import that would delete more than 10% of the stored records unless --allow-shrink', async () => {
      const full = toolkitFile('full.json', toolkit.recommendations);
      const half = toolkitFile('half.json', toolkit.recommendations.slice(0, 50));
      const before = await stored();
      await assert.rejects(
        run(ctx, 'toolkit', half),
        refused('ImportRefusedError', /would delete 40 of the 90 stored oral\/toolkit records \(44\.4%; the limit is 10\.0%\)/),
      );
      assert.deepEqual(await stored(), before, 'nothing changed');
      const [shrunk] = await run(ctx, 'toolkit', half, { allowShrink: true });
      assert.equal(shrunk.deleted, 40);
      assert.equal((await stored()).length, 50);
      const [restored] = await run(ctx, 'toolkit', full);
      assert.equal(restored.inserted, 40);
      assert.deepEqual(await stored(), before);
    });

    it('refuses a toolkit, SIGN or bundle JSON file that does not close, naming the line', async () => {
      const before = await stored();
      const cut = (name: string, text: string) => writeFile(dir, name, text.slice(0, Math.floor(text.length * 0.6)));
      const toolkitCut = cut('toolkit-cut.json', fs.readFileSync(sharedData('oral', 'uk_guidelines.json'), 'utf8'));
      await assert.rejects(
        run(ctx, 'toolkit', toolkitCut),
        refused('TruncatedSourceError', /toolkit-cut\.json is truncated: line [\d,]+, column \d+/),
      );
      const signCut = cut('sign-cut.json', fs.readFileSync(sharedData('oral', 'sign138_recommendations.json'), 'utf8'));
      await assert.rejects(
        run(ctx, 'sign', signCut),
        refused('TruncatedSourceError', /sign-cut\.json is truncated: line [\d,]+, column \d+/),
      );
      const bundleFile = (await oralService.generate({ out: path.join(dir, 'generated'), size: 20, seed: 3 }))[0];
      const bundleCut = cut('cut.pdi-oral.json', fs.readFileSync(bundleFile, 'utf8'));
      await assert.rejects(
        run(ctx, 'bundle', bundleCut),
        refused('TruncatedSourceError', /cut\.pdi-oral\.json is truncated: line 1, column \d+/),
      );
      // a file that is complete but not JSON is no truncation: it is refused as what it is
      const broken = writeFile(dir, 'broken.json', '{"recommendations": [}');
      await assert.rejects(
        run(ctx, 'toolkit', broken),
        (e: Error) => e.name !== 'TruncatedSourceError' && /is not valid JSON/.test(e.message),
      );
      assert.deepEqual(await stored(), before);
    });

    it('refuses a Cochrane folder with a file cut mid-record (open quote, missing cells), naming the file and line', async () => {
      const reviews = async () =>
        (await db().selectFrom('oral_reviews').select(['review_id', 'content_hash']).orderBy('review_id').execute()).length;
      const folder = copyCochrane(path.join(dir, 'cochrane'));
      const reports: ImportReport[] = await run(ctx, 'cochrane', folder);
      assert.equal(reports[0].inserted, 141);
      const file = path.join(folder, 'cochrane_sof', 'CD000979', 'CD000979.PUB3.csv');
      const text = fs.readFileSync(file, 'utf8');
      // cut inside the first quoted field after the first third of the file
      const quote = text.indexOf(',"', Math.floor(text.length / 3));
      const line = text.slice(0, quote).split('\n').length;
      fs.writeFileSync(file, text.slice(0, quote + 12));
      await assert.rejects(
        run(ctx, 'cochrane', folder),
        refused(
          'TruncatedSourceError',
          new RegExp(`CD000979/CD000979\\.PUB3\\.csv is truncated: line ${line}: the last record ends inside a quoted field`),
        ),
      );
      // the last line cut after its third cell
      const lines = text.trimEnd().split('\n');
      fs.writeFileSync(file, [...lines.slice(0, -1), lines.at(-1)!.split(',').slice(0, 3).join(',')].join('\n'));
      await assert.rejects(
        run(ctx, 'cochrane', folder),
        refused(
          'TruncatedSourceError',
          new RegExp(`CD000979\\.PUB3\\.csv is truncated: line ${lines.length}: the last record has 3 of the 18 cells`),
        ),
      );
      assert.equal(await reviews(), 141, 'nothing changed');
    });
  },
  { migrations: oralService.migrations },
);

describeEachDatabase(
  'oral demo data never mixes with real data',
  (t) => {
    let dir: string;
    let ctx: ServiceContext;
    before(() => {
      if (gate.problem) throw new Error(gate.problem);
      dir = scratchDir();
      ctx = testContext(oralService, t.db, { dataDir: dir });
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const db = () => oralDatabase(t.db);
    const demoRows = async () => {
      const count = async (table: 'oral_guidelines' | 'oral_reviews') =>
        Number(
          (
            await db()
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .where('is_demo', '=', t.db.dialect === 'sqlite' ? 1 : true)
              .executeTakeFirstOrThrow()
          ).n,
        );
      return { guidelines: await count('oral_guidelines'), reviews: await count('oral_reviews') };
    };

    it('labels `generate oral` output imported by hand as demo data', async () => {
      const out = path.join(dir, 'generated');
      await oralService.generate({ out, size: 30, seed: 11 });
      const reports = await run(ctx, 'auto', out);
      assert.deepEqual(
        reports.map((r) => [r.dataset, r.is_demo]),
        [['demo', true]],
      );
      const demo = await demoRows();
      assert.ok(demo.guidelines > 0 && demo.reviews > 0);
      assert.equal(
        Number(
          (
            await db()
              .selectFrom('oral_guidelines')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
        demo.guidelines,
        'every guideline is marked demo',
      );
      assert.deepEqual(
        (await listDataVersions(t.db.kysely, 'oral')).map((v) => [v.dataset, v.is_demo]),
        [['demo', true]],
      );
      const app = await buildTestApp(oralService, ctx);
      try {
        const sources = (await app.inject('/api/metadata/')).json().data.data_sources as {
          dataset: string;
          source: string;
          is_demo: boolean;
        }[];
        assert.deepEqual(
          sources.map((s) => [s.dataset, s.source, s.is_demo]),
          [['demo', 'demo.pdi-oral.json', true]],
        );
      } finally {
        await app.close();
      }
    });

    it('removes the demo rows in the same transaction as a real import, counted apart from deletions', async () => {
      await loadOralDemo(ctx, {}); // the default demo, as `serve` loads it into an empty service
      const before = await demoRows();
      const demoRecommendations = Number(
        (
          await db()
            .selectFrom('oral_recommendations')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      const reports = await run(ctx, 'auto', sharedData('oral'));
      assert.deepEqual(await demoRows(), { guidelines: 0, reviews: 0 });
      const removed = reports.reduce((n, r) => n + r.demo_rows_removed, 0);
      assert.equal(removed, demoRecommendations + before.reviews, 'every demo recommendation and review, counted once');
      assert.equal(reports[0].demo_rows_removed, removed, 'by the first import, in its transaction');
      assert.ok(reports.every((r) => r.deleted === 0));
      assert.deepEqual(
        (await listDataVersions(t.db.kysely, 'oral')).map((v) => [v.dataset, v.is_demo]),
        [
          ['cochrane', false],
          ['sign138', false],
          ['toolkit', false],
        ],
      );
    });

    it('never adds demo data to a service that holds real data, neither at start nor by hand', async () => {
      const versions = await listDataVersions(t.db.kysely, 'oral');
      assert.ok(versions.length > 0, '`serve` loads the demo only into a service without data versions');
      assert.deepEqual(await loadOralDemo(ctx, {}), []);
      assert.deepEqual(await demoRows(), { guidelines: 0, reviews: 0 });
      const out = path.join(dir, 'generated-later');
      await oralService.generate({ out, size: 30, seed: 12 });
      await assert.rejects(run(ctx, 'auto', out), refused('ImportRefusedError', /generated demo data.*real data/));
      assert.deepEqual(await demoRows(), { guidelines: 0, reviews: 0 });
      assert.deepEqual(await listDataVersions(t.db.kysely, 'oral'), versions);
    });

    it('shows file names in /api/metadata/, never server paths', async () => {
      const app = await buildTestApp(oralService, ctx);
      try {
        const sources = (await app.inject('/api/metadata/')).json().data.data_sources as { dataset: string; source: string }[];
        assert.deepEqual(
          sources.map((s) => [s.dataset, s.source]),
          [
            ['cochrane', 'cochrane_sof'],
            ['sign138', 'sign138_recommendations.json'],
            ['toolkit', 'uk_guidelines.json'],
          ],
        );
      } finally {
        await app.close();
      }
    });
  },
  { migrations: oralService.migrations },
);
