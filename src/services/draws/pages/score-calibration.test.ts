// The check behind the "my score" page's claim: scoring a law recovers its own calibration on simulated cut-offs, the
// fit recovers a known asymmetric law, the law served is the one the fit gives on the 2023–2024 walk-forward of the
// real IRCC draws, and on the draws of 2025 (not fitted) it states chances that come true about as often as stated.
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { needsSharedData, sharedData } from '../../../../test/support/databases.ts';
import { Random } from '../../../core/random.ts';
import { SNAPSHOT_AS_OF, SNAPSHOT_NAME } from '../feed/reference-snapshot.ts';
import { CUTOFF_LAW, lawScales, SYMMETRIC_LAW } from './clearance.ts';
import type { CutoffLaw } from './clearance.ts';
import {
  CALIBRATION_HORIZONS,
  CALIBRATION_SINCE,
  FIT_UNTIL,
  fitCutoffLaw,
  LAWS,
  panelFromFeed,
  pastForecasts,
  scoreLaw,
} from './score-calibration.ts';
import type { PastForecast } from './score-calibration.ts';

/** Cut-offs drawn from `law` around random forecasts. */
function simulate(law: CutoffLaw, n: number, seed: number): PastForecast[] {
  const random = new Random(seed);
  return Array.from({ length: n }, () => {
    const margin = 20 + 60 * random.next();
    const point = 400 + 100 * random.next();
    const scales = lawScales(margin, law);
    const e = random.next() < law.belowShare ? -random.exponential(1 / scales.lower) : random.exponential(1 / scales.upper);
    return { category: 'simulated', young: false, h: 1, forecast: { point, margin }, actual: point + e };
  });
}

test('scoring recovers the calibration of cut-offs drawn from the law itself, and penalises the wrong law', () => {
  const past = simulate(SYMMETRIC_LAW, 20_000, 7).map((p) => ({ ...p, actual: Math.round(p.actual) }));
  const laplace = scoreLaw(LAWS.symmetric, past);
  const normal = scoreLaw(LAWS.normal, past);
  assert.ok(Math.abs(laplace.inside50 - 0.5) < 0.02, `inside 50%: ${laplace.inside50}`);
  assert.ok(Math.abs(laplace.inside80 - 0.8) < 0.02, `inside 80%: ${laplace.inside80}`);
  assert.ok(Math.abs(laplace.inside95 - 0.95) < 0.01, `inside 95%: ${laplace.inside95}`);
  for (const bin of laplace.reliability) if (bin.n > 1000) assert.ok(Math.abs(bin.stated - bin.happened) < 0.02, JSON.stringify(bin));
  assert.ok(normal.inside50 > 0.6, 'a normal law with the same 95% interval is too wide in the middle');
  assert.ok(laplace.brier < normal.brier);
});

test('the fit recovers an asymmetric law from its draws', () => {
  const law: CutoffLaw = { belowShare: 0.45, lowerScale: 0.25, upperScale: 0.5 };
  const past = simulate(law, 20_000, 11);
  const fit = fitCutoffLaw(past);
  assert.equal(fit.n, 20_000);
  assert.ok(Math.abs(fit.belowShare - 0.45) < 0.015, `p ${fit.belowShare}`);
  assert.ok(Math.abs(fit.lowerScale - 0.25) < 0.01, `λ₋ ${fit.lowerScale}`);
  assert.ok(Math.abs(fit.upperScale - 0.5) < 0.015, `λ₊ ${fit.upperScale}`);
  assert.throws(() => fitCutoffLaw(past.filter((p) => p.actual > p.forecast.point)), /both sides/);
});

const gate = needsSharedData('draws', SNAPSHOT_NAME);
describe('the "my score" law on the walk-forward of the real snapshot', { skip: gate.skip }, () => {
  it('is the fit of 2023–2024, and states the chances of 2025 about as often as they came true', () => {
    if (gate.problem) throw new Error(`required in CI: ${gate.problem}`);
    const panel = panelFromFeed(fs.readFileSync(sharedData('draws', SNAPSHOT_NAME), 'utf8'), SNAPSHOT_AS_OF);
    const fitting = pastForecasts(panel, CALIBRATION_SINCE, CALIBRATION_HORIZONS, FIT_UNTIL);
    const fitted = fitCutoffLaw(fitting);
    assert.deepEqual(
      { belowShare: fitted.belowShare, lowerScale: fitted.lowerScale, upperScale: fitted.upperScale },
      CUTOFF_LAW,
      'CUTOFF_LAW is what score-calibration.ts fits',
    );
    const brier = (law: keyof typeof LAWS, past: readonly PastForecast[]) => scoreLaw(LAWS[law], past).brier;
    assert.ok(brier('served', fitting) < brier('symmetric', fitting), 'the fit beats the symmetric law where it was fitted');
    assert.ok(CUTOFF_LAW.upperScale > CUTOFF_LAW.lowerScale, 'cut-offs jump up further than they drop');
    const later = pastForecasts(panel, '2025-01-01', CALIBRATION_HORIZONS);
    assert.ok(later.length >= 100, `${later.length} forecasts of 2025`);
    const served = scoreLaw(LAWS.served, later);
    assert.ok(served.inside50 > 0.4 && served.inside50 < 0.65, `inside the central 50%: ${served.inside50}`);
    assert.ok(served.inside80 > 0.72 && served.inside80 < 0.9, `inside the central 80%: ${served.inside80}`);
    for (const bin of served.reliability) {
      if (bin.n >= 100)
        assert.ok(Math.abs(bin.stated - bin.happened) < 0.1, `stated ${bin.stated}, happened ${bin.happened} (n = ${bin.n})`);
    }
  });
});
