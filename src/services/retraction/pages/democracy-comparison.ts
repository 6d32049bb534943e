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

type Comparison = Awaited<ReturnType<typeof compareStoredFits>>;
type Diagnostics = ReturnType<typeof diagnosticsBody>;
type Predictive = ReturnType<typeof predictiveBody>;

const pm = (value: number | null, se: number | null, digits = 1) =>
  value === null ? '—' : se === null ? formatNumber(value, digits) : `${formatNumber(value, digits)} ± ${formatNumber(se, digits)}`;

const effectsForm = (country: string | null, year: string | null) =>
  country === null && year === null ? '—' : `country ${country ?? '—'}, year ${year ?? '—'}`;

/** "Model comparison": the loo_compare table of the kept fits of the current panel, and its k-fold table. */
export function comparisonSection(c: Comparison): SafeHtml {
  const heading = html`<h2 id="model-comparison">Model comparison</h2>`;
  const excluded =
    c.excluded.length > 0
      ? html`<p class="muted">
          Left out of the comparison: ${c.excluded.map((e, i) => html`${i > 0 ? '; ' : ''}<code>${e.label}</code> (${e.reason})`)}.
        </p>`
      : '';
  if (c.models.length === 0)
    return html`${heading}
      <p class="note">
        No kept fit of the current panel has PSIS-LOO to compare. Each <code>pdi fit retraction</code> keeps its fit under a label
        (<code>--label</code>); fit another, for example <code>pdi fit retraction --family poisson --label poisson</code>, to compare them.
      </p>
      ${excluded}`;
  return html`${heading}
    <p class="muted">${c.method}</p>
    ${recordTable({
      caption: html`Kept fits compared by PSIS-LOO on the same ${c.observations === null ? '' : formatCount(c.observations)} country-years,
      best first`,
      columns: [
        'Fit',
        'Family',
        'Effects',
        'elpd_diff ± se_diff',
        'elpd_loo ± se',
        'p_loo',
        'LOOIC',
        'Pareto k > 0.7',
        'Divergences',
        'Log-likelihood',
      ],
      rows: c.models,
      cells: (m) => [
        m.label,
        m.family,
        effectsForm(m.country_effects, m.year_effects),
        pm(m.elpd_diff, m.se_diff),
        pm(m.elpd_loo, m.elpd_loo_se),
        formatNumber(m.p_loo, 1),
        formatNumber(m.looic, 1),
        m.pareto_k_above_0_7 === null ? '—' : formatCount(m.pareto_k_above_0_7),
        m.divergences === null ? '—' : formatCount(m.divergences),
        html`<a href="${m.log_lik}">CSV</a>`,
      ],
    })}
    ${
      c.models.length < 2
        ? html`<p class="muted">Only one fit is kept: fit another (<code>--label</code>) to have a difference to judge.</p>`
        : ''
    }
    ${
      c.kfold
        ? html`<p class="muted">${c.kfold.method}</p>
            ${recordTable({
              caption: `Kept fits compared by ${c.kfold.folds}-fold cross-validation by country (pointwise, as brms::kfold), best first`,
              columns: ['Fit', 'elpd_diff ± se_diff', 'elpd_kfold_pointwise ± se'],
              rows: c.kfold.models,
              cells: (m) => [m.label, pm(m.elpd_diff, m.se_diff), pm(m.elpd_kfold_pointwise, m.elpd_kfold_pointwise_se)],
            })}
            ${
              c.kfold.without_kfold.length > 0
                ? html`<p class="muted">Without k-fold on these folds: ${c.kfold.without_kfold.join(', ')}.</p>`
                : ''
            }`
        : html`<p class="muted">No kept fit ran k-fold cross-validation (<code>pdi fit retraction --kfold 10</code>).</p>`
    }
    ${excluded}
    <p class="muted"><a href="/api/democracy/model-comparison/">The comparison as JSON</a>.</p>`;
}

/** The parameterisation the fit used and why; the attempts when it switched. */
export function parameterisationSentence(p: Diagnostics['parameterisation']): SafeHtml {
  if (!p)
    return html`<p class="muted">
      This fit does not record its parameterisation (an imported fit, or one stored before it was recorded).
    </p>`;
  return html`<p id="parameterisation">
    <strong>Parameterisation:</strong> country effects ${p.country_effects}, year effects
    ${p.year_effects}${p.switched ? ' (switched from the configured form)' : ''}:
    ${p.reason.replace(/\.?$/, '.')}${
      p.switched || p.attempts.length > 1
        ? html` Attempts:
          ${p.attempts.map(
            (a, i) =>
              html`${i > 0 ? '; ' : ''}country ${a.country_effects}, year ${a.year_effects}: ${formatCount(a.divergences)}
              divergence${a.divergences === 1 ? '' : 's'}`,
          )}.`
        : ''
    }
  </p>`;
}

/** Both k-fold figures of the served fit, each with its definition. */
export function kfoldFigures(k: NonNullable<Diagnostics['kfold']>): SafeHtml {
  return html`<dt>${k.folds}-fold cross-validation by country, joint (elpd_kfold)</dt>
    <dd>
      ${pm(k.elpd_kfold, k.elpd_kfold_se)}, p_kfold ${formatNumber(k.p_kfold, 1)}
      <p class="muted">${k.definitions.elpd_kfold}</p>
    </dd>
    <dt>${k.folds}-fold cross-validation by country, pointwise (elpd_kfold_pointwise)</dt>
    <dd>
      ${pm(k.elpd_kfold_pointwise, k.elpd_kfold_pointwise_se)}
      <p class="muted">${k.definitions.elpd_kfold_pointwise}</p>
    </dd>`;
}

/** The predictive checks' global statistics (share of zeros, mean, sd, max, Pearson dispersion) with p-values and flags. */
export function predictiveTable(ppc: Predictive): SafeHtml {
  return recordTable({
    caption: `Posterior predictive checks on ${formatCount(ppc.replicates)} replicated panels`,
    columns: ['Statistic', 'Observed', 'Replicated mean', 'Replicated 95% range', 'p-value', 'Mid p-value', 'Flag'],
    rows: ppc.statistics,
    cells: (s) => [
      html`${s.name === 'pearson_dispersion' ? 'Pearson dispersion (χ²/df)' : s.name}<br /><span class="muted">${s.description}</span>`,
      formatNumber(s.observed),
      formatNumber(s.replicated_mean),
      `${formatNumber(s.replicated_interval_95.lower)} to ${formatNumber(s.replicated_interval_95.upper)}`,
      formatNumber(s.p_value),
      formatNumber(s.p_value_mid),
      s.extreme ? html`<span class="badge bad">extreme</span>` : html`<span class="badge good">within 95%</span>`,
    ],
  });
}
