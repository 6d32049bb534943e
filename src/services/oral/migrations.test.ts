// Migration 2 on a database that migration 1 filled (as a deployment before it): each stored review gets its
// description and a checked title, and review search covers the description; on SQLite and PostgreSQL.
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../test/support/databases.ts';
import { dbBool, dbJson } from '../../core/db/dialect.ts';
import { migrateToLatest } from '../../core/db/migrations.ts';
import { untypedTables } from '../../core/db/tables.ts';
import { oralMigrations } from './migrations.ts';
import { listReviews } from './repository.ts';
import { oralDatabase } from './tables.ts';

const downgrades = {
  risk_of_bias: null,
  imprecision: null,
  inconsistency: null,
  indirectness: null,
  publication_bias: null,
  incoherence: null,
};

describeEachDatabase('oral migration 2 on reviews stored before it', (t) => {
  before(async () => {
    await migrateToLatest(t.db.kysely, { oral_0001_evidence: oralMigrations.oral_0001_evidence });
    // The rows migration 1's importer wrote: the listed title as `title`, "Cochrane review <id>" when none was listed.
    const db = untypedTables(t.db.kysely); // the tables as migration 1 left them (no type describes that past state)
    const reviews: [string, string, [string, string, string, string][]][] = [
      [
        'CD000979',
        'Pit and fissure sealants for preventing dental decay in permanent teeth',
        [['children with posterior crossbite', 'quad-helix', 'observation', 'Crossbite correction']],
      ],
      [
        'CD003815',
        'Interventions for replacing missing teeth different types of dental implants',
        [['adults with missing teeth', 'implant A', 'implant B', 'Implant failure']],
      ],
      ['CD099999', 'Cochrane review CD099999', [['adults', 'laser', 'placebo', 'pain']]],
    ];
    for (const [id, title, rows] of reviews) {
      const review = await db
        .insertInto('oral_reviews')
        .values({
          review_id: id,
          dataset: 'cochrane',
          version: 1,
          title,
          is_demo: dbBool(t.db.kysely, false),
          outcome_count: rows.length,
          certainty_high: 0,
          certainty_moderate: 0,
          certainty_low: 0,
          certainty_very_low: 0,
          content_hash: 'old',
          created_at: '2026-01-01T00:00:00Z',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const [position, [population, intervention, comparison, outcome]] of rows.entries())
        await db
          .insertInto('oral_outcomes')
          .values({
            review_pk: review.id,
            position,
            population,
            intervention,
            comparison,
            outcome,
            downgrades: dbJson(t.db.kysely, downgrades),
          })
          .execute();
    }
    await migrateToLatest(t.db.kysely, oralMigrations);
  });

  it('gives each stored review its description and shows a listed title only where the rows confirm it', async () => {
    const rows = await oralDatabase(t.db)
      .selectFrom('oral_reviews')
      .select(['review_id', 'title', 'listed_title', 'description', 'title_verified'])
      .orderBy('review_id')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.review_id, r.title, r.listed_title, r.description, Boolean(r.title_verified)]),
      [
        [
          'CD000979',
          'Children with posterior crossbite: quad-helix vs observation',
          'Pit and fissure sealants for preventing dental decay in permanent teeth',
          'Children with posterior crossbite: quad-helix vs observation',
          false,
        ],
        [
          'CD003815',
          'Interventions for replacing missing teeth different types of dental implants',
          'Interventions for replacing missing teeth different types of dental implants',
          'Adults with missing teeth: implant A vs implant B',
          true,
        ],
        ['CD099999', 'Adults: laser vs placebo', null, 'Adults: laser vs placebo', false],
      ],
    );
  });

  it('searches the description, and no longer the listed title of a review whose rows do not confirm it', async () => {
    const ids = async (q: string) => (await listReviews(oralDatabase(t.db), { q }, { page: 1, limit: 10 })).rows.map((r) => r.review_id);
    assert.deepEqual(await ids('crossbite'), ['CD000979']);
    assert.deepEqual(await ids('implant B'), ['CD003815']);
    assert.deepEqual(await ids('fissure sealants'), []);
  });
});
