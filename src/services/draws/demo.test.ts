// The generated history: IRCC's own format, reproducible, plausible, and labelled as generated wherever
// it ends up; loaded through the same importer on SQLite and PostgreSQL.
import { after, before, it, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServiceApp } from '../../core/service.ts';
import { buildTestApp, testContext } from '../../../test/support/app.ts';
import { describeEachDatabase, needsSharedData, sharedData } from '../../../test/support/databases.ts';
import { AS_OF_VARIABLE } from './as-of.ts';
import { frenchRoundsFeed, generateRoundsFeed } from './demo.ts';
import { CATEGORY_NAMES_FR, categoriseDrawName, categoriseRounds } from './feed/categories.ts';
import { dayNumber } from './feed/ircc-dates.ts';
import { parseRoundsFeed } from './feed/rounds-feed.ts';
import { GENERATED_MARKER } from './import.ts';
import { SNAPSHOT_NAME } from './feed/reference-snapshot.ts';
import { drawsService } from './service.ts';
import type { DrawsTables } from './tables.ts';

test("the generator writes the feed's own format, reproducibly from its seed", () => {
  const a = generateRoundsFeed({ size: 300, seed: 7, endDate: '2025-12-17' });
  assert.deepEqual(generateRoundsFeed({ size: 300, seed: 7, endDate: '2025-12-17' }), a);
  assert.notDeepEqual(generateRoundsFeed({ size: 300, seed: 8, endDate: '2025-12-17' }).rounds, a.rounds);
  assert.ok(a[GENERATED_MARKER].note.includes('NOT real'));
  assert.ok(
    a.rounds.every((r) => Object.values(r).every((v) => typeof v === 'string')),
    'every value a string, as IRCC writes them',
  );
  const { rounds } = parseRoundsFeed(JSON.parse(JSON.stringify(a)));
  assert.equal(rounds.length, 300);
  // Newest first; the newest on a weekday within a week of the end date.
  assert.ok(rounds.every((r, i) => i === 0 || r.date <= rounds[i - 1].date));
  assert.ok(dayNumber('2025-12-17') - dayNumber(rounds[0].date) <= 7);
  assert.ok(
    rounds.every((r) => ![0, 6].includes(new Date(`${r.date}T00:00:00Z`).getUTCDay())),
    'draws fall on weekdays',
  );
  assert.deepEqual(
    rounds
      .filter((r) => /[a-z]$/.test(r.roundNumber))
      .map((r) => r.roundNumber.slice(-1))
      .sort(),
    ['a', 'b'],
    'one lettered pair, as 91a/91b',
  );
  assert.ok(
    rounds.every((r) => r.url === null),
    'no links to canada.ca: these rounds do not exist',
  );
  assert.ok(rounds.every((r) => r.poolDistribution !== null));
  assert.ok(rounds.filter((r) => r.poolDistribution!.published).every((r) => r.poolDistribution!.consistent));
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const gaps = rounds.slice(1).map((r, i) => dayNumber(rounds[i].date) - dayNumber(r.date));
  assert.ok(mean(gaps) > 5 && mean(gaps) < 15, `mean gap ${mean(gaps)} days`);
});

test('generated categories are the real families, with plausible cut-offs', () => {
  const { rounds } = parseRoundsFeed(JSON.parse(JSON.stringify(generateRoundsFeed({ size: 400, seed: 3, endDate: '2025-06-30' }))));
  const groups = categoriseRounds(rounds);
  assert.ok(
    groups.every((g) => g.category.known),
    'no name falls outside the canonical families',
  );
  const slugs = groups.map((g) => g.category.slug);
  for (const slug of ['general', 'cec', 'pnp', 'french', 'healthcare']) assert.ok(slugs.includes(slug), slug);
  const healthcareNames = groups.find((g) => g.category.slug === 'healthcare')!.rawNames.map((n) => n.rawName);
  assert.ok(healthcareNames.length === 2, 'both healthcare versions appear, as in the real feed');
  for (const g of groups) {
    const crs = g.rounds.map((r) => r.crs);
    if (g.category.slug === 'pnp') assert.ok(Math.min(...crs) >= 600, 'nominees carry 600 extra points');
    else assert.ok(Math.min(...crs) >= 250 && Math.max(...crs) <= 650, `${g.category.slug}: ${Math.min(...crs)}–${Math.max(...crs)}`);
    assert.ok(g.rounds.every((r) => r.invitations >= 50 && r.invitations <= 20_000));
  }
  // Program rounds come first, category-based rounds later.
  const first = (slug: string) =>
    groups
      .find((g) => g.category.slug === slug)!
      .rounds.map((r) => r.date)
      .sort()[0];
  assert.ok(first('general') < first('pnp') && first('pnp') < first('french'));
});

