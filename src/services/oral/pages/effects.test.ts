// Reading a summary-of-findings row's effect for the forest plots: measures as the sources spell them, and
// every way a row cannot be plotted.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readEffect, readMeasure } from './effects.ts';

describe('readMeasure', () => {
  it('knows ratios and differences as the sources write them', () => {
    const cases: Array<[string, string, string]> = [
      ['RR', 'ratio', 'RR'],
      ['RR ', 'ratio', 'RR'],
      ['rr', 'ratio', 'RR'],
      ['OR ', 'ratio', 'OR'],
      ['Peto OR', 'ratio', 'Peto OR'],
      ['BB OR', 'ratio', 'BB OR'],
      ['HR', 'ratio', 'HR'],
      ['Rate ratio', 'ratio', 'Rate ratio'],
      ['Relative incidence rate', 'ratio', 'Incidence rate ratio'],
      ['DOR', 'ratio', 'DOR'],
      ['MD', 'difference', 'MD'],
      ['SMD', 'difference', 'SMD'],
      ['RD', 'difference', 'RD'],
      ['PF', 'difference', 'PF'],
      ['Mean difference', 'difference', 'MD'],
    ];
    for (const [text, scale, label] of cases)
      assert.deepEqual([readMeasure(text)].map((m) => ('reason' in m ? m.reason : [m.scale, m.label]))[0], [scale, label], text);
  });

  it('does not plot accuracy, missing or unknown measures, and says why', () => {
    assert.match((readMeasure('Sensitivity') as { reason: string }).reason, /diagnostic accuracy \(Sensitivity\) is a proportion/);
    assert.match((readMeasure('specificity ') as { reason: string }).reason, /diagnostic accuracy/);
    for (const text of [null, '', 'NA', 'NR', 'Not measured', 'None reported', 'Not reported in any studies'])
      assert.match((readMeasure(text) as { reason: string }).reason, /without its measure/, String(text));
    assert.match((readMeasure('SD') as { reason: string }).reason, /"SD" is not one this page knows how to plot/);
  });
});

describe('readEffect', () => {
  it('plots an estimate inside its interval; ratios only when positive', () => {
    assert.deepEqual(readEffect({ measure: 'RR', effect: 1.2, ci_lower: 1.04, ci_upper: 1.37 }), {
      plotted: true,
      kind: { scale: 'ratio', label: 'RR', name: 'risk ratio' },
      estimate: 1.2,
      lower: 1.04,
      upper: 1.37,
    });
    assert.equal(readEffect({ measure: 'MD', effect: -0.7, ci_lower: -1.66, ci_upper: 0.25 }).plotted, true);
    assert.equal(readEffect({ measure: 'MD', effect: 0, ci_lower: 0, ci_upper: 0 }).plotted, true);
  });

  it('lists a row with the reason it cannot be read', () => {
    const reason = (row: Parameters<typeof readEffect>[0]) => {
      const r = readEffect(row);
      return r.plotted ? 'plotted' : r.reason;
    };
    assert.equal(reason({ measure: 'RR', effect: null, ci_lower: 1, ci_upper: 2 }), 'no effect estimate given');
    assert.equal(reason({ measure: 'RR', effect: Number.NaN, ci_lower: 1, ci_upper: 2 }), 'no effect estimate given');
    assert.equal(reason({ measure: 'RR', effect: 1.5, ci_lower: null, ci_upper: 2 }), 'no 95% confidence interval given');
    assert.equal(
      reason({ measure: 'MD', effect: 2.24, ci_lower: 3.55, ci_upper: 0.93 }),
      "the interval's lower bound (3.55) is above its upper bound (0.93)",
    );
    assert.equal(
      reason({ measure: 'MD', effect: 0.71, ci_lower: -1.35, ci_upper: -0.07 }),
      'the estimate (0.71) lies outside its own interval (-1.35 to -0.07)',
    );
    assert.equal(reason({ measure: 'OR', effect: 0.5, ci_lower: 0, ci_upper: 3 }), 'a ratio must be above 0 (the interval starts at 0)');
    assert.match(reason({ measure: null, effect: 0.5, ci_lower: 0.1, ci_upper: 3 }), /without its measure/);
  });
});
