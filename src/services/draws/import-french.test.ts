// The French feed (ee_rounds_123_fr.json) imported beside the English snapshot, on SQLite and PostgreSQL: each
// stored round takes the French texts of the round of the same number; a round of one feed that the other lacks is a
// warning; a second import changes nothing, and the English feed's import keeps the French texts. No French file
// is published in ../shared/data: the fixture is the English snapshot's first rounds with their texts in French
// (IRCC's French feed has the English one's keys), one round left out and one round the English feed lacks.
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ServiceContext } from '../../core/service.ts';
import { describeWithSnapshot, drawsContext, importSnapshot } from '../../../test/support/draws/context.ts';
import { readFeed, tempFile } from '../../../test/support/draws/files.ts';
import { buildTestApp } from '../../../test/support/app.ts';
import { importFrenchRounds } from './import.ts';
import { drawsService } from './service.ts';
import type { DrawsTables } from './tables.ts';

const FRENCH_NAMES: Record<string, string> = {
  'French language proficiency (Version 1)': 'Compétence linguistique en français (version 1)',
  'Canadian Experience Class': 'Catégorie de l’expérience canadienne',
  'Provincial Nominee Program': 'Programme des candidats des provinces',
};

describeWithSnapshot('draws import of the French feed', (t) => {
  let ctx: ServiceContext;
  const db = () => t.db.kysely.withTables<DrawsTables>();

  before(async () => {
    ctx = drawsContext(t.db);
    await importSnapshot(ctx);
  });

  it('gives the stored rounds their French texts by round number, warning of rounds one side lacks', async () => {
    const english = readFeed() as { rounds: Array<Record<string, string>> };
    const chosen = english.rounds.filter((r) => r.drawName in FRENCH_NAMES).slice(0, 6);
    assert.equal(chosen.length, 6);
    const [left, ...kept] = chosen; // (left out of the French feed)
    const rounds = [
      ...kept.map((r) => ({
        ...r,
        drawName: FRENCH_NAMES[r.drawName],
        drawDateFull: '17 décembre 2025',
        drawDateTime: '17 décembre 2025 à 12:26:48 UTC',
        drawText2: 'Programme des travailleurs qualifiés (fédéral)',
        drawSize: r.drawSize.replace(',', '\u00a0'),
      })),
      { ...kept[0], drawNumber: '9999', drawName: 'Tour inconnu' },
    ];
    const file = tempFile('ee_rounds_123_fr.json', JSON.stringify({ classes: 'wb-tables', rounds }));
    const report = await importFrenchRounds(ctx, file);
    assert.equal(report.rows_read, kept.length + 1);
    assert.equal(report.updated, kept.length);
    // one warning a round one side lacks: the French feed's round first, then the 389 - 5 stored ones
    assert.equal(report.warnings, 1 + 389 - kept.length);
    assert.match(report.warning_samples[0], /round 9999: in the French feed only/);
    assert.ok(report.warning_samples.slice(1).every((w) => / not in the French feed; its French texts are kept$/.test(w)));
    const stored = await db().selectFrom('draws_draws').select(['round_number', 'draw_name', 'draw_name_fr', 'programs_fr']).execute();
    const byNumber = new Map(stored.map((r) => [r.round_number, r]));
    for (const r of kept) {
      const row = byNumber.get(r.drawNumber)!;
      assert.equal(row.draw_name, r.drawName, 'the English name stays');
      assert.equal(row.draw_name_fr, FRENCH_NAMES[r.drawName]);
      assert.equal(row.programs_fr, 'Programme des travailleurs qualifiés (fédéral)');
    }
    assert.equal(byNumber.get(left.drawNumber)!.draw_name_fr, null);
    assert.equal(byNumber.has('9999'), false, 'a round of the French feed only is not stored');

    const again = await importFrenchRounds(ctx, file);
    assert.equal(again.updated, 0);
    assert.equal(again.unchanged, stored.length);
    // the English feed's import leaves the French texts as they are
    await importSnapshot(ctx);
    const after = await db()
      .selectFrom('draws_draws')
      .select('draw_name_fr')
      .where('round_number', '=', kept[0].drawNumber)
      .executeTakeFirstOrThrow();
    assert.equal(after.draw_name_fr, FRENCH_NAMES[kept[0].drawName]);

    // served by language: ?lang=, then Accept-Language; both side by side; a bad value is a 400
    const app = await buildTestApp(drawsService, ctx);
    try {
      const get = async (url: string, headers: Record<string, string> = {}) => {
        const res = await app.inject({ url, headers });
        return { status: res.statusCode, body: res.json() };
      };
      const round = (body: { data: Array<Record<string, unknown>> }, number = kept[0].drawNumber) =>
        body.data.find((d) => d.round_number === number)!;
      const en = round((await get('/api/draws/')).body);
      assert.equal(en.draw_name, kept[0].drawName);
      assert.equal('draw_name_fr' in en, false);
      const fr = round((await get('/api/draws/?lang=fr')).body);
      assert.equal(fr.draw_name, FRENCH_NAMES[kept[0].drawName]);
      assert.notEqual(fr.category_name, en.category_name);
      assert.deepEqual(round((await get('/api/draws/', { 'accept-language': 'fr-CA' })).body), fr);
      assert.deepEqual(round((await get('/api/draws/')).body), en, 'the answer chosen by the header was not cached for the URL');
      const both = round((await get('/api/draws/?lang=both')).body);
      assert.equal(both.draw_name, kept[0].drawName);
      assert.equal(both.draw_name_fr, FRENCH_NAMES[kept[0].drawName]);
      assert.equal(both.category_name_fr, fr.category_name);
      const untranslated = round((await get('/api/draws/?lang=fr')).body, left.drawNumber);
      assert.equal(untranslated.draw_name, left.drawName, 'English where the French feed has no copy');
      const bad = await get('/api/draws/?lang=de');
      assert.equal(bad.status, 400);
      assert.match(bad.body.error, /lang/);
    } finally {
      await app.close();
    }
  });
});
