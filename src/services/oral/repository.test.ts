// listRecommendations answers from recommendations held in memory per data version: the same rows, total and order
// as the SQL search (substringMatch, the filters, the contract's order) on both databases, and a new import is seen
// at once.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { describeEachDatabase } from '../../../test/support/databases.ts';
import { recordNewVersion } from '../../../test/support/data-version.ts';
import { oralAppWithData } from '../../../test/support/oral/app.ts';
import { DataVersionWatcher } from '../../core/service.ts';
import type { ServiceApp } from '../../core/service.ts';
import { accentExactRank, substringMatch } from '../../core/db/search-index.ts';
import { listRecommendations } from './repository.ts';
import type { RecommendationFilters } from './repository.ts';
import { RECOMMENDATION_SEARCH } from './search.ts';
import { oralService } from './service.ts';
import { oralState } from './state.ts';
import type { OralState } from './state.ts';
import type { OralDatabase, OralTables } from './tables.ts';

/** The ids, in order, and the total that the SQL search finds (the query listRecommendations ran before). */
async function sqlSearch(db: Kysely<OralDatabase>, filters: RecommendationFilters) {
  let base = db.selectFrom('oral_recommendations as r');
  if (filters.q) base = base.where(substringMatch(db, RECOMMENDATION_SEARCH, filters.q, 'r'));
  if (filters.country) base = base.where('r.country', '=', filters.country);
  if (filters.strengthId !== undefined) base = base.where('r.strength_id', '=', filters.strengthId);
  if (filters.evidenceQualityId !== undefined) base = base.where('r.evidence_quality_id', '=', filters.evidenceQualityId);
  if (filters.topicId !== undefined) {
    const topicId = filters.topicId;
    base = base.where('r.id', 'in', (eb) =>
      eb.selectFrom('oral_recommendation_topics').select('recommendation_id').where('topic_id', '=', topicId),
    );
  }
  const rows = await base
    .innerJoin('oral_guidelines as g', 'g.id', 'r.guideline_id')
    .select('r.id')
    .$if(filters.q !== undefined, (qb) => qb.orderBy(accentExactRank(db, RECOMMENDATION_SEARCH, filters.q ?? '', 'r')))
    .orderBy(sql`r.publication_year desc nulls last`)
    .orderBy('r.id')
    .execute();
  return rows.map((r) => Number(r.id));
}

const CASES: RecommendationFilters[] = [
  {},
  { q: 'fluoride' },
  { q: 'FLUORIDE varnish' },
  { q: ' caries ' },
  { q: 'fl' },
  { q: 'é' },
  { q: 'e' },
  { q: 'sante' },
  { q: 'santé' },
  { q: 'ÉTUDE' },
  { q: 'children', country: 'UK' },
  { q: 'no such text anywhere' },
  { country: 'US' },
  { topicId: 1 },
  { topicId: 3, q: 'fluoride' },
  { strengthId: 1 },
  { evidenceQualityId: 2 },
];

describeEachDatabase(
  'oral listRecommendations held in memory',
  (t) => {
    let app: ServiceApp;
    before(async () => {
      app = await oralAppWithData(t);
    });
    after(async () => app?.close());
    const db = () => t.db.kysely.withTables<OralTables>();
    // Without the service's watcher (a watcher that re-reads at once): every search reads the version.
    let state: OralState;
    before(() => {
      state = oralState(t.db, new DataVersionWatcher(t.db, 'oral', 0));
    });

    it('finds the rows, total and order of the SQL search', async () => {
      for (const filters of CASES) {
        const expected = await sqlSearch(db(), filters);
        for (const page of [
          { page: 1, limit: 20 },
          { page: 3, limit: 7 },
          { page: 1000, limit: 50 },
        ]) {
          const found = await listRecommendations(state, filters, page);
          assert.equal(found.total, expected.length, JSON.stringify(filters));
          const from = (page.page - 1) * page.limit;
          assert.deepEqual(
            found.rows.map((r) => r.id),
            expected.slice(from, from + page.limit),
            `${JSON.stringify(filters)} page ${page.page}`,
          );
        }
      }
      assert.ok((await sqlSearch(db(), { q: 'fluoride' })).length > 20, 'the data gives the search something to page through');
      // Held, not read again: two calls give the very same objects.
      const [a, b] = [
        await listRecommendations(state, {}, { page: 1, limit: 5 }),
        await listRecommendations(state, {}, { page: 1, limit: 5 }),
      ];
      assert.ok(a.rows.every((row, i) => row === b.rows[i]));
    });

    it('sees a new import at once (the data version changed)', async () => {
      const before = await listRecommendations(state, {}, { page: 1, limit: 1 });
      // Remove one recommendation as an import would, and record a new data version as the import runner does.
      const victim = before.rows[0].id;
      await db().deleteFrom('oral_recommendation_topics').where('recommendation_id', '=', victim).execute();
      await db().deleteFrom('oral_recommendations').where('id', '=', victim).execute();
      const stale = await listRecommendations(state, {}, { page: 1, limit: 100_000 });
      assert.ok(
        stale.rows.some((r) => r.id === victim),
        'held until the data version changes',
      );
      await recordNewVersion(db(), 'oral');
      const after = await listRecommendations(state, {}, { page: 1, limit: 100_000 });
      assert.equal(
        after.rows.some((r) => r.id === victim),
        false,
      );
      assert.equal(after.total, (await sqlSearch(db(), {})).length);
    });

    it('reads the version through the service watcher: no query per search, a new version once the watcher says so', async () => {
      const watcher = new DataVersionWatcher(t.db, 'oral', 60_000);
      const state = oralState(t.db, watcher);
      const before = await listRecommendations(state, {}, { page: 1, limit: 1 });
      const victim = before.rows[0].id;
      await db().deleteFrom('oral_recommendation_topics').where('recommendation_id', '=', victim).execute();
      await db().deleteFrom('oral_recommendations').where('id', '=', victim).execute();
      await recordNewVersion(db(), 'oral');
      const held = await listRecommendations(state, {}, { page: 1, limit: 100_000 });
      assert.ok(
        held.rows.some((r) => r.id === victim),
        'within the watcher’s minute the version is not read again',
      );
      watcher.invalidate(); // as an import in this process does (and the cluster's news from another worker)
      const after = await listRecommendations(state, {}, { page: 1, limit: 100_000 });
      assert.equal(
        after.rows.some((r) => r.id === victim),
        false,
      );
      assert.equal(after.total, (await sqlSearch(db(), {})).length);
    });
  },
  { migrations: oralService.migrations },
);