test('the French twin has the same rounds, numbers and figures, with French names, programs and dates', () => {
  const english = generateRoundsFeed({ size: 300, seed: 7, endDate: '2025-12-17' });
  const french = frenchRoundsFeed(english);
  assert.ok(french[GENERATED_MARKER].note.includes('PAS'));
  const parsedEn = parseRoundsFeed(JSON.parse(JSON.stringify(english))).rounds;
  const parsedFr = parseRoundsFeed(JSON.parse(JSON.stringify(french))).rounds;
  assert.deepEqual(
    parsedFr.map((r) => [r.roundNumber, r.date, r.crs, r.invitations]),
    parsedEn.map((r) => [r.roundNumber, r.date, r.crs, r.invitations]),
    'matched by round number, same figures (French grouping read back)',
  );
  english.rounds.forEach((en, i) => {
    const fr = french.rounds[i];
    assert.notEqual(fr.drawName, en.drawName, `${en.drawName} has a French name`);
    assert.notEqual(fr.drawText2, en.drawText2);
    assert.match(
      fr.drawDateFull,
      /^(1er|\d{1,2}) (janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre) \d{4}$/,
    );
    assert.match(fr.drawDateTime, / à \d{2}:\d{2}:\d{2} UTC$/);
  });
  // The French names of a family start as the service names the family in French (IRCC's words for both).
  for (const round of french.rounds.slice(0, 40)) {
    const slug = categoriseDrawName(english.rounds[french.rounds.indexOf(round)].drawName).category.slug;
    const stem = CATEGORY_NAMES_FR[slug].split(' ')[0];
    if (slug !== 'general' && slug !== 'french')
      assert.ok(round.drawName.startsWith(stem), `${round.drawName} / ${CATEGORY_NAMES_FR[slug]}`);
  }
});

