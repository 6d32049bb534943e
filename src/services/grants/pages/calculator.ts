// `/calculator`: the taxpayer's-share calculator of POST /api/calculate/ as a form. The form posts (an income
// does not belong in a URL, a log or a browser's history); the result shows the share by fiscal year as a
// chart, the projections, the grants that took most of it, and the formula with the constants it used and
// their sources. Same calculation as the API: calculateTaxpayerShare over the aggregates stored at import.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { HttpError } from '../../../core/http/errors.ts';
import { barChart, chartFigure, escapeHtml, externalLink, html, trustedHtml } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { StoredCalculator } from '../aggregates.ts';
import {
  CALCULATOR_FORMULAS_MARKDOWN,
  CalculatorInputError,
  DEFAULT_TAXPAYER_SINCE_YEAR,
  GST_RATE_PER_MILLE,
  calculateTaxpayerShare,
  publishedRevenue,
  taxYearTable,
} from '../calculator/index.ts';
import type { CalculatorAggregates, CalculatorResponse } from '../calculator/index.ts';
import { readAggregate } from '../repository.ts';
import { fiscalYearLabel } from '../source/index.ts';
import type { GrantsDatabase } from '../tables.ts';
import { bigDollars, count, dollars, errorNote, param, recipientHref, sendPage } from './shared.ts';

const NO_DATA = 'no grants data has been imported yet; run `pdi import grants <csv>` (or start the server with demo data)';

/** The form as typed (strings), kept to fill the form again. */
interface CalculatorForm {
  annual_income: string;
  gst_eligible_spending: string;
  input_mode: string;
  taxpayer_since_year: string;
}

/** The calculator's stored aggregates, parsed once per data version. */
export function calculatorAggregatesOf(db: Kysely<GrantsDatabase>, kit: PageKit): () => Promise<CalculatorAggregates> {
  let memo: { version: string; value: StoredCalculator } | null = null;
  return async () => {
    const version = await kit.dataVersion();
    if (memo === null || memo.version !== version) {
      const stored = await readAggregate(db, 'calculator');
      if (!stored) throw new HttpError(503, NO_DATA);
      memo = { version, value: stored.value };
    }
    if (!memo.value.ok) throw new HttpError(503, `the calculator cannot run on this data: ${memo.value.error}`);
    return memo.value.aggregates;
  };
}

export function calculatorPage(app: ServiceApp, db: Kysely<GrantsDatabase>, kit: PageKit): void {
  const aggregatesOf = calculatorAggregatesOf(db, kit);
  // A browser's form body (this scope only; the API takes JSON).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  const handler = (method: 'GET' | 'POST') => async (request: FastifyRequest, reply: FastifyReply) =>
    sendPage(kit, request, reply, async () => {
      const aggregates = await aggregatesOf();
      const source = method === 'POST' ? request.body : {};
      const form: CalculatorForm = {
        annual_income: param(source, 'annual_income') ?? '',
        gst_eligible_spending: param(source, 'gst_eligible_spending') ?? '',
        input_mode: param(source, 'input_mode') ?? 'annual',
        taxpayer_since_year: param(source, 'taxpayer_since_year') ?? '',
      };
      let status: number | undefined;
      let result: SafeHtml | string = '';
      if (method === 'POST') {
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
          result = resultBody(answer, aggregates);
        } catch (error) {
          if (!(error instanceof CalculatorInputError)) throw error;
          status = 400;
          result = errorNote(error.message);
        }
      }
      return {
        title: method === 'POST' && status === undefined ? 'Your share of federal grants' : 'Taxpayer calculator',
        description: 'How much of your federal income tax and GST went to federal grants and contributions, year by year.',
        section: '/calculator',
        status,
        body: html`<h1>Your share of federal grants</h1>
          <p class="lead">
            Enter your income and the spending you paid GST on. The calculator estimates your federal income tax and GST, the share of
            federal revenue that makes, and that share of every grant and contribution agreement running each year.
          </p>
          ${calculatorForm(form, aggregates)} ${result} ${formulaSection()}`,
      };
    });
  app.get('/calculator', { config: { responseCache: true } }, handler('GET'));
  app.post('/calculator', {}, handler('POST'));
}

