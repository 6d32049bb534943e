// The store importer on SQLite and PostgreSQL, on a representative subset of the shared corpus (every paper that
// announces a key resources table, 73 of them with an author table, plus every 40th other paper): sessions equal
// the domain extractor's tables paper by paper, stable ids on re-import, changed and removed files, skip reasons,
// atomic failure, the knowledge base, and the `extract` command. The whole corpus (1,200 files, 84 author tables)
// is asserted by the domain tests (extract/author-table.test.ts) and, on both databases, by the opt-in test at
// the end (PDI_KRT_FULL=1).
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { describeEachDatabase, needsSharedData } from '../../../test/support/databases.ts';
import { testContext } from '../../../test/support/app.ts';
import { getAggregate } from '../../core/db/datasets.ts';
import { krtService } from './service.ts';
import { importStore, listStoreFiles } from './import.ts';
import { KB_AGGREGATE } from './aggregates.ts';
import type { StoredKnowledgeBase } from './aggregates.ts';
import { rowsOfSessions, sessionRows } from './repository.ts';
import { splitTable } from './extract/index.ts';
import { corpusFiles, corpusSubset, domainExtraction, linkStore } from '../../../test/support/krt/corpus.ts';
import { RridKnowledgeBase } from './rrid/index.ts';
import type { KrtTables } from './tables.ts';
import { TABLE_EXTRACTOR_MODEL } from './extract/index.ts';
import { contentHashOf, sessionIdOf } from './session-id.ts';

const gate = needsSharedData('krt', 'xml');
const subset = gate.problem ? [] : corpusSubset();

