// A's imports, on SQLite and PostgreSQL, of files whose values cannot be read. Cochrane (a number, TRUE/FALSE, a
// GRADE label): such a value is null with a warning where the outcome is new, and never replaces the value
// stored for the same outcome (matched by its texts, not its position); the review's readable changes are
// still taken. Guidelines: a strength or evidence-quality label of no vocabulary keeps the stored grading.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describeEachDatabase, needsSharedData } from '../../../test/support/databases.ts';
import { testContext } from '../../../test/support/app.ts';
import { readRealJson, scratchDir, writeFile } from '../../../test/support/oral/files.ts';
import type { ImportReport } from '../../core/import.ts';
import type { ServiceContext } from '../../core/service.ts';
import { readJson } from '../../core/db/dialect.ts';
import { oralService } from './service.ts';
import { oralDatabase } from './tables.ts';

const HEADER =
  'Population,Intervention,Comparison,Outcome,Measure,Effect,CI Lower,CI Upper,Significant,Number of participants,Number of studies,' +
  'Certainty of the evidence (GRADE),Reasons for GRADE if not High,Risk of bias,Imprecision,Inconsistency,Indirectness,Publication bias';
const row = (outcome: string, values: string) => `Adults receiving chemotherapy,Cryotherapy,No treatment,${outcome},RR,${values}`;

const gate = needsSharedData('oral');