describeEachDatabase(
  'draws demo data',
  (t) => {
    let dir: string;
    let app: ServiceApp;
    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-draws-demo-'));
      const ctx = testContext(drawsService, t.db, { dataDir: dir, env: { ...process.env, [AS_OF_VARIABLE]: '2025-12-17' } });
      const [report, french] = await drawsService.loadDemo(ctx, { size: 250, seed: 11 });
      assert.equal(report.is_demo, true);
      assert.deepEqual([report.rows_read, report.inserted, report.skipped], [250, 250, 0]);
      assert.equal(french.is_demo, true);
      assert.deepEqual([french.rows_read, french.updated, french.skipped, french.warnings], [250, 250, 0, 0]);
      app = await buildTestApp(drawsService, ctx);
    });
    after(async () => {
      await app?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('loads through the importer and says "demo" in every body that has room', async () => {
      for (const url of [
        '/api/draws/',
        '/api/draws/recent/',
        '/api/predict/',
        '/api/stats/',
        '/api/models/',
        '/api/categories/2/statistics/',
        '/api/categories/2/predictions/',
      ]) {
        const body = (await app.inject(url)).json();
        assert.equal(body.data_source.kind, 'demo', url);
        assert.match(body.data_source.description, /NOT real/, url);
      }
      assert.ok(fs.existsSync(path.join(dir, 'demo', 'draws')), 'written under the data directory');
    });

    it('serves the French feed’s names in French: IRCC’s draw names and the categories’ names', async () => {
      const fr = (await app.inject('/api/draws/?lang=fr&limit=100')).json<{ data: { draw_name: string; category_name: string }[] }>();
      const en = (await app.inject('/api/draws/?limit=100')).json<{ data: { draw_name: string; category_name: string }[] }>();
      assert.equal(fr.data.length, en.data.length);
      fr.data.forEach((d, i) => {
        assert.notEqual(d.draw_name, en.data[i].draw_name, `${en.data[i].draw_name} in French`);
        assert.ok(Object.values(CATEGORY_NAMES_FR).includes(d.category_name), d.category_name);
      });
      const page = (await app.inject('/draws?lang=fr')).body;
      assert.match(page, /Professions de l’éducation \(version 1\)|Catégorie de l’expérience canadienne/);
    });

    it('gives forecasts for the current categories', async () => {
      const predict = (await app.inject('/api/predict/')).json();
      assert.ok(predict.total_categories >= 2, `${predict.total_categories} predicted categories`);
      for (const entry of predict.data)
        assert.ok(entry.predictions.every((p: { predicted_date: string }) => p.predicted_date > '2025-12-17'));
      const draws = (await app.inject('/api/draws/')).json();
      assert.equal(draws.count, 250);
      assert.ok(draws.data.every((d: { url: string | null }) => d.url === null));
    });

    it('`generate draws` writes a file that is labelled as generated even when imported by hand', async () => {
      const out = path.join(dir, 'generated');
      const files = await drawsService.generate({ out, size: 120, seed: 5 });
      assert.deepEqual(
        files.map((f) => path.basename(f)),
        ['ee_rounds_123_en.generated.json', 'ee_rounds_123_fr.generated.json'],
      );
      const ctx = testContext(drawsService, t.db, { dataDir: dir, env: { ...process.env, [AS_OF_VARIABLE]: '2025-12-17' } });
      const [report, french] = await drawsService.importers.rounds.run(ctx, out, {});
      assert.equal(report.is_demo, true);
      assert.equal(report.rows_read, 120);
      assert.deepEqual([french?.importer, french?.rows_read, french?.updated], ['rounds_fr', 120, 120], 'the French twin beside it too');
      // Generated rounds replacing generated rounds: removed as demo rows, not deleted data (the guard's shrink limit does not apply).
      assert.deepEqual([report.demo_rows_removed, report.deleted, report.inserted, report.stored_before], [250, 0, 120, 0]);
      const stored = await t.db.kysely.withTables<DrawsTables>().selectFrom('draws_draws').select('round_number').execute();
      assert.equal(stored.length, 120, 'the feed is the whole history: the 250 earlier rounds are replaced');
      // generate writes rounds up to today (it has no as-of date); the API shows those up to the as-of date.
      const shown = (await app.inject('/api/draws/')).json<{ count: number; data: { date: string }[] }>();
      assert.ok(shown.count <= 120 && shown.data.every((d) => d.date <= '2025-12-17'));
    });

    it('the real feed replaces the demo rounds in one import: demo rows removed (not deleted data), nothing generated left', async (c) => {
      const gate = needsSharedData('draws', SNAPSHOT_NAME);
      if (gate.skip) return c.skip(gate.skip);
      const ctx = testContext(drawsService, t.db, { dataDir: dir, env: { ...process.env, [AS_OF_VARIABLE]: '2025-12-17' } });
      const [report] = await drawsService.importers.rounds.run(ctx, sharedData('draws', SNAPSHOT_NAME), {});
      assert.deepEqual([report.is_demo, report.demo_rows_removed, report.deleted, report.inserted], [false, 120, 0, 389]);
      const draws = (await app.inject('/api/draws/')).json<{ count: number; data_source: { kind: string; source: string } }>();
      assert.equal(draws.count, 389);
      assert.deepEqual([draws.data_source.kind, draws.data_source.source], ['ircc', SNAPSHOT_NAME]);
    });
  },
  { migrations: drawsService.migrations },
);