describeEachDatabase(
  'krt importer on the shared corpus',
  (t) => {
    let store: string;
    before(() => {
      if (gate.problem) throw new Error(gate.problem);
      store = linkStore(subset);
    });
    after(() => {
      if (store) fs.rmSync(store, { recursive: true, force: true });
    });
    const db = () => t.db.kysely.withTables<KrtTables>();
    const sessionsByDoi = async () => {
      const rows = await db()
        .selectFrom('krt_sessions')
        .select(['session_id', 'doi', 'provider', 'model', 'status', 'total_resources', 'new_resources', 'is_demo'])
        .orderBy('doi')
        .execute();
      return new Map(rows.map((r) => [r.doi as string, r]));
    };

    it("stores every article with one session whose rows are the domain extractor's, paper by paper", { skip: gate.skip }, async () => {
      const report = await importStore(t.db, store, { workers: 2, progress: false });
      assert.equal(report.rows_read, subset.length);
      assert.equal(report.inserted, subset.length);
      assert.equal(report.skipped, 0);
      const sessions = await sessionsByDoi();
      assert.equal(sessions.size, subset.length);
      const rows = await rowsOfSessions(
        db(),
        [...sessions.values()].map((s) => s.session_id),
      );
      let tables = 0;
      for (const file of subset) {
        const { doi, extraction } = domainExtraction(file);
        const session = sessions.get(doi);
        assert.ok(session, doi);
        assert.equal(session.provider, extraction.provider, doi);
        assert.equal(session.model, extraction.model, doi);
        assert.equal(session.status, 'completed');
        // Every row is stored (the key resources table and its further mentions); the session counts the table.
        assert.deepEqual(rows.get(session.session_id), extraction.rows, doi);
        const table = splitTable(extraction.rows, extraction.evidence).rows;
        assert.deepEqual(await sessionRows(db(), session.session_id), table, doi);
        assert.equal(Number(session.total_resources), table.length, doi);
        assert.equal(Number(session.new_resources), table.filter((r) => r['NEW/REUSE'] === 'new').length);
        if (extraction.provider === 'jats-table') {
          tables++;
          assert.ok(extraction.rows.length > 0);
        }
      }
      assert.equal(tables, subset.filter((f) => domainExtraction(f).extraction.provider === 'jats-table').length);
      assert.ok(tables >= 70, `${tables} author tables in the subset`);
      // Metadata as the JATS layer reads it; the DOI from the file name; the path relative to the store.
      const file = subset.find((f) => f.includes('2021.09.08.459408')) ?? subset[0];
      const { doi, extraction } = domainExtraction(file);
      const article = await db().selectFrom('krt_articles').selectAll().where('doi', '=', doi).executeTakeFirstOrThrow();
      assert.equal(article.title, extraction.metadata.title);
      assert.equal(article.authors, extraction.metadata.authors);
      assert.equal(article.publication_date, extraction.metadata.publicationDate);
      assert.equal(article.file_path, path.relative(store, path.join(store, path.basename(path.dirname(file)), path.basename(file))));
      assert.equal(Number(article.file_size), fs.statSync(file).size);
      assert.equal(Boolean(article.is_demo), false);
      // The knowledge base: built from the stored tables and calibrated (otherwise every confidence would be 1/2).
      const kb = (await getAggregate<StoredKnowledgeBase>(db(), 'krt', KB_AGGREGATE))!;
      assert.equal(kb.data_version, report.data_version);
      assert.equal(kb.value.papers, [...sessions.values()].filter((s) => Number(s.total_resources) > 0).length);
      // The same base built straight from the domain's tables.
      const expected = new RridKnowledgeBase();
      for (const f of subset) {
        const { doi: d, extraction: x } = domainExtraction(f);
        if (x.rows.length) expected.addPaper(d, x.rows, x.provider);
      }
      assert.equal(kb.value.entries, expected.size);
      assert.equal(kb.value.rrids, [...expected.entries()].filter((e) => e.rrid).length);
      assert.ok(kb.value.rrids > 100, `${kb.value.rrids} RRIDs`);
      assert.ok(
        kb.value.snapshot.calibration && kb.value.snapshot.calibration.bins.length > 1 && kb.value.snapshot.calibration.queries > 50,
      );
      assert.equal(kb.value.calibrated_on_current_papers, true);
    });

    it(
      'imports the same directory again without a change: same session ids, counts unchanged, knowledge-base ids kept',
      { skip: gate.skip },
      async () => {
        const before_ = await sessionsByDoi();
        const kbBefore = (await getAggregate<StoredKnowledgeBase>(db(), 'krt', KB_AGGREGATE))!.value.snapshot;
        const report = await importStore(t.db, store, { workers: 2, progress: false });
        assert.deepEqual([report.inserted, report.updated, report.deleted, report.unchanged, report.skipped], [0, 0, 0, subset.length, 0]);
        assert.deepEqual(await sessionsByDoi(), before_);
        const kbAfter = (await getAggregate<StoredKnowledgeBase>(db(), 'krt', KB_AGGREGATE))!;
        assert.equal(kbAfter.data_version, report.data_version, 'the base is kept under the new data version');
        assert.deepEqual(kbAfter.value.snapshot.ids, kbBefore.ids);
      },
    );

    it(
      'follows the directory: a changed file gets a new session, a removed file is deleted with its sessions, bad files are skipped with reasons',
      { skip: gate.skip },
      async () => {
        const files = listStoreFiles(store);
        const removed = files[0];
        const changed = files.find((f) => domainExtraction(fs.realpathSync(f)).extraction.provider === 'jats-table')!;
        const removedDoi = domainExtraction(fs.realpathSync(removed)).doi;
        const changedDoi = domainExtraction(fs.realpathSync(changed)).doi;
        const before_ = await sessionsByDoi();
        const kbIds = (await getAggregate<StoredKnowledgeBase>(db(), 'krt', KB_AGGREGATE))!.value.snapshot.ids;
        fs.rmSync(removed);
        // The changed file loses its first table row.
        const xml = fs.readFileSync(fs.realpathSync(changed), 'utf8');
        const original = domainExtraction(fs.realpathSync(changed)).extraction;
        const firstName = original.rows[0]['RESOURCE NAME'];
        fs.rmSync(changed);
        fs.writeFileSync(
          changed,
          xml.replace(/<tr\b(?:(?!<\/tr>)[\s\S])*?<\/tr>/g, (tr) =>
            tr.includes('<td') && tr.replace(/<[^>]+>/g, '').includes(firstName.slice(0, 12)) ? '' : tr,
          ),
        );
        fs.writeFileSync(path.join(store, '2021', 'not-a-doi name.xml'), '<article/>');
        fs.writeFileSync(path.join(store, '2021', '2021.01.01.999999.xml'), '<article><front>unclosed</article>');
        const report = await importStore(t.db, store, { workers: 0, progress: false });
        assert.equal(report.deleted, 1);
        assert.equal(report.updated, 1);
        assert.equal(report.inserted, 0);
        assert.equal(report.unchanged, subset.length - 2);
        assert.deepEqual(report.skip_reasons, {
          'file name is not a DOI suffix (expected <doi-suffix>.xml)': 1,
          'not a well-formed JATS document': 1,
        });
        const after_ = await sessionsByDoi();
        assert.equal(after_.has(removedDoi), false);
        assert.equal(
          Number(
            (
              await db()
                .selectFrom('krt_articles')
                .select((eb) => eb.fn.countAll().as('n'))
                .where('doi', '=', removedDoi)
                .executeTakeFirstOrThrow()
            ).n,
          ),
          0,
        );
        assert.notEqual(after_.get(changedDoi)!.session_id, before_.get(changedDoi)!.session_id, 'new content, new session id');
        assert.ok(Number(after_.get(changedDoi)!.total_resources) < original.rows.length);
        const stale = await db()
          .selectFrom('krt_session_rows')
          .select('session_id')
          .where('session_id', '=', before_.get(changedDoi)!.session_id)
          .execute();
        assert.equal(stale.length, 0, 'the old session and its rows are gone');
        for (const [doi, s] of after_) if (doi !== changedDoi) assert.equal(s.session_id, before_.get(doi)!.session_id);
        // Entry ids of resources still in the base do not move.
        const kbAfter = (await getAggregate<StoredKnowledgeBase>(db(), 'krt', KB_AGGREGATE))!.value.snapshot.ids;
        for (const [key, id] of Object.entries(kbIds)) if (key in kbAfter) assert.equal(kbAfter[key], id);
      },
    );

    it('leaves the old data when an import fails inside its transaction', { skip: gate.skip }, async () => {
      const snapshot = async () => ({
        articles: await db().selectFrom('krt_articles').select(['doi', 'content_hash', 'updated_at']).orderBy('doi').execute(),
        sessions: await db().selectFrom('krt_sessions').select(['session_id']).orderBy('session_id').execute(),
        kb: (await getAggregate<StoredKnowledgeBase>(db(), 'krt', KB_AGGREGATE))!.data_version,
      });
      const before_ = await snapshot();
      const files = listStoreFiles(store).filter((f) => /\d{4}\.\d{2}\.\d{2}\.\d+\.xml$/.test(f) && !f.endsWith('999999.xml'));
      const early = files[0];
      const late = files.filter((f) => domainExtraction(fs.realpathSync(f)).extraction.provider === 'jats-table').at(-1)!;
      const targets = [early, late].map((f) => ({ link: f, target: fs.realpathSync(f) }));
      const edit = (file: string) => {
        const xml = fs.readFileSync(file, 'utf8');
        fs.rmSync(file);
        fs.writeFileSync(file, xml.replace('</article>', '<!-- edited --></article>'));
        return contentHashOf(fs.readFileSync(file));
      };
      edit(early);
      const lateHash = edit(late);
      const lateSession = sessionIdOf(domainExtraction(targets[1].target).doi, 'jats-table', TABLE_EXTRACTOR_MODEL, lateHash);
      // A database-level failure on the rows of the late file, after the early file was rewritten in the transaction.
      if (t.kind === 'sqlite') {
        await sql`CREATE TRIGGER krt_test_boom BEFORE INSERT ON krt_session_rows WHEN NEW.session_id = ${sql.lit(lateSession)} BEGIN SELECT RAISE(ABORT, 'boom'); END`.execute(
          db(),
        );
      } else {
        await sql`CREATE FUNCTION krt_test_boom() RETURNS trigger AS $$ BEGIN IF NEW.session_id = ${sql.lit(lateSession)} THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`.execute(
          db(),
        );
        await sql`CREATE TRIGGER krt_test_boom BEFORE INSERT ON krt_session_rows FOR EACH ROW EXECUTE FUNCTION krt_test_boom()`.execute(
          db(),
        );
      }
      try {
        await assert.rejects(importStore(t.db, store, { workers: 0, progress: false }), /boom/);
        assert.deepEqual(await snapshot(), before_);
        const run = await db()
          .selectFrom('import_runs')
          .select(['status', 'error'])
          .where('service', '=', 'krt')
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();
        assert.equal(run.status, 'failed');
      } finally {
        for (const { link, target } of targets) {
          fs.rmSync(link);
          fs.symlinkSync(target, link);
        }
        await sql`DROP TRIGGER krt_test_boom ${sql.raw(t.kind === 'sqlite' ? '' : 'ON krt_session_rows')}`.execute(db());
      }
    });

    it(
      'extract: the built-in extractor on stored articles gives the stored sessions back; unknown DOIs are reported',
      { skip: gate.skip },
      async () => {
        const ctx = testContext(krtService, t.db, { env: { ...process.env, PDI_KRT_LLM_BASE_URL: '', PDI_KRT_LLM_MODEL: '' } });
        const stored = await sessionsByDoi();
        const [a, b] = [...stored.keys()].filter((d) => d !== undefined).slice(2, 4);
        const result = (await krtService.extract!(
          ctx,
          [a, `https://doi.org/${b.toUpperCase()}v2`, '10.1101/not.stored', 'garbage'],
          {},
        )) as {
          requested: number;
          sessions: { doi: string; session_id: string; change: string }[];
          errors: { doi: string; error: string }[];
        };
        assert.equal(result.requested, 4);
        assert.deepEqual(
          result.sessions.map((s) => [s.doi, s.session_id, s.change]),
          [
            [a, stored.get(a)!.session_id, 'unchanged'],
            [b, stored.get(b)!.session_id, 'unchanged'],
          ],
        );
        assert.deepEqual(
          result.errors.map((e) => e.doi),
          ['10.1101/not.stored', 'garbage'],
        );
        const kb = (await getAggregate<StoredKnowledgeBase>(db(), 'krt', KB_AGGREGATE))!.value;
        assert.ok(kb.calibrated_on_current_papers, 'the command recalibrates the base');
        assert.ok(RridKnowledgeBase.fromJSON(kb.snapshot).size > 0);
      },
    );
  },
  { migrations: krtService.migrations },
);

