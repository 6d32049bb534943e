// A review's effects as its page draws them: the forest plots (one for every ratio on a log axis, one per difference
// measure) with the rows that cannot be plotted, and the summary-of-findings table.
import type { Static } from 'typebox';
import { forestPlot, html } from '../../../core/pages/index.ts';
import type { ChartSpec, ForestRow, SafeHtml } from '../../../core/pages/index.ts';
import type { ReviewDetail } from '../schemas/index.ts';
import { readEffect } from './effects.ts';
import type { MeasureKind } from './effects.ts';
import { certaintyBadge, certaintyColours, certaintyOf } from './shared.ts';
import type { Words } from './shared.ts';

type ReviewDetailItem = Static<typeof ReviewDetail>;
type Outcome = ReviewDetailItem['outcomes'][number];

interface NumberedOutcome {
  n: number;
  outcome: Outcome;
}

// Axis labels longer than this are cut here: the chart's own cut measures text with the server's font metrics,
// and a browser's wider font then overflowed the left edge.
const LABEL_CHARACTERS = 26;

/** "3 ⊕⊕◯◯ RR: Caries increment": the table row, the GRADE symbols (so colour is not alone), the measure of a ratio. */
function axisLabel(n: number, symbols: string, measure: string | null, outcome: string): string {
  const text = `${n} ${symbols || '—'} ${measure ? `${measure}: ` : ''}${outcome}`;
  const chars = [...text];
  return chars.length <= LABEL_CHARACTERS
    ? text
    : `${chars
        .slice(0, LABEL_CHARACTERS - 1)
        .join('')
        .trimEnd()}…`;
}

/** The review's forest plots: one for every ratio (log axis), one per difference measure; and the rows not plotted. */
export function forestPlots(
  review: ReviewDetailItem,
  w: Words,
): {
  plots: ChartSpec[];
  plotted: Map<number, string>;
  notPlotted: Array<NumberedOutcome & { reason: string }>;
} {
  const { t } = w;
  const groups = new Map<string, { kind: MeasureKind; rows: ForestRow[] }>();
  const plotted = new Map<number, string>();
  const notPlotted: Array<NumberedOutcome & { reason: string }> = [];
  review.outcomes.forEach((outcome, i) => {
    const n = i + 1;
    const effect = readEffect(outcome, t);
    if (!effect.plotted) {
      notPlotted.push({ n, outcome, reason: effect.reason });
      return;
    }
    const key = effect.kind.scale === 'ratio' ? 'ratio' : effect.kind.label;
    const group = groups.get(key) ?? { kind: effect.kind, rows: [] };
    groups.set(key, group);
    const certainty = certaintyOf(outcome.certainty, w);
    group.rows.push({
      label: axisLabel(n, certainty.symbols, key === 'ratio' ? effect.kind.label : null, outcome.outcome ?? t('review.outcomeNotNamed')),
      estimate: effect.estimate,
      lower: effect.lower,
      upper: effect.upper,
      group: certainty.label,
    });
    plotted.set(n, key === 'ratio' ? t('review.ratios') : effect.kind.label);
  });
  const groupColours = certaintyColours(w);
  const plots = [...groups].map(([key, { kind, rows }]) =>
    key === 'ratio'
      ? forestPlot({
          id: 'forest-ratios',
          title: t('forest.ratios.title', { n: rows.length }),
          description: t('forest.ratios.description'),
          rows,
          logScale: true,
          valueName: t('forest.ratios.value'),
          groupColours,
        })
      : forestPlot({
          id: `forest-${key.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
          title: t('forest.difference.title', { label: kind.label, name: kind.name, n: rows.length }),
          description: t('forest.difference.description', { name: kind.name, md: kind.label === 'MD' ? 'yes' : 'no' }),
          rows,
          valueName: kind.name,
          groupColours,
        }),
  );
  return { plots, plotted, notPlotted };
}

function effectText(o: Outcome, { t }: Words): string {
  if (o.effect === null) return t('common.none');
  const measure = o.measure ? `${o.measure.trim()} ` : '';
  return o.ci_lower !== null && o.ci_upper !== null
    ? t('review.interval', { measure, effect: String(o.effect), lower: String(o.ci_lower), upper: String(o.ci_upper) })
    : t('review.noInterval', { measure, effect: String(o.effect) });
}

const DOWNGRADES = ['risk_of_bias', 'imprecision', 'inconsistency', 'indirectness', 'publication_bias', 'incoherence'] as const;

/** The summary-of-findings table as the review reports it, with where each row is plotted. */
export function summaryOfFindings(review: ReviewDetailItem, plotted: Map<number, string>, w: Words): SafeHtml {
  const { t } = w;
  const none = t('common.none');
  return html`<div class="table-scroll">
    <table class="data sof">
      <caption>
        ${t('review.sofCaption', { id: review.review_id, version: review.version })}
      </caption>
      <thead>
        <tr>
          <th scope="col" class="num">${t('review.col.number')}</th>
          <th scope="col">${t('review.col.outcome')}</th>
          <th scope="col">${t('review.col.comparison')}</th>
          <th scope="col">${t('review.col.effect')}</th>
          <th scope="col" class="num">${t('review.col.participants')}</th>
          <th scope="col">${t('review.col.certainty')}</th>
          <th scope="col">${t('review.col.downgrades')}</th>
          <th scope="col">${t('review.col.plot')}</th>
        </tr>
      </thead>
      <tbody>
        ${review.outcomes.map((o, i) => {
          const downgrades = DOWNGRADES.filter((k) => o.downgrades[k] === true).map((k) => t(`downgrade.${k}`));
          return html`<tr>
            <td class="num">${i + 1}</td>
            <th scope="row">${o.outcome ?? none}</th>
            <td>
              ${t('review.versus', { population: o.population ?? none, intervention: o.intervention ?? none, comparison: o.comparison ?? none })}
            </td>
            <td>${effectText(o, w)}${o.significant === true ? html` <span class="muted">${t('review.significant')}</span>` : ''}</td>
            <td class="num">
              ${o.participants === null ? none : w.loc.number(o.participants)}${o.studies === null ? '' : t('review.studies', { n: o.studies })}
            </td>
            <td>
              ${certaintyBadge(o.certainty, w, (label) => t('review.grade', { label }))}${
                o.reasons
                  ? html`<details>
                      <summary>${t('review.why')}</summary>
                      ${o.reasons}
                    </details>`
                  : ''
              }
            </td>
            <td>${downgrades.length > 0 ? downgrades.join(', ') : none}</td>
            <td>${plotted.get(i + 1) ?? t('review.notPlottedCell')}</td>
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}
