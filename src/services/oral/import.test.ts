// The importers on the real files of ../shared/data/oral, on SQLite and PostgreSQL.
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeEachDatabase, needsSharedData, sharedData } from '../../../test/support/databases.ts';
import { getAggregate } from '../../core/db/datasets.ts';
import { DataVersionWatcher } from '../../core/service.ts';
import { oralService } from './service.ts';
import { importBundle, importCochrane, importPath, importSign, importToolkit, BUNDLE_FORMAT } from './import.ts';
import { testContext } from '../../../test/support/app.ts';
import type { OralBundle } from './import.ts';
import { listRecommendations, listReviews } from './repository.ts';
import type { OralStats } from './schemas/index.ts';
import { generateDemo } from './sources/index.ts';
import { oralState } from './state.ts';
import { oralDatabase } from './tables.ts';
import type { OralTables } from './tables.ts';

const gate = needsSharedData('oral');
const ORAL = sharedData('oral');

describeEachDatabase(
  'oral importers on the real files',
  (t) => {
    before(() => {
      if (gate.problem) throw new Error(gate.problem);
    });
    const db = () => oralDatabase(t.db);
    const count = async (table: keyof OralTables) =>
      Number(
        (
          await db()
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('keeps every toolkit row with its strength, quality, topic and table context', async () => {
      const report = await importToolkit(t.db, path.join(ORAL, 'uk_guidelines.json'));
      assert.equal(report.rows_read, 90);
      assert.equal(report.inserted, 90);
      assert.equal(report.skipped, 0);
      const rows = await db()
        .selectFrom('oral_recommendations as r')
        .innerJoin('oral_guidelines as g', 'g.id', 'r.guideline_id')
        .select(['r.id', 'r.strength_id', 'r.evidence_quality_id', 'r.clinical_context', 'g.country', 'g.region'])
        .where('g.dataset', '=', 'toolkit')
        .execute();
      assert.equal(rows.length, 90);
      assert.ok(rows.every((r) => r.strength_id !== null && r.evidence_quality_id !== null && r.clinical_context !== null));
      assert.ok(rows.every((r) => r.country === 'UK' && r.region === 'England'));
      const byStrength = await db()
        .selectFrom('oral_recommendations')
        .select(['strength_id', (eb) => eb.fn.countAll().as('n')])
        .groupBy('strength_id')
        .orderBy('strength_id')
        .execute();
      assert.deepEqual(
        byStrength.map((r) => [Number(r.strength_id), Number(r.n)]),
        [
          [1, 21],
          [2, 41],
          [3, 28],
        ],
      ); // Strong, Moderate, Conditional
      const topicLinks = await db()
        .selectFrom('oral_recommendation_topics')
        .select((eb) => eb.fn.count('recommendation_id').distinct().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(topicLinks.n), 90, 'every toolkit row has its topic');
    });

    it('files SIGN 138 under country UK, region Scotland, with grade and number', async () => {
      const report = await importSign(t.db, path.join(ORAL, 'sign138_recommendations.json'));
      assert.equal(report.inserted, 15);
      const sign = await db()
        .selectFrom('oral_recommendations as r')
        .innerJoin('oral_guidelines as g', 'g.id', 'r.guideline_id')
        .select(['r.grade', 'r.recommendation_number', 'g.country', 'g.region'])
        .where('g.dataset', '=', 'sign138')
        .execute();
      assert.equal(sign.length, 15);
      assert.ok(
        sign.every((r) => r.country === 'UK' && r.region === 'Scotland' && /^[ABC]$/.test(r.grade ?? '') && r.recommendation_number),
      );
      const uk = await listRecommendations(
        oralState(t.db, new DataVersionWatcher(t.db, 'oral', 0)),
        { country: 'UK' },
        { page: 1, limit: 100 },
      );
      assert.equal(uk.total, 105, 'country=UK includes England and Scotland');
      assert.ok(uk.rows.some((r) => r.guideline.region === 'Scotland'));
    });

    it('imports 141 reviews from their latest summary-of-findings tables, non-UTF-8 files decoded', async () => {
      const report = await importCochrane(t.db, ORAL);
      assert.equal(report.inserted, 141);
      assert.equal(await count('oral_reviews'), 141);
      assert.equal(await count('oral_outcomes'), 1995);
      const latest = await db()
        .selectFrom('oral_reviews')
        .select(['version', 'doi', 'url'])
        .where('review_id', '=', 'CD007859')
        .executeTakeFirstOrThrow();
      assert.equal(latest.version, 5);
      assert.equal(latest.doi, '10.1002/14651858.CD007859.pub5');
      const decoded = await db()
        .selectFrom('oral_outcomes as o')
        .innerJoin('oral_reviews as r', 'r.id', 'o.review_pk')
        .select('o.reasons')
        .where('r.review_id', '=', 'CD003809')
        .execute();
      assert.ok(
        decoded.some((o) => /Stecksén/.test(o.reasons ?? '')),
        'a Windows-1252 file decoded',
      );
      const garbled = await db()
        .selectFrom('oral_outcomes')
        .select('id')
        .where((eb) => eb.or([eb('reasons', 'like', '%\uFFFD%'), eb('outcome', 'like', '%\uFFFD%'), eb('reasons', 'like', '%â€%')]))
        .execute();
      assert.equal(garbled.length, 0);
      const stats = (await getAggregate<OralStats>(db(), 'oral', 'stats'))!.value;
      assert.equal(stats.reviews.total, 141);
      assert.equal(stats.reviews.total_outcomes, 1995);
      assert.equal(stats.recommendations.total, 105);
    });

    it('serves each review with a description from its own rows, and its listed title only where the rows confirm it', async () => {
      const rows = await db()
        .selectFrom('oral_reviews')
        .select(['review_id', 'title', 'listed_title', 'description', 'title_verified'])
        .where('dataset', '=', 'cochrane')
        .orderBy('review_id')
        .execute();
      assert.equal(rows.length, 141);
      const cd000979 = rows.find((r) => r.review_id === 'CD000979')!;
      assert.equal(Boolean(cd000979.title_verified), false, 'listed as sealants, holds crossbite outcomes');
      assert.equal(cd000979.listed_title, 'Pit and fissure sealants for preventing dental decay in permanent teeth');
      assert.match(
        cd000979.description,
        /^Children \(7 to 11 years old\) with posterior crossbite: expansion plate; quad-helix; .* vs observation/,
      );
      assert.equal(cd000979.title, cd000979.description);
      for (const r of rows) assert.equal(r.title, r.title_verified ? r.listed_title : r.description, r.review_id);
      // The measure and its threshold are in sources/review-title.ts; README reports how they were checked.
      assert.deepEqual(
        rows.filter((r) => r.title_verified).map((r) => r.review_id),
        ['CD003815', 'CD006205', 'CD012432'],
      );
    });

    it('finds Behçet from "behcet": search ignores accents, and the accented spelling ranks first', async () => {
      const ids = async (q: string) => (await listReviews(db(), { q }, { page: 1, limit: 100 })).rows.map((r) => r.review_id);
      const accented = await ids('Behçet');
      assert.ok(accented.length > 0);
      assert.deepEqual(await ids('behcet'), accented);
      assert.deepEqual(await ids('BEHCET'), accented);
    });

    it('changes nothing when the same files are imported again', async () => {
      const idsBefore = await db().selectFrom('oral_recommendations').select(['id', 'source_key']).orderBy('id').execute();
      const reviewIdsBefore = await db().selectFrom('oral_reviews').select(['id', 'review_id']).orderBy('id').execute();
      for (const report of [
        await importToolkit(t.db, path.join(ORAL, 'uk_guidelines.json')),
        await importSign(t.db, path.join(ORAL, 'sign138_recommendations.json')),
        await importCochrane(t.db, ORAL),
      ]) {
        assert.equal(report.inserted + report.updated + report.deleted, 0, `${report.dataset}: ${JSON.stringify(report)}`);
        assert.ok(report.unchanged > 0);
      }
      assert.deepEqual(await db().selectFrom('oral_recommendations').select(['id', 'source_key']).orderBy('id').execute(), idsBefore);
      assert.deepEqual(await db().selectFrom('oral_reviews').select(['id', 'review_id']).orderBy('id').execute(), reviewIdsBefore);
    });

    it('leaves the old data when an import fails midway', async () => {
      const demo = generateDemo({ seed: 5, guidelines: 4, recommendations: 20, reviews: 2 });
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-oral-'));
      // Not marked generated: generated data is never imported beside the real files this suite holds.
      const good: OralBundle = {
        format: BUNDLE_FORMAT,
        version: 1,
        generated: false,
        description: 'test',
        guidelines: demo.guidelines,
        reviews: demo.reviews,
      };
      fs.writeFileSync(path.join(dir, 'good.pdi-oral.json'), JSON.stringify(good));
      await importBundle(t.db, path.join(dir, 'good.pdi-oral.json'));
      const snapshot = async () => ({
        recs: await db().selectFrom('oral_recommendations').select(['id', 'title', 'content_hash']).orderBy('id').execute(),
        reviews: await db().selectFrom('oral_reviews').select(['id', 'content_hash']).orderBy('id').execute(),
        stats: (await getAggregate<OralStats>(db(), 'oral', 'stats'))!.value.recommendations.total,
      });
      const before = await snapshot();
      // The third guideline carries a recommendation without text: the database refuses it after the first
      // two guidelines were already rewritten inside the transaction.
      const broken = structuredClone(good);
      broken.guidelines[0].recommendations[0].title = 'changed before the failure';
      (broken.guidelines[2].recommendations[0] as { text: unknown }).text = null;
      fs.writeFileSync(path.join(dir, 'broken.pdi-oral.json'), JSON.stringify(broken));
      await assert.rejects(importBundle(t.db, path.join(dir, 'broken.pdi-oral.json')));
      assert.deepEqual(await snapshot(), before);
      // a file cut short, and a directory given to a one-file importer: errors that name the path
      fs.writeFileSync(path.join(dir, 'cut.pdi-oral.json'), JSON.stringify(good).slice(0, 100));
      await assert.rejects(importBundle(t.db, path.join(dir, 'cut.pdi-oral.json')), {
        name: 'TruncatedSourceError',
        message: new RegExp(`^${path.join(dir, 'cut.pdi-oral.json')} is truncated: line 1, column \\d+: `),
      });
      const ctx = testContext(oralService, t.db, { dataDir: dir });
      await assert.rejects(importPath(ctx, dir, { kind: 'toolkit' }), {
        message: `${dir} is a directory; the toolkit importer reads one JSON file`,
      });
      assert.deepEqual(await snapshot(), before);
      fs.rmSync(dir, { recursive: true, force: true });
    });
  },
  { migrations: oralService.migrations },
);