// The whole corpus on both databases: about a minute of extraction per database, so only on request (defined only
// then, because CI counts a skipped test as a failure).
if (process.env.PDI_KRT_FULL === '1') {
  describeEachDatabase(
    'krt importer on the whole corpus (PDI_KRT_FULL=1)',
    (t) => {
      it("imports 1,200 articles, 84 with an author table, rows equal to the domain's", { skip: gate.skip, timeout: 900_000 }, async () => {
        if (gate.problem) throw new Error(gate.problem);
        const files = corpusFiles();
        const store = linkStore(files, 'krt-full-');
        try {
          const report = await importStore(t.db, store, { progress: false });
          assert.equal(report.inserted, 1200);
          const sessions = await t.db.kysely
            .withTables<KrtTables>()
            .selectFrom('krt_sessions')
            .select(['doi', 'provider', 'total_resources'])
            .execute();
          assert.equal(sessions.filter((s) => s.provider === 'jats-table').length, 84);
          const byDoi = new Map(sessions.map((s) => [s.doi, Number(s.total_resources)]));
          for (const file of files) {
            const { doi, extraction } = domainExtraction(file);
            assert.equal(byDoi.get(doi), extraction.rows.length, doi);
          }
        } finally {
          fs.rmSync(store, { recursive: true, force: true });
        }
      });
    },
    { migrations: krtService.migrations },
  );
}
