// The automatic parameterisation: on strongly overdispersed data (φ = 0.7) with small year effects the centred
// year effects diverge; the fit refits them non-centred, reports the draws of the refit and says why.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveConfig } from './config.ts';
import { fitDemocracyModel } from './fit.ts';
import { fallbackParameterisations } from './parameterisation.ts';
import { simulatePanel } from './simulate.ts';

const { rows } = simulatePanel({
  countries: 15,
  firstYear: 2005,
  years: 12,
  predictors: ['democracy_index'],
  truth: { alpha: -6.5, beta: { democracy_index: -0.3 }, sigmaCountry: 0.6, sigmaYear: 0.05, phi: 0.7 },
  seed: 'div-15-12',
  publications: { logMedian: Math.log(3000), logSdBetweenCountries: 1, growthPerYear: 0.05, logSdWithinCountry: 0.1 },
});
const settings = {
  sampler: { warmup: 300, draws: 300, chains: 2, parallelism: 'single' as const, seed: 'div' },
  posteriorPredictive: { replicates: 0 },
  loo: false,
};

test('fallbacks: year effects non-centred first, then the country effects too; none when already non-centred', () => {
  assert.deepEqual(
    fallbackParameterisations(resolveConfig()).map((p) => [p.yearEffects, p.countryEffects]),
    [
      ['non-centred', 'centred'],
      ['non-centred', 'non-centred'],
    ],
  );
  const nonCentred = resolveConfig({ parameterisation: { countryEffects: 'non-centred', yearEffects: 'non-centred' } });
  assert.deepEqual(fallbackParameterisations(nonCentred), []);
  assert.throws(() => resolveConfig({ nonCentredOnDivergence: 'yes' as unknown as boolean }), /nonCentredOnDivergence must be a boolean/);
});

test('strong overdispersion: the centred year effects diverge, the non-centred refit is reported and the switch explained', async () => {
  const fixed = await fitDemocracyModel(rows, { ...settings, nonCentredOnDivergence: false });
  const auto = await fitDemocracyModel(rows, settings);
  const kept = fixed.diagnostics.parameterisation!;
  const chosen = auto.diagnostics.parameterisation!;
  console.log(`centred: ${kept.attempts[0].divergences} divergences; automatic: ${JSON.stringify(chosen.attempts)}`);

  // With the switch off the centred fit is reported, divergences and all, and the reason says so.
  assert.equal(kept.switched, false);
  assert.equal(kept.attempts.length, 1);
  assert.ok(fixed.diagnostics.divergences! > 0, 'the centred fit diverges on these data');
  assert.equal(kept.attempts[0].divergences, fixed.diagnostics.divergences);
  assert.match(kept.reason, /automatic switch is off/);

  // With it on: the same centred attempt first, then a non-centred refit without divergences, which is reported.
  assert.deepEqual(chosen.attempts[0], { countryEffects: 'centred', yearEffects: 'centred', divergences: fixed.diagnostics.divergences });
  assert.equal(chosen.switched, true);
  assert.equal(chosen.yearEffects, 'non-centred');
  assert.equal(auto.diagnostics.divergences, 0);
  assert.equal(chosen.attempts.at(-1)!.divergences, 0);
  assert.match(chosen.reason, /divergent transition/);
  assert.match(auto.methodology.model.parameterisation!, /year effects non-centred/);
  assert.match(fixed.methodology.model.parameterisation!, /year effects centred/);
  // The same posterior either way: the democracy coefficient agrees within a few Monte Carlo standard errors.
  const a = auto.summaries[0];
  const b = fixed.summaries[0];
  assert.ok(Math.abs(a.mean - b.mean) < 5 * Math.hypot(a.mcse!.mean!, b.mcse!.mean!) + 0.02, `${a.mean} vs ${b.mean}`);
});