function calculatorForm(form: CalculatorForm, aggregates: CalculatorAggregates): SafeHtml {
  const { min, max } = aggregates.since_range;
  const since = form.taxpayer_since_year || String(Math.min(max, Math.max(min, DEFAULT_TAXPAYER_SINCE_YEAR)));
  const years: number[] = [];
  for (let y = min; y <= max; y++) years.push(y);
  return html`<form class="filters" method="post" action="/calculator" aria-label="Calculate your share">
    <label
      >Income before tax ($)
      <input type="number" name="annual_income" value="${form.annual_income}" min="0" step="0.01" required inputmode="decimal" />
    </label>
    <label
      >Spending subject to GST ($)
      <input type="number" name="gst_eligible_spending" value="${form.gst_eligible_spending}" min="0" step="0.01" inputmode="decimal" />
    </label>
    <fieldset class="inline">
      <legend>The amounts are</legend>
      <label class="inline"
        ><input type="radio" name="input_mode" value="annual" ${form.input_mode !== 'monthly' ? html`checked` : ''} /> per year</label
      >
      <label class="inline"
        ><input type="radio" name="input_mode" value="monthly" ${form.input_mode === 'monthly' ? html`checked` : ''} /> per month</label
      >
    </fieldset>
    <label
      >Taxpayer since
      <select name="taxpayer_since_year">
        ${years.map((y) => html`<option value="${y}" ${String(y) === since ? html`selected` : ''}>${fiscalYearLabel(y)}</option>`)}
      </select>
    </label>
    <button type="submit">Calculate</button>
  </form>`;
}

