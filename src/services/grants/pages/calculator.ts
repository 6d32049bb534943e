// `/calculator`: the taxpayer's-share calculator of POST /api/calculate/ as a form. The form posts (an income
// does not belong in a URL, a log or a browser's history); the result shows the share by fiscal year as a
// chart, the projections, the grants that took most of it, and the formula with the constants it used and
// their sources. Same calculation as the API: calculateTaxpayerShare over the aggregates stored at import.
import type { Kysely } from 'kysely';
import { HttpError } from '../../../core/http/errors.ts';
import { barChart, chartFigure, escapeHtml, externalLink, html, trustedHtml } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import { numericColumn, recordTable } from '../../../core/pages/table.ts';
import type { ServiceApp } from '../../../core/service.ts';
import {
  CALCULATOR_FORMULAS_MARKDOWN,
  CALCULATOR_FORMULAS_MARKDOWN_FR,
  CalculatorInputError,
  DEFAULT_TAXPAYER_SINCE_YEAR,
  GST_RATE_PER_MILLE,
  calculateTaxpayerShare,
  calculationIn,
  publishedRevenue,
  taxYearTable,
} from '../calculator/index.ts';
import type { CalculatorAggregates, CalculatorResponse, FrenchTexts, Source } from '../calculator/index.ts';
import { readCalculator } from '../repository.ts';
import type { CalculatorData } from '../repository.ts';
import type { GrantsDatabase } from '../tables.ts';
import { bigDollars, count, dollars, errorNote, fiscalYearIn, recipientHref, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';

/** The form as typed (strings), kept to fill the form again. */
interface CalculatorForm {
  annual_income: string;
  gst_eligible_spending: string;
  input_mode: string;
  taxpayer_since_year: string;
}

/** The calculator's stored aggregates and the French texts of the agreements they name, read once per data version. */
export function calculatorAggregatesOf(
  db: Kysely<GrantsDatabase>,
  kit: PageKit,
): (w: Words) => Promise<{ aggregates: CalculatorAggregates; french: FrenchTexts }> {
  let memo: { version: string; value: CalculatorData } | null = null;
  return async (w) => {
    const version = await kit.dataVersion();
    if (memo === null || memo.version !== version) {
      const read = await readCalculator(db);
      if (!read) throw new HttpError(503, w.t('error.noData'));
      memo = { version, value: read };
    }
    const { stored, french } = memo.value;
    if (!stored.ok) throw new HttpError(503, w.t('calc.cannotRun', { reason: stored.error }));
    return { aggregates: stored.aggregates, french };
  };
}

/** Why the calculator refused an input, in the page's language. */
export function refusalOf(error: CalculatorInputError, w: Words): string {
  const parameter = error.parameter;
  const p = error.problem;
  switch (p.kind) {
    case 'tooLarge':
      return w.t('calc.refused.tooLarge', { parameter, max: w.loc.number(p.max) });
    case 'mode':
      return w.t('calc.refused.mode', { parameter, modes: p.modes });
    case 'yearRange':
      return w.t('calc.refused.yearRange', { parameter, min: String(p.min), max: String(p.max) });
    default:
      return w.t(`calc.refused.${p.kind}`, { parameter });
  }
}

/** An agreement the answer names (read with `both`), in the page's language: French where the source gives it. */
function nameOf(g: { title: string; recipient: string; title_fr?: string; recipient_fr?: string }, w: Words) {
  const french = w.loc.language === 'fr';
  return { title: (french && g.title_fr) || g.title, recipient: (french && g.recipient_fr) || g.recipient };
}

/** The form as posted (blank on a GET), and what the calculator made of it: its answer, or the message of an input it cannot use. */
function calculation(
  posted: Readonly<Record<string, string>> | undefined,
  aggregates: CalculatorAggregates,
  french: FrenchTexts,
  w: Words,
) {
  const form: CalculatorForm = {
    annual_income: posted?.annual_income ?? '',
    gst_eligible_spending: posted?.gst_eligible_spending ?? '',
    input_mode: posted?.input_mode ?? 'annual',
    taxpayer_since_year: posted?.taxpayer_since_year ?? '',
  };
  if (!posted) return { form };
  try {
    const answer = calculateTaxpayerShare(
      {
        annual_income: form.annual_income.trim(),
        gst_eligible_spending: form.gst_eligible_spending.trim(),
        input_mode: form.input_mode,
        taxpayer_since_year: form.taxpayer_since_year.trim(),
      },
      aggregates,
    );
    // both languages' names: links keep the English legal name the recipient's page is looked up by
    return { form, answer: calculationIn(answer, french, 'both') };
  } catch (error) {
    if (!(error instanceof CalculatorInputError)) throw error;
    return { form, problem: refusalOf(error, w) };
  }
}

export function calculatorPage(app: ServiceApp, db: Kysely<GrantsDatabase>, kit: PageKit): void {
  const aggregatesOf = calculatorAggregatesOf(db, kit);
  definePage(app, kit, {
    url: '/calculator',
    // The form posts: an income does not belong in a URL, a log or a browser's history.
    posted: true,
    async read({ posted, locale }) {
      const w = wordsOf(locale);
      const { aggregates, french } = await aggregatesOf(w);
      return { aggregates, ...calculation(posted, aggregates, french, w) };
    },
    render({ aggregates, form, answer, problem }, { locale }) {
      const w = wordsOf(locale);
      const { t } = w;
      const result = answer ? resultBody(answer, aggregates, w) : problem !== undefined ? errorNote(problem, locale) : '';
      return {
        title: answer ? t('calc.resultTitle') : t('calc.title'),
        description: t('calc.description'),
        section: '/calculator',
        status: problem === undefined ? undefined : 400,
        body: html`<h1>${t('calc.heading')}</h1>
          <p class="lead">${t('calc.lead')}</p>
          ${calculatorForm(form, aggregates, w)} ${result} ${formulaSection(w)}`,
      };
    },
  });
}

function calculatorForm(form: CalculatorForm, aggregates: CalculatorAggregates, w: Words): SafeHtml {
  const { t } = w;
  return html`<form class="filters" method="post" action="/calculator" aria-label="${t('calc.formLabel')}">
    ${amountFields(form.annual_income, form.gst_eligible_spending, w)}
    <fieldset class="inline">
      <legend>${t('calc.amountsAre')}</legend>
      <label class="inline"
        ><input type="radio" name="input_mode" value="annual" ${form.input_mode !== 'monthly' ? html`checked` : ''} />
        ${t('calc.perYear')}</label
      >
      <label class="inline"
        ><input type="radio" name="input_mode" value="monthly" ${form.input_mode === 'monthly' ? html`checked` : ''} />
        ${t('calc.perMonth')}</label
      >
    </fieldset>
    ${sinceYearField(form.taxpayer_since_year, aggregates.since_range, w)}
    <button type="submit">${t('calc.submit')}</button>
  </form>`;
}

/** The calculator's two amounts as typed: fields of its form and of an agreement's share form (grant.ts) alike. */
export function amountFields(income: string, spending: string, w: Words): SafeHtml {
  const { t } = w;
  return html`<label
      >${t('calc.income')}
      <input type="number" name="annual_income" value="${income}" min="0" step="0.01" required inputmode="decimal" />
    </label>
    <label
      >${t('calc.spending')}
      <input type="number" name="gst_eligible_spending" value="${spending}" min="0" step="0.01" inputmode="decimal" />
    </label>`;
}

/** The fiscal year the caller has paid taxes since, as chosen (else the calculator's default within the data's range). */
export function sinceYearField(chosen: string, range: { min: number; max: number }, w: Words): SafeHtml {
  const since = chosen || String(Math.min(range.max, Math.max(range.min, DEFAULT_TAXPAYER_SINCE_YEAR)));
  const years: number[] = [];
  for (let y = range.min; y <= range.max; y++) years.push(y);
  return html`<label
    >${w.t('calc.since')}
    <select name="taxpayer_since_year">
      ${years.map((y) => html`<option value="${y}" ${String(y) === since ? html`selected` : ''}>${fiscalYearIn(y, w)}</option>`)}
    </select>
  </label>`;
}

// The charts depend on the caller's numbers: rendered for each answer, not cached.
function resultCharts(answer: CalculatorResponse, w: Words): { share: SafeHtml; projection: SafeHtml } {
  const { t } = w;
  const language = w.loc.language;
  const c = answer.calculation;
  const past = answer.yearly_breakdown;
  const share = chartFigure(
    barChart({
      id: 'share-by-year',
      title: t('calc.shareChart'),
      description: t('calc.shareChartText', { from: fiscalYearIn(c.taxpayer_since_year, w), to: fiscalYearIn(c.current_fiscal_year, w) }),
      categories: past.map((y) => fiscalYearIn(y.fiscal_year, w)),
      series: [{ name: t('calc.shareSeries'), values: past.map((y) => Math.round(y.user_share * 100) / 100) }],
      valueName: '$',
      language,
    }),
  );
  const projections = answer.future_projections;
  const projection = chartFigure(
    barChart({
      id: 'projected-share',
      title: t('calc.projection'),
      description: t('calc.projectionText', { from: fiscalYearIn(c.taxpayer_since_year, w) }),
      categories: projections.continuing_only.map((y) => fiscalYearIn(y.fiscal_year, w)),
      series: [
        { name: t('calc.signed'), values: projections.continuing_only.map((y) => Math.round(y.user_share * 100) / 100) },
        {
          name: t('calc.withNew'),
          values: projections.with_new_projects.map((y) => Math.round(y.user_share * 100) / 100),
        },
      ],
      valueName: '$',
      language,
    }),
  );
  return { share, projection };
}

/** What the caller pays in the tax year: income tax and GST, and their sum. */
function contributionTable(c: CalculatorResponse['calculation'], w: Words): SafeHtml {
  const { t, loc } = w;
  const rate = loc.percent(GST_RATE_PER_MILLE / 1000);
  return html`<table class="data narrow">
    <caption>
      ${t(c.input_mode === 'monthly' ? 'calc.contributionMonthly' : 'calc.contribution', { year: c.tax_year })}
    </caption>
    <tbody>
      <tr>
        <th scope="row">${t('calc.income.row')}</th>
        <td class="num">${dollars(c.annual_income, w)}</td>
      </tr>
      <tr>
        <th scope="row">${t('calc.federalTax')}</th>
        <td class="num">${dollars(c.federal_income_tax, w)}</td>
      </tr>
      <tr>
        <th scope="row">${t('calc.gst', { rate, spending: dollars(c.gst_eligible_spending, w) })}</th>
        <td class="num">${dollars(c.gst_paid, w)}</td>
      </tr>
      <tr>
        <th scope="row">${t('calc.yourContribution')}</th>
        <td class="num"><strong>${dollars(c.total_tax_contribution, w)}</strong></td>
      </tr>
    </tbody>
  </table>`;
}

/** The share year by year (with the grant that took most of it), and the grants that took most over all years. */
function shareTables(answer: CalculatorResponse, w: Words): SafeHtml {
  const { t } = w;
  const byYear = recordTable({
    caption: t('calc.byYearCaption'),
    hiddenCaption: true,
    columns: [
      t('common.fiscalYear'),
      numericColumn(t('calc.running')),
      numericColumn(t('calc.revenue')),
      numericColumn(t('calc.yourShare')),
      t('calc.largest'),
    ],
    rows: answer.yearly_breakdown,
    cells: (y) => {
      const top = y.top_projects[0];
      const named = top ? nameOf(top, w) : null;
      return [
        fiscalYearIn(y.fiscal_year, w),
        count(y.grant_count, w),
        bigDollars(y.federal_revenue, w),
        dollars(y.user_share, w),
        top && named
          ? html`<a href="/grants/${top.id}">${named.title || t('common.untitled')}</a> — ${named.recipient} (${dollars(top.user_share, w)})`
          : '—',
      ];
    },
  });
  const top = recordTable({
    caption: t('calc.topCaption'),
    hiddenCaption: true,
    columns: [t('common.agreement'), t('common.recipient'), numericColumn(t('calc.agreementValue')), numericColumn(t('calc.yourShare'))],
    rows: answer.grant_shares,
    cells: (g) => {
      const named = nameOf(g, w);
      return [
        html`<a href="/grants/${g.id}">${named.title || t('common.untitled')}</a>`,
        html`<a href="${recipientHref(g.recipient)}">${named.recipient}</a>`,
        dollars(g.total_value, w),
        dollars(g.user_share, w),
      ];
    },
  });
  return html`<h3>${t('calc.yearByYear')}</h3>
    ${byYear}
    <h3>${t('calc.top', { count: answer.grant_shares.length })}</h3>
    ${top}`;
}

/**
 * A source in the page's language: on a French page its French edition where the constants give one (its title and
 * address checked against the publisher's French page), else the English one marked as English for screen readers.
 */
function citation(source: Source, w: Words): SafeHtml {
  if (w.loc.language === 'en') return externalLink(source.url, source.publication);
  if (source.french) return externalLink(source.french.url, source.french.publication);
  return html`<span lang="en">${externalLink(source.url, source.publication)}</span>`;
}

/** The calculator's note about a source's figure, in the page's language. */
function noteOf(source: Source, w: Words): string | undefined {
  return w.loc.language === 'fr' && source.noteFr ? source.noteFr : source.note;
}

/** The federal income tax brackets of the tax year, or nothing where the calculator has none. */
function bracketsTable(tax: ReturnType<typeof taxYearTable>, w: Words): SafeHtml | string {
  const { t, loc } = w;
  if (!tax) return '';
  return html`${recordTable({
      caption: t('calc.brackets', { year: tax.year }),
      class: 'narrow',
      noScroll: true,
      columns: [t('calc.above'), numericColumn(t('calc.rate'))],
      rows: tax.brackets,
      cells: (b) => [dollars(b.lowerDollars, w), loc.percent(b.ratePerMille / 1000)],
    })}
    <p>
      ${t('calc.bpa', { amount: dollars(tax.bpa.maxDollars, w) })}${
        tax.bpa.minDollars !== undefined ? t('calc.bpaReduced', { amount: dollars(tax.bpa.minDollars, w) }) : ''
      }.
      ${t('calc.source')} ${citation(tax.source, w)}.${noteOf(tax.source, w) ? html` ${noteOf(tax.source, w)}` : ''}
    </p>`;
}

/** The constants the answer used, with their sources: the tax year's brackets, the GST rate, each year's revenue. */
function constantsSection(answer: CalculatorResponse, w: Words): SafeHtml {
  const { t, loc } = w;
  const rate = loc.percent(GST_RATE_PER_MILLE / 1000);
  return html`<h3>${t('calc.constants')}</h3>
    ${bracketsTable(taxYearTable(answer.calculation.tax_year), w)}
    <p>${t('calc.gstRate', { rate })}</p>
    ${recordTable({
      caption: t('calc.revenueCaption'),
      noScroll: true,
      columns: [t('common.fiscalYear'), numericColumn(t('calc.revenue')), t('calc.sourceColumn')],
      rows: answer.yearly_breakdown,
      cells: (y) => {
        const r = publishedRevenue(y.year);
        return [
          fiscalYearIn(y.fiscal_year, w),
          dollars(y.federal_revenue, w),
          r
            ? html`${citation(r.source, w)}${noteOf(r.source, w) ? html` <span class="muted">${noteOf(r.source, w)}</span>` : ''}`
            : t('calc.noFigure'),
        ];
      },
    })}`;
}

function resultBody(answer: CalculatorResponse, aggregates: CalculatorAggregates, w: Words): SafeHtml {
  const { t, loc } = w;
  const c = answer.calculation;
  const charts = resultCharts(answer, w);
  const current = answer.yearly_breakdown.at(-1);
  const runningCents = aggregates.years.find((y) => y.year === c.current_year)?.running_value_cents ?? 0;
  return html`<section aria-labelledby="result-heading">
    <h2 id="result-heading">${t('calc.result')}</h2>
    <div class="stats-row" role="status">
      <p>
        <span class="stat">${dollars(answer.total_grants_share, w)}</span>
        ${t('calc.toGrants', { from: fiscalYearIn(c.taxpayer_since_year, w), to: fiscalYearIn(c.current_fiscal_year, w) })}
      </p>
      <p>
        <span class="stat">${dollars(c.grants_portion_of_taxes, w)}</span>
        ${t('calc.inYear', { year: fiscalYearIn(c.current_fiscal_year, w) })}
      </p>
      <p><span class="stat">${dollars(c.total_tax_contribution, w)}</span> ${t('calc.yourTax')}</p>
    </div>
    ${contributionTable(c, w)} ${charts.share}
    <h3>${t('calc.formula', { year: fiscalYearIn(c.current_fiscal_year, w) })}</h3>
    <p class="formula">
      ${t('calc.formulaText', {
        c: dollars(c.total_tax_contribution, w),
        revenue: bigDollars(c.federal_revenue, w),
        running: bigDollars(runningCents / 100, w),
      })}
      <strong>${dollars(c.grants_portion_of_taxes, w)}</strong>
    </p>
    <p class="muted">
      ${t('calc.explanation', {
        share: loc.percent(Number((c.revenue_share_percentage / 100).toPrecision(3)), 12),
        year: fiscalYearIn(c.current_fiscal_year, w),
        count: current?.grant_count ?? 0,
      })}
    </p>
    ${charts.projection} ${shareTables(answer, w)} ${constantsSection(answer, w)}
  </section>`;
}

/** The formulas of calculator/formulas.ts (the one description of the calculation), as HTML, in the page's language. */
function formulaSection(w: Words): SafeHtml {
  const markdown = w.loc.language === 'fr' ? CALCULATOR_FORMULAS_MARKDOWN_FR : CALCULATOR_FORMULAS_MARKDOWN;
  return html`<details class="formulas">
    <summary>${w.t('calc.howItWorks')}</summary>
    <div>${markdownToHtml(markdown)}</div>
  </details>`;
}

/** The small markdown of formulas.ts: paragraphs, **bold**, *italic* and `code`. Escaped first; no other markup. */
function markdownToHtml(markdown: string): SafeHtml {
  return trustedHtml(
    markdown
      .split(/\n\s*\n/)
      .map((paragraph) =>
        escapeHtml(paragraph.replace(/\s*\n\s*/g, ' '))
          .replace(/`([^`]+)`/g, '<code>$1</code>')
          .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
          .replace(/\*([^*]+)\*/g, '<em>$1</em>'),
      )
      .map((p) => `<p>${p}</p>`)
      .join(''),
  );
}
