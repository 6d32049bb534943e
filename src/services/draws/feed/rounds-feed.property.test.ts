// The live feed must always import. Properties over the real snapshot with its secondary fields
// perturbed (fast-check, fixed seed): re-spelt values (ordinal days, abbreviated months, no "at", odd spaces,
// zone words, other thousands separators) read exactly as the originals; arbitrary junk, empty, missing or
// non-text values never fail the parse and never lose a round: every round is kept with its primary fields,
// the junk is null with a warning naming the round and the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyPerturbation, perturbation } from '../../../../test/support/draws/perturb.ts';
import type { Feed } from '../../../../test/support/draws/perturb.ts';
import { loadSnapshot } from '../../../../test/support/draws/snapshot.ts';
import { categoriseRounds } from './categories.ts';
import { parseRoundsFeed } from './rounds-feed.ts';
import type { ParsedRound } from './rounds-feed.ts';

const primary = (r: ParsedRound) => [r.roundNumber, r.roundSortKey, r.date, r.drawName, r.invitations, r.crs];

test('perturbed secondary fields of the real snapshot: never a failure, never a lost round, re-spellings read as the originals', (t) => {
  const json = loadSnapshot(t) as Feed | null;
  if (json === null) return;
  const baseline = parseRoundsFeed(json);
  const baselineCategories = categoriseRounds(baseline.rounds).map((g) => [g.category.slug, g.rounds.length]);
  fc.assert(
    fc.property(fc.array(perturbation(json.rounds.length), { minLength: 1, maxLength: 60 }), (perturbations) => {
      const feed = structuredClone(json);
      for (const p of perturbations) applyPerturbation(feed, p);
      const parsed = parseRoundsFeed(feed);
      assert.equal(parsed.total, 389);
      assert.deepEqual(parsed.skipped, [], 'no round is skipped over a secondary field');
      assert.deepEqual(parsed.rounds.map(primary), baseline.rounds.map(primary), 'every round, with its primary fields');
      assert.deepEqual(
        categoriseRounds(parsed.rounds).map((g) => [g.category.slug, g.rounds.length]),
        baselineCategories,
      );
      const touched = new Set(perturbations.map((p) => `${p.round}:${p.field}`));
      // A re-spelt value reads exactly as the original did (the last change to a field is the one that counts).
      const last = new Map(perturbations.map((p) => [`${p.round}:${p.field}`, p]));
      for (const p of last.values()) {
        if (p.kind !== 'respell' || typeof json.rounds[p.round][p.field] !== 'string') continue;
        if ((json.rounds[p.round][p.field] as string).trim() === '') continue;
        const [before, after] = [baseline.rounds[p.round], parsed.rounds[p.round]];
        if (p.field === 'drawCutOff') assert.equal(after.tieBreakAt, before.tieBreakAt, JSON.stringify(feed.rounds[p.round][p.field]));
        if (p.field === 'drawDateTime') assert.equal(after.drawnAt, before.drawnAt, JSON.stringify(feed.rounds[p.round][p.field]));
        if (p.field === 'drawDistributionAsOn' && after.poolDistribution && before.poolDistribution)
          assert.equal(after.poolDistribution.asOn, before.poolDistribution.asOn, JSON.stringify(feed.rounds[p.round][p.field]));
      }
      // Every warning names a round and a field that was perturbed.
      for (const w of parsed.warnings) {
        const index = json.rounds.findIndex((r) => r.drawNumber === w.round);
        assert.ok(touched.has(`${index}:${w.field}`), w.message);
        assert.match(w.message, new RegExp(`^round ${w.round}: ${w.field}: `));
      }
    }),
    { seed: 20251217, numRuns: 150 },
  );
});

test('a round-trip through JSON text of a perturbed feed parses the same way', (t) => {
  const json = loadSnapshot(t) as Feed | null;
  if (json === null) return;
  fc.assert(
    fc.property(fc.array(perturbation(json.rounds.length), { minLength: 1, maxLength: 20 }), (perturbations) => {
      const feed = structuredClone(json);
      for (const p of perturbations) applyPerturbation(feed, p);
      assert.deepEqual(parseRoundsFeed(JSON.stringify(feed)), parseRoundsFeed(JSON.parse(JSON.stringify(feed))));
    }),
    { seed: 7, numRuns: 20 },
  );
});
