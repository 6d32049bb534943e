// Service B, on SQLite and PostgreSQL: imports that never lose data and demo data that never mixes
// with real data. A real import removes the generated demo articles, their sessions and their knowledge-base
// evidence in its own transaction (so a demo antibody is no longer ranked first), a later start or demo import
// never adds demo data to a store holding real articles, generated files are demo data however they are imported,
// duplicates are excluded rather than unreadable, and the guard (--allow-skips, --allow-shrink, the thresholds in
// the environment) reaches the store importer.
import { afterEach, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Static } from 'typebox';
import { describeEachDatabase, needsSharedData } from '../../../test/support/databases.ts';
import { buildTestApp, testContext } from '../../../test/support/app.ts';
import { linkStore } from '../../../test/support/krt/corpus.ts';
import { real } from '../../../test/support/krt/http.ts';
import { getAggregate, listDataVersions } from '../../core/db/datasets.ts';
import { dbBool } from '../../core/db/dialect.ts';
import { ImportRefusedError } from '../../core/import.ts';
import type { ServiceContext } from '../../core/service.ts';
import { krtService } from './service.ts';
import { importPath, importStore } from './import.ts';
import { loadKrtDemo, writeDemoStore } from './demo.ts';
import { KB_AGGREGATE } from './aggregates.ts';
import type { StoredKnowledgeBase } from './aggregates.ts';
import type { KrtTables } from './tables.ts';
import type { SuggestResponse } from './schemas/ai.ts';
import type { CheckDoiResponse } from './schemas/doi.ts';

const gate = needsSharedData('krt', 'xml');