// The charts depend on the caller's numbers: rendered for each answer, not cached.
function resultBody(answer: CalculatorResponse, aggregates: CalculatorAggregates): SafeHtml {
  const c = answer.calculation;
  const past = answer.yearly_breakdown;
  const shareChart = chartFigure(
    barChart({
      id: 'share-by-year',
      title: 'Your share of the grants, by fiscal year',
      description: `Dollars of your federal taxes that went to the grants and contributions running in each fiscal year from ${fiscalYearLabel(c.taxpayer_since_year)} to ${c.current_fiscal_year}.`,
      categories: past.map((y) => y.fiscal_year),
      series: [{ name: 'Your share ($)', values: past.map((y) => Math.round(y.user_share * 100) / 100) }],
      valueName: '$',
    }),
  );
  const projections = answer.future_projections;
  const projectionChart = chartFigure(
    barChart({
      id: 'projected-share',
      title: 'Projected share, next five fiscal years',
      description:
        'Your share of agreements already signed that run into each coming year, and the same plus new agreements at the yearly average ' +
        `of the years since ${fiscalYearLabel(c.taxpayer_since_year)}. Revenue after the last published year is taken as that year’s.`,
      categories: projections.continuing_only.map((y) => y.fiscal_year),
      series: [
        { name: 'Agreements already signed ($)', values: projections.continuing_only.map((y) => Math.round(y.user_share * 100) / 100) },
        {
          name: 'With new agreements at the average ($)',
          values: projections.with_new_projects.map((y) => Math.round(y.user_share * 100) / 100),
        },
      ],
      valueName: '$',
    }),
  );
  const current = past.at(-1);
  const runningCents = aggregates.years.find((y) => y.year === c.current_year)?.running_value_cents ?? 0;
  const tax = taxYearTable(c.tax_year);
  return html`<section aria-labelledby="result-heading">
    <h2 id="result-heading">Result</h2>
    <div class="stats-row" role="status">
      <p>
        <span class="stat">${answer.total_grants_share_formatted}</span> to grants from ${fiscalYearLabel(c.taxpayer_since_year)} to
        ${c.current_fiscal_year}
      </p>
      <p><span class="stat">${c.grants_portion_of_taxes_formatted}</span> in ${c.current_fiscal_year}</p>
      <p><span class="stat">${c.total_tax_contribution_formatted}</span> your federal tax and GST a year</p>
    </div>
    <table class="data narrow">
      <caption>
        Your federal contribution (tax year ${c.tax_year}${c.input_mode === 'monthly' ? ', monthly amounts × 12' : ''})
      </caption>
      <tbody>
        <tr>
          <th scope="row">Income</th>
          <td class="num">${dollars(c.annual_income)}</td>
        </tr>
        <tr>
          <th scope="row">Federal income tax</th>
          <td class="num">${c.federal_income_tax_formatted}</td>
        </tr>
        <tr>
          <th scope="row">GST: ${GST_RATE_PER_MILLE / 10}% of ${dollars(c.gst_eligible_spending)}</th>
          <td class="num">${c.gst_paid_formatted}</td>
        </tr>
        <tr>
          <th scope="row">Your contribution C</th>
          <td class="num"><strong>${c.total_tax_contribution_formatted}</strong></td>
        </tr>
      </tbody>
    </table>
    ${shareChart}
    <h3>The formula, with your numbers for ${c.current_fiscal_year}</h3>
    <p class="formula">
      share = C ÷ federal revenue × grants running = ${c.total_tax_contribution_formatted} ÷ ${bigDollars(c.federal_revenue)} ×
      ${bigDollars(runningCents / 100)} = <strong>${c.grants_portion_of_taxes_formatted}</strong>
    </p>
    <p class="muted">
      Your contribution C is ${c.revenue_share_percentage.toPrecision(3)}% of federal revenue in ${c.current_fiscal_year}: you paid that
      fraction of each of the ${count(current?.grant_count ?? 0)} agreements running that year, each counted with its value spread evenly
      over its fiscal years.
    </p>
    ${projectionChart}
    <h3>Year by year</h3>
    <div class="table-scroll">
      <table class="data">
        <caption class="visually-hidden">
          Your share by fiscal year
        </caption>
        <thead>
          <tr>
            <th scope="col">Fiscal year</th>
            <th scope="col" class="num">Agreements running</th>
            <th scope="col" class="num">Federal revenue</th>
            <th scope="col" class="num">Your share</th>
            <th scope="col">Largest agreement that year (your share)</th>
          </tr>
        </thead>
        <tbody>
          ${past.map((y) => {
            const top = y.top_projects[0];
            return html`<tr>
              <th scope="row">${y.fiscal_year}</th>
              <td class="num">${count(y.grant_count)}</td>
              <td class="num">${bigDollars(y.federal_revenue)}</td>
              <td class="num">${y.user_share_formatted}</td>
              <td>
                ${top ? html`<a href="/grants/${top.id}">${top.title || 'untitled'}</a> — ${top.recipient} (${top.user_share_formatted})` : '—'}
              </td>
            </tr>`;
          })}
        </tbody>
      </table>
    </div>
    <h3>The ${answer.grant_shares.length} agreements that took most of your taxes</h3>
    <div class="table-scroll">
      <table class="data">
        <caption class="visually-hidden">
          Agreements with the largest share of your taxes
        </caption>
        <thead>
          <tr>
            <th scope="col">Agreement</th>
            <th scope="col">Recipient</th>
            <th scope="col" class="num">Agreement value</th>
            <th scope="col" class="num">Your share</th>
          </tr>
        </thead>
        <tbody>
          ${answer.grant_shares.map(
            (g) =>
              html`<tr>
                <th scope="row"><a href="/grants/${g.id}">${g.title || 'untitled'}</a></th>
                <td><a href="${recipientHref(g.recipient)}">${g.recipient}</a></td>
                <td class="num">${dollars(g.total_value)}</td>
                <td class="num">${g.user_share_formatted}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    <h3>The constants used, with their sources</h3>
    ${
      tax
        ? html`<table class="data narrow">
              <caption>
                Federal income tax brackets, ${tax.year}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Taxable income above</th>
                  <th scope="col" class="num">Rate</th>
                </tr>
              </thead>
              <tbody>
                ${tax.brackets.map(
                  (b) =>
                    html`<tr>
                      <td>${dollars(b.lowerDollars)}</td>
                      <td class="num">${b.ratePerMille / 10}%</td>
                    </tr>`,
                )}
              </tbody>
            </table>
            <p>
              Basic personal amount:
              ${dollars(tax.bpa.maxDollars)}${
                tax.bpa.minDollars !== undefined ? html`, reduced to ${dollars(tax.bpa.minDollars)} between the 29% and 33% brackets` : ''
              }.
              Source: ${externalLink(tax.source.url, tax.source.publication)}.${tax.source.note ? html` ${tax.source.note}` : ''}
            </p>`
        : ''
    }
    <p>GST: ${GST_RATE_PER_MILLE / 10}% (Excise Tax Act, Part IX).</p>
    <table class="data">
      <caption>
        Federal revenue of each fiscal year used
      </caption>
      <thead>
        <tr>
          <th scope="col">Fiscal year</th>
          <th scope="col" class="num">Revenue</th>
          <th scope="col">Source</th>
        </tr>
      </thead>
      <tbody>
        ${past.map((y) => {
          const r = publishedRevenue(y.year);
          return html`<tr>
            <th scope="row">${y.fiscal_year}</th>
            <td class="num">${dollars(y.federal_revenue)}</td>
            <td>
              ${r ? html`${externalLink(r.source.url, r.source.publication)}${r.source.note ? html` <span class="muted">${r.source.note}</span>` : ''}` : 'no published figure'}
            </td>
          </tr>`;
        })}
      </tbody>
    </table>
  </section>`;
}

/** The formulas of calculator/formulas.ts (the one description of the calculation), as HTML. */
function formulaSection(): SafeHtml {
  return html`<details class="formulas">
    <summary>How the calculation works, in full</summary>
    ${markdownToHtml(CALCULATOR_FORMULAS_MARKDOWN)}
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
