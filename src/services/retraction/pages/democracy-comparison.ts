// The research outputs of `/democracy` beyond one fit's summary: the paired comparison of the kept fits (as
// GET /api/democracy/model-comparison/ serves it, with each fit's log-lik CSV), the parameterisation the served fit
// used and why, both k-fold figures with their definitions, and the predictive-check statistics with the Pearson
// dispersion. Every number is the API body's, built by the same functions.
import { html } from '../../../core/pages/index.ts';
import { recordTable } from '../../../core/pages/table.ts';
import type { SafeHtml } from '../../../core/pages/index.ts';
import type { compareStoredFits } from '../democracy-comparison.ts';
import type { diagnosticsBody, predictiveBody } from '../democracy-model.ts';
import { formatCount, formatNumber } from './shared.ts';
import type { Words } from './shared.ts';

type Comparison = Awaited<ReturnType<typeof compareStoredFits>>;
type Diagnostics = ReturnType<typeof diagnosticsBody>;
type Predictive = ReturnType<typeof predictiveBody>;

/** A value with its standard error ("—" without a value). */
export function plusMinus(value: number | null, se: number | null, { t }: Words, digits = 1): string {
  if (value === null) return t('democracy.none');
  return se === null
    ? formatNumber(value, digits)
    : t('democracy.plusMinus', { value: formatNumber(value, digits), se: formatNumber(se, digits) });
}

/** An interval's ends in words ("—" without one). */
export function rangeText(interval: { lower: number; upper: number } | null | undefined, { t }: Words): string {
  return interval
    ? t('democracy.range', { lower: formatNumber(interval.lower), upper: formatNumber(interval.upper) })
    : t('democracy.none');
}

const effectsForm = (country: string | null, year: string | null, { t }: Words) =>
  country === null && year === null
    ? t('democracy.none')
    : t('democracy.comparison.effects', { country: country ?? t('democracy.none'), year: year ?? t('democracy.none') });

/** Why there is nothing to compare yet, and how to fit a second model. */
function noFitsNote({ t }: Words): SafeHtml {
  return html`<p class="note">
    ${t('democracy.comparison.noneStart')} <code>${t('democracy.fitCommand')}</code> ${t('democracy.comparison.noneMiddle')}
    (<code>${t('democracy.comparison.labelOption')}</code>); ${t('democracy.comparison.noneEnd')}
    <code>${t('democracy.comparison.poissonCommand')}</code>, ${t('democracy.comparison.noneTail')}
  </p>`;
}

/** "Model comparison": the loo_compare table of the kept fits of the current panel, and its k-fold table. */
export function comparisonSection(c: Comparison, w: Words): SafeHtml {
  const { t } = w;
  const none = t('democracy.none');
  const heading = html`<h2 id="model-comparison">${t('democracy.comparison.heading')}</h2>`;
  const excluded =
    c.excluded.length > 0
      ? html`<p class="muted">
          ${t('democracy.comparison.excluded')}
          ${c.excluded.map((e, i) => html`${i > 0 ? '; ' : ''}<code>${e.label}</code> (${e.reason})`)}.
        </p>`
      : '';
  if (c.models.length === 0) return html`${heading} ${noFitsNote(w)} ${excluded}`;
  return html`${heading}
    <p class="muted">${c.method}</p>
    ${recordTable({
      caption: t('democracy.comparison.caption', {
        observations: c.observations === null ? 'none' : formatCount(c.observations),
      }),
      columns: [
        t('democracy.comparison.col.fit'),
        t('democracy.comparison.col.family'),
        t('democracy.comparison.col.effects'),
        t('democracy.comparison.col.elpdDiff'),
        t('democracy.comparison.col.elpdLoo'),
        t('democracy.comparison.col.pLoo'),
        t('democracy.comparison.col.looic'),
        t('democracy.comparison.col.pareto'),
        t('democracy.comparison.col.divergences'),
        t('democracy.comparison.col.logLik'),
      ],
      rows: c.models,
      cells: (m) => [
        m.label,
        m.family,
        effectsForm(m.country_effects, m.year_effects, w),
        plusMinus(m.elpd_diff, m.se_diff, w),
        plusMinus(m.elpd_loo, m.elpd_loo_se, w),
        formatNumber(m.p_loo, 1),
        formatNumber(m.looic, 1),
        m.pareto_k_above_0_7 === null ? none : formatCount(m.pareto_k_above_0_7),
        m.divergences === null ? none : formatCount(m.divergences),
        html`<a href="${m.log_lik}">${t('democracy.comparison.csv')}</a>`,
      ],
    })}
    ${
      c.models.length < 2
        ? html`<p class="muted">
            ${t('democracy.comparison.onlyOne')} (<code>${t('democracy.comparison.labelOption')}</code>)
            ${t('democracy.comparison.onlyOneEnd')}
          </p>`
        : ''
    }
    ${
      c.kfold
        ? html`<p class="muted">${c.kfold.method}</p>
            ${recordTable({
              caption: t('democracy.comparison.kfoldCaption', { folds: String(c.kfold.folds) }),
              columns: [t('democracy.comparison.col.fit'), t('democracy.comparison.col.elpdDiff'), t('democracy.comparison.col.elpdKfold')],
              rows: c.kfold.models,
              cells: (m) => [
                m.label,
                plusMinus(m.elpd_diff, m.se_diff, w),
                plusMinus(m.elpd_kfold_pointwise, m.elpd_kfold_pointwise_se, w),
              ],
            })}
            ${
              c.kfold.without_kfold.length > 0
                ? html`<p class="muted">${t('democracy.comparison.withoutKfold', { labels: c.kfold.without_kfold.join(', ') })}</p>`
                : ''
            }`
        : html`<p class="muted">${t('democracy.comparison.noKfold')} (<code>${t('democracy.kfold.command')}</code>).</p>`
    }
    ${excluded}
    <p class="muted"><a href="/api/democracy/model-comparison/">${t('democracy.comparison.json')}</a>.</p>`;
}