describeEachDatabase(
  'oral imports keep stored values they cannot read again',
  (t) => {
    let dir: string;
    let ctx: ServiceContext;
    before(() => {
      if (gate.problem) throw new Error(gate.problem);
      dir = scratchDir();
      ctx = testContext(oralService, t.db, { dataDir: dir });
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const write = (rows: string[]) => writeFile(dir, 'cochrane_sof/CD000001/CD000001.PUB2.csv', `${[HEADER, ...rows].join('\n')}\n`);
    const run = async (): Promise<ImportReport> => (await oralService.importers.cochrane.run(ctx, dir, {}))[0];
    const outcomes = async () =>
      Object.fromEntries(
        (
          await oralDatabase(t.db)
            .selectFrom('oral_outcomes')
            .select(['outcome', 'effect', 'significant', 'participants', 'certainty', 'certainty_raw', 'downgrades'])
            .execute()
        ).map((o) => [
          o.outcome,
          {
            effect: o.effect === null ? null : Number(o.effect),
            significant: o.significant === null ? null : Boolean(o.significant),
            participants: o.participants === null ? null : Number(o.participants),
            certainty: o.certainty,
            risk_of_bias: readJson<{ risk_of_bias: boolean | null }>(o.downgrades).risk_of_bias,
          },
        ]),
      );

    it('an unreadable number, TRUE/FALSE or GRADE label keeps the stored value; a new outcome gets null', async () => {
      write([
        row('Mucositis (any)', '0.74,0.57,0.95,TRUE,472,5,Low,Risk of bias,TRUE,FALSE,TRUE,FALSE,FALSE'),
        row('Mucositis (severe)', '0.36,0.17,0.77,TRUE,472,5,Moderate,Imprecision,FALSE,TRUE,FALSE,FALSE,FALSE'),
      ]);
      assert.equal((await run()).inserted, 1);
      const stored = await outcomes();
      assert.deepEqual(stored['Mucositis (any)'], {
        effect: 0.74,
        significant: true,
        participants: 472,
        certainty: 'low',
        risk_of_bias: true,
      });

      // a new outcome first (the stored ones move down a position), then the same outcomes with values that
      // cannot be read, and one readable change
      write([
        row('Pain', 'about 0.5,0.2,0.9,TRUE,100,2,Lowish,,maybe,FALSE,FALSE,FALSE,FALSE'),
        row('Mucositis (any)', 'about 0.74,0.57,0.95,yes?,many,5,Lowish,Risk of bias,maybe,FALSE,TRUE,FALSE,FALSE'),
        row('Mucositis (severe)', '0.40,0.17,0.77,TRUE,472,5,Moderate,Imprecision,FALSE,TRUE,FALSE,FALSE,FALSE'),
      ]);
      const report = await run();
      assert.deepEqual([report.inserted, report.updated, report.deleted, report.unreadable], [0, 1, 0, 0], JSON.stringify(report));
      const now = await outcomes();
      assert.deepEqual(now['Mucositis (any)'], stored['Mucositis (any)'], 'every stored value of the outcome is kept');
      assert.equal(now['Mucositis (severe)'].effect, 0.4, 'the readable change is taken');
      assert.deepEqual(now.Pain, { effect: null, significant: true, participants: 100, certainty: null, risk_of_bias: null });
      const samples = report.warning_samples;
      const at = (n: number, text: string) => `CD000001/CD000001.PUB2.csv row ${n}: ${text}`;
      for (const w of [
        at(3, 'effect "about 0.74" is not a number; the stored value is kept'),
        at(3, 'significant "yes?" is not TRUE/FALSE; the stored value is kept'),
        at(3, 'participants "many" is not a number; the stored value is kept'),
        at(3, 'GRADE label "Lowish" not recognised; the stored value is kept'),
        at(3, 'risk_of_bias "maybe" is not TRUE/FALSE; the stored value is kept'),
        at(2, 'effect "about 0.5" is not a number; stored as null'),
      ]) {
        assert.ok(samples.includes(w), `${w} in ${JSON.stringify(samples)}`);
      }

      // the same file again: nothing changes (the kept values are what is stored)
      const again = await run();
      assert.deepEqual([again.inserted, again.updated, again.unchanged], [0, 0, 1], JSON.stringify(again));
    });

    it('a strength or evidence-quality label of no vocabulary keeps the stored value of the recommendation', async () => {
      const toolkit = readRealJson('uk_guidelines.json');
      const file = (name: string, recommendations: unknown[]) => writeFile(dir, name, JSON.stringify({ ...toolkit, recommendations }));
      const grading = async () =>
        (
          await oralDatabase(t.db)
            .selectFrom('oral_recommendations')
            .select(['source_key', 'strength_id', 'evidence_quality_id', 'content_hash'])
            .orderBy('source_key')
            .execute()
        ).map((r) => `${r.source_key}:${r.strength_id}:${r.evidence_quality_id}:${r.content_hash}`);
      await oralService.importers.toolkit.run(ctx, file('toolkit.json', toolkit.recommendations), {});
      const before = await grading();
      assert.ok(
        before.every((r) => !r.includes(':null:')),
        'the real file grades every recommendation',
      );
      const spoilt = toolkit.recommendations.map((r, i) => (i < 3 ? { ...r, strength: 'Mighty', evidence_quality: 'Some' } : r));
      const [report] = await oralService.importers.toolkit.run(ctx, file('spoilt.json', spoilt), {});
      assert.deepEqual([report.inserted, report.updated, report.deleted, report.unreadable], [0, 0, 0, 0], JSON.stringify(report));
      assert.deepEqual(await grading(), before, 'every stored grading is kept');
      assert.equal(
        report.warning_samples.filter((w) => /: unknown (strength "Mighty"|evidence quality "Some"); the stored value is kept$/.test(w))
          .length,
        6,
      );
    });

    it('a topic label of no vocabulary keeps the stored topics of the recommendation', async () => {
      const toolkit = readRealJson('uk_guidelines.json');
      const file = (name: string, recommendations: unknown[]) => writeFile(dir, name, JSON.stringify({ ...toolkit, recommendations }));
      const topics = async () =>
        (
          await oralDatabase(t.db)
            .selectFrom('oral_recommendation_topics as rt')
            .innerJoin('oral_recommendations as r', 'r.id', 'rt.recommendation_id')
            .select(['r.source_key', 'rt.topic_id'])
            .orderBy('r.source_key')
            .orderBy('rt.topic_id')
            .execute()
        ).map((r) => `${r.source_key}:${r.topic_id}`);
      await oralService.importers.toolkit.run(ctx, file('toolkit.json', toolkit.recommendations), {});
      const before = await topics();
      assert.ok(before.length > 0);
      const spoilt = toolkit.recommendations.map((r, i) => (i < 3 ? { ...r, topic: 'Astrology' } : r));
      const [report] = await oralService.importers.toolkit.run(ctx, file('spoilt-topics.json', spoilt), {});
      assert.deepEqual([report.inserted, report.updated, report.deleted, report.unreadable], [0, 0, 0, 0], JSON.stringify(report));
      assert.deepEqual(await topics(), before, 'every stored topic link is kept');
      assert.equal(report.warning_samples.filter((w) => /: unknown topic "Astrology"; the stored value is kept$/.test(w)).length, 3);
    });
  },
  { migrations: oralService.migrations },
);