describeEachDatabase(
  'krt imports: real data in, nothing lost, demo never mixed',
  (t) => {
    const temp: string[] = [];
    const db = () => t.db.kysely.withTables<KrtTables>();
    let dataDir: string;
    const context = (env: Record<string, string> = {}): ServiceContext =>
      testContext(krtService, t.db, { dataDir, env: { ...process.env, PDI_IMPORT_MAX_SHRINK: '', PDI_IMPORT_MAX_UNREADABLE: '', ...env } });
    const tempDir = (prefix: string) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
      temp.push(dir);
      return dir;
    };
    /** A store of links to real papers, plus extra files written as given (path relative to the store: content). */
    const store = (files: readonly string[], extra: Record<string, string> = {}) => {
      const dir = linkStore(files, 'krt-safety-');
      temp.push(dir);
      for (const [relative, content] of Object.entries(extra)) {
        fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
        fs.writeFileSync(path.join(dir, relative), content);
      }
      return dir;
    };
    const count = async (table: 'krt_articles' | 'krt_sessions', demo?: boolean) => {
      let q = db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'));
      if (demo !== undefined) q = q.where('is_demo', '=', dbBool(t.db.kysely, demo));
      return Number((await q.executeTakeFirstOrThrow()).n);
    };
    const empty = async () => {
      await db().deleteFrom('krt_session_rows').execute();
      await db().deleteFrom('krt_sessions').execute();
      await db().deleteFrom('krt_articles').execute();
      await db().deleteFrom('aggregates').where('service', '=', 'krt').execute();
      await db().deleteFrom('data_versions').where('service', '=', 'krt').execute();
    };

    before(() => {
      if (gate.problem) throw new Error(gate.problem);
      dataDir = tempDir('krt-safety-data-');
    });
    afterEach(async () => {
      await empty();
      for (const dir of temp.splice(1)) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('a real import removes the demo articles, sessions and knowledge-base evidence in its transaction; a demo antibody is no longer ranked first', async () => {
      const ctx = context();
      await loadKrtDemo(ctx, {});
      assert.equal(await count('krt_articles', true), 6);
      const report = await importStore(t.db, store(real), { workers: 0, progress: false });
      ctx.dataVersion.invalidate();
      assert.equal(report.demo_rows_removed, 6, 'the six demo articles');
      assert.equal(report.deleted, 0, 'demo rows are not counted as deleted');
      assert.equal(report.inserted, real.length);
      assert.equal(await count('krt_articles', true), 0);
      assert.equal(await count('krt_sessions', true), 0);
      assert.equal(await count('krt_articles'), real.length);
      const kb = (await getAggregate<StoredKnowledgeBase>(db(), 'krt', KB_AGGREGATE))!.value;
      assert.deepEqual(kb.demo_dois, []);
      assert.ok(!JSON.stringify(kb.snapshot).includes('AB_00001'), 'no demo RRID in the knowledge base');
      assert.deepEqual(
        (await listDataVersions(db(), 'krt')).map((v) => [v.dataset, v.is_demo]),
        [['store', false]],
        'the demo data version went with the demo data',
      );
      const app = await buildTestApp(krtService, ctx);
      try {
        const res = await app.inject({ method: 'POST', url: '/api/api/ai/suggest-rrid/', payload: { resource_name: 'rabbit anti-GFP' } });
        const body = res.json<Static<typeof SuggestResponse>>();
        assert.equal(res.statusCode, 200);
        for (const s of body.suggestions) {
          assert.doesNotMatch(s.suggested_rrid, /AB_00001/, 'a demo RRID');
          assert.doesNotMatch(s.reasoning, /generated demo/);
        }
        const demo = (await app.inject({ url: '/api/check-doi-local/?doi=10.1101/demo.2021.0001' })).json<
          Static<typeof CheckDoiResponse>
        >();
        assert.equal(demo.available, false);
      } finally {
        await app.close();
      }
    });

    it('a later start never re-adds demo data to a store that holds real articles; an explicit demo import is refused', async () => {
      const ctx = context();
      await importStore(t.db, store(real.slice(0, 3)), { workers: 0, progress: false });
      assert.ok((await listDataVersions(db(), 'krt')).length > 0, 'the CLI starts without demo data when a data version exists');
      assert.deepEqual(await loadKrtDemo(ctx, {}), [], 'loadDemo adds nothing to a store holding real articles');
      assert.equal(await count('krt_articles', true), 0);
      const generated = tempDir('krt-generated-');
      await writeDemoStore(generated, 2, 1);
      await assert.rejects(importPath(ctx, generated, { generated: true }), (error: Error) => {
        assert.ok(error instanceof ImportRefusedError, error.message);
        assert.match(error.message, /holds 3 real articles: generated demo data is not mixed with them/);
        return true;
      });
      assert.equal(await count('krt_articles', true), 0);
      assert.equal(await count('krt_articles'), 3);
    });

    it('generated files are demo data however they are imported; a store mixing generated and real files is refused', async () => {
      const ctx = context();
      const generated = tempDir('krt-generated-');
      await writeDemoStore(generated, 3, 7);
      const [report] = await importPath(ctx, generated, {});
      assert.deepEqual([report.is_demo, report.dataset, report.inserted], [true, 'demo', 3]);
      assert.equal(await count('krt_articles', true), 3);
      assert.equal(await count('krt_articles', false), 0);
      await empty();
      const extra: Record<string, string> = {};
      for (const file of await writeDemoStore(tempDir('krt-generated-'), 2, 8))
        extra[path.join('2099', path.basename(file))] = fs.readFileSync(file, 'utf8');
      await assert.rejects(importPath(ctx, store(real.slice(0, 3), extra), {}), (error: Error) => {
        assert.ok(error instanceof ImportRefusedError, error.message);
        assert.match(error.message, /2 of the 5 files are generated demo articles/);
        return true;
      });
      assert.equal(await count('krt_articles'), 0, 'nothing imported');
    });

    it('a second copy of a DOI is excluded, not unreadable: the store imports', async () => {
      const ctx = context();
      const copy = fs.readFileSync(real[0], 'utf8');
      const [report] = await importPath(ctx, store(real, { [path.join('1999', path.basename(real[0]))]: copy }), {});
      assert.equal(report.rows_read, real.length + 1);
      assert.equal(report.inserted, real.length);
      assert.deepEqual(report.skip_reasons, { 'same DOI as an earlier file of the store': 1 });
      assert.equal(report.unreadable, 0);
    });

    it('unreadable files over 5% are refused with the counts; --allow-skips imports the readable ones; the limit is configurable', async () => {
      const cut = fs.readFileSync(real[1], 'utf8');
      const dir = store(real, { '2099/2099.01.01.000001.xml': cut.slice(0, Math.floor(cut.length / 2)) });
      await assert.rejects(importPath(context(), dir, {}), (error: Error) => {
        assert.ok(error instanceof ImportRefusedError, error.message);
        assert.match(error.message, new RegExp(`1 of the ${real.length + 1} rows read could not be read`));
        return true;
      });
      assert.equal(await count('krt_articles'), 0, 'nothing imported');
      const [allowed] = await importPath(context(), dir, { allowSkips: true });
      assert.deepEqual([allowed.inserted, allowed.unreadable], [real.length, 1]);
      assert.deepEqual(allowed.skip_reasons, { 'not a well-formed JATS document': 1 });
      await empty();
      const [configured] = await importPath(context({ PDI_IMPORT_MAX_UNREADABLE: '0.1' }), dir, {});
      assert.equal(configured.unreadable, 1);
    });

    it('an import deleting more than 10% of the stored articles is refused unless --allow-shrink; the limit is configurable', async () => {
      const dir = store(real);
      await importPath(context(), dir, {});
      const gone = real.slice(0, 2).map((f) => path.join(dir, path.basename(path.dirname(f)), path.basename(f)));
      for (const file of gone) fs.rmSync(file);
      await assert.rejects(importPath(context(), dir, {}), (error: Error) => {
        assert.ok(error instanceof ImportRefusedError, error.message);
        assert.match(error.message, new RegExp(`delete 2 of the ${real.length} stored krt/store records`));
        return true;
      });
      assert.equal(await count('krt_articles'), real.length, 'nothing deleted');
      const [configured] = await importPath(context({ PDI_IMPORT_MAX_SHRINK: '0.5' }), dir, {});
      assert.equal(configured.deleted, 2);
      for (const file of real.slice(0, 2)) fs.symlinkSync(file, path.join(dir, path.basename(path.dirname(file)), path.basename(file)));
      await importPath(context(), dir, {});
      for (const file of gone) fs.rmSync(file);
      const [allowed] = await importPath(context(), dir, { allowShrink: true });
      assert.equal(allowed.deleted, 2);
      assert.equal(await count('krt_articles'), real.length - 2);
    });
  },
  { migrations: krtService.migrations },
);