/** The parameterisation the fit used and why; the attempts when it switched. */
export function parameterisationSentence(p: Diagnostics['parameterisation'], { t }: Words): SafeHtml {
  if (!p) return html`<p class="muted">${t('democracy.parameterisation.none')}</p>`;
  return html`<p id="parameterisation">
    <strong>${t('democracy.parameterisation.label')}</strong>
    ${t('democracy.parameterisation.text', { country: p.country_effects, year: p.year_effects, switched: p.switched ? 'yes' : 'no' })}
    ${p.reason.replace(/\.?$/, '.')}${
      p.switched || p.attempts.length > 1
        ? html` ${t('democracy.parameterisation.attempts')}
          ${p.attempts.map(
            (a, i) =>
              html`${i > 0 ? '; ' : ''}${t('democracy.parameterisation.attempt', {
                country: a.country_effects,
                year: a.year_effects,
                n: a.divergences,
              })}`,
          )}.`
        : ''
    }
  </p>`;
}

/** Both k-fold figures of the served fit, each with its definition. */
export function kfoldFigures(k: NonNullable<Diagnostics['kfold']>, w: Words): SafeHtml {
  const { t } = w;
  return html`<dt>${t('democracy.kfold.joint', { folds: String(k.folds) })}</dt>
    <dd>
      ${plusMinus(k.elpd_kfold, k.elpd_kfold_se, w)}, ${t('democracy.kfold.p', { value: formatNumber(k.p_kfold, 1) })}
      <p class="muted">${k.definitions.elpd_kfold}</p>
    </dd>
    <dt>${t('democracy.kfold.pointwise', { folds: String(k.folds) })}</dt>
    <dd>
      ${plusMinus(k.elpd_kfold_pointwise, k.elpd_kfold_pointwise_se, w)}
      <p class="muted">${k.definitions.elpd_kfold_pointwise}</p>
    </dd>`;
}

/** The predictive checks' global statistics (share of zeros, mean, sd, max, Pearson dispersion) with p-values and flags. */
export function predictiveTable(ppc: Predictive, w: Words): SafeHtml {
  const { t } = w;
  return recordTable({
    caption: t('democracy.ppcTable.caption', { n: formatCount(ppc.replicates) }),
    columns: [
      t('democracy.ppcTable.col.statistic'),
      t('democracy.ppcTable.col.observed'),
      t('democracy.ppcTable.col.replicatedMean'),
      t('democracy.ppcTable.col.range'),
      t('democracy.ppcTable.col.p'),
      t('democracy.ppcTable.col.midP'),
      t('democracy.ppcTable.col.flag'),
    ],
    rows: ppc.statistics,
    cells: (s) => [
      html`${s.name === 'pearson_dispersion' ? t('democracy.ppcTable.dispersion') : s.name}<br /><span class="muted"
          >${s.description}</span
        >`,
      formatNumber(s.observed),
      formatNumber(s.replicated_mean),
      rangeText(s.replicated_interval_95, w),
      formatNumber(s.p_value),
      formatNumber(s.p_value_mid),
      s.extreme
        ? html`<span class="badge bad">${t('democracy.badge.extreme')}</span>`
        : html`<span class="badge good">${t('democracy.badge.within')}</span>`,
    ],
  });
}
