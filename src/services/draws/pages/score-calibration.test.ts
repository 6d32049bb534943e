// The check behind the "my score" page's claim: scoring a law recovers its own calibration on simulated cut-offs,
// and on the real IRCC draws the Laplace law the page uses states chances that come true about as often as stated,
// and better than a normal law with the same 95% interval.
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { needsSharedData, sharedData } from '../../../../test/support/databases.ts';
import { Random } from '../../../core/random.ts';
import { SNAPSHOT_AS_OF, SNAPSHOT_NAME } from '../feed/reference-snapshot.ts';
import { laplaceScaleFor95 } from './clearance.ts';
import { CALIBRATION_SINCE, LAWS, panelFromFeed, pastForecasts, scoreLaw } from './score-calibration.ts';
import type { PastForecast } from './score-calibration.ts';

test('scoring recovers the calibration of cut-offs drawn from the law itself, and penalises the wrong law', () => {
  const random = new Random(7);
  const past: PastForecast[] = Array.from({ length: 20_000 }, () => {
    const margin = 20 + 60 * random.next();
    const point = 400 + 100 * random.next();
    const e = random.exponential(1 / laplaceScaleFor95(margin)) * (random.bool() ? 1 : -1);
    return { category: 'simulated', young: false, h: 1, forecast: { point, margin }, actual: Math.round(point + e) };
  });
  const laplace = scoreLaw(LAWS.laplace, past);
  const normal = scoreLaw(LAWS.normal, past);
  assert.ok(Math.abs(laplace.inside50 - 0.5) < 0.02, `inside 50%: ${laplace.inside50}`);
  assert.ok(Math.abs(laplace.inside80 - 0.8) < 0.02, `inside 80%: ${laplace.inside80}`);
  assert.ok(Math.abs(laplace.inside95 - 0.95) < 0.01, `inside 95%: ${laplace.inside95}`);
  for (const bin of laplace.reliability) if (bin.n > 1000) assert.ok(Math.abs(bin.stated - bin.happened) < 0.02, JSON.stringify(bin));
  assert.ok(normal.inside50 > 0.6, 'a normal law with the same 95% interval is too wide in the middle');
  assert.ok(laplace.brier < normal.brier);
});

const gate = needsSharedData('draws', SNAPSHOT_NAME);
describe('the Laplace law on the walk-forward of the real snapshot', { skip: gate.skip }, () => {
  it('states next-draw chances that come true about as often as stated, and beats a normal law', () => {
    if (gate.problem) throw new Error(`required in CI: ${gate.problem}`);
    const panel = panelFromFeed(fs.readFileSync(sharedData('draws', SNAPSHOT_NAME), 'utf8'), SNAPSHOT_AS_OF);
    const past = pastForecasts(panel, CALIBRATION_SINCE, 1).filter((p) => !p.young);
    assert.ok(past.length >= 100, `${past.length} next-draw forecasts`);
    const laplace = scoreLaw(LAWS.laplace, past);
    const normal = scoreLaw(LAWS.normal, past);
    assert.ok(laplace.inside50 > 0.4 && laplace.inside50 < 0.65, `inside the central 50%: ${laplace.inside50}`);
    assert.ok(laplace.inside80 > 0.72 && laplace.inside80 < 0.9, `inside the central 80%: ${laplace.inside80}`);
    assert.ok(laplace.inside95 >= 0.9, `inside the 95% interval: ${laplace.inside95}`);
    for (const bin of laplace.reliability) {
      if (bin.n >= 100)
        assert.ok(Math.abs(bin.stated - bin.happened) < 0.1, `stated ${bin.stated}, happened ${bin.happened} (n = ${bin.n})`);
    }
    assert.ok(Math.abs(normal.inside50 - 0.5) > Math.abs(laplace.inside50 - 0.5), 'the normal law is further from 50% in the middle');
    assert.ok(laplace.brier < normal.brier, `Brier ${laplace.brier} (Laplace) against ${normal.brier} (normal)`);
  });
});
