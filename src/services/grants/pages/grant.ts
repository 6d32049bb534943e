// `/grants/:id`: one agreement as GET /api/grants/{id}/ serves it (the repository's getGrant), every field
// labelled, with links to its recipient and to agreements of the same program, and the caller's share of it (a
// form with the calculator's inputs).
import type { Kysely } from 'kysely';
import { notFound } from '../../../core/http/errors.ts';
import { html, queryString } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import { numericColumn, recordTable } from '../../../core/pages/table.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { CalculatorInputError, grantTaxpayerShare, servedGrantInput } from '../calculator/index.ts';
import type { CalculatorAggregates, GrantTaxpayerShare } from '../calculator/index.ts';
import { getGrant } from '../repository.ts';
import type { Grant } from '../schemas/grant.ts';
import { GrantParams } from '../schemas/grant.ts';
import { naicsSectorInFrench } from '../source/index.ts';
import type { GrantsDatabase } from '../tables.ts';
import { amountFields, calculatorAggregatesOf, refusalOf, sinceYearField } from './calculator.ts';
import {
  bigDollars,
  codeLabel,
  dollars,
  errorNote,
  fiscalYearIn,
  notableReasonOf,
  proseOf,
  provinceName,
  recipientHref,
  textOf,
  wordsOf,
} from './shared.ts';
import type { Words } from './shared.ts';

const named = (kind: 'recipientType' | 'agreementType', code: string, w: Words): string =>
  code ? `${codeLabel(kind, code, w) ?? w.t('grant.unknownCode')} (${code})` : w.t('common.notGiven');

/** The share form as posted (strings, to fill it again) and what the calculator made of it: its answer, or why not. */
interface PostedShare {
  income: string;
  spending: string;
  since: string;
  answer?: GrantTaxpayerShare;
  problem?: string;
}

/** The caller's share of the agreement, by grantTaxpayerShare (as GET /api/grants/{id}/taxpayer-share/ computes it). */
function postedShare(g: Grant, posted: Readonly<Record<string, string>>, aggregates: CalculatorAggregates, w: Words): PostedShare {
  const form = {
    income: posted.annual_income ?? '',
    spending: posted.gst_eligible_spending ?? '',
    since: posted.taxpayer_since_year ?? '',
  };
  try {
    const answer = grantTaxpayerShare(
      servedGrantInput(g),
      { annual_income: form.income.trim(), gst_eligible_spending: form.spending.trim(), taxpayer_since_year: form.since.trim() },
      aggregates,
    );
    return { ...form, answer };
  } catch (error) {
    if (!(error instanceof CalculatorInputError)) throw error;
    return { ...form, problem: refusalOf(error, w) };
  }
}

/** The agreement's facts, every field labelled. */
function grantFacts(g: Grant, w: Words): SafeHtml {
  const { t, loc } = w;
  const province = g.recipient_province ? provinceName(g.recipient_province, w) : '';
  const place = [textOf(g, 'recipient_city_en', w), province, g.recipient_country].filter(Boolean).join(', ');
  const notGiven = t('common.notGiven');
  const operatingName = textOf(g, 'recipient_operating_name', w);
  const purpose = textOf(g, 'program_purpose_en', w);
  return html`<dl class="facts">
    <dt>${t('common.recipient')}</dt>
    <dd>
      ${g.recipient_legal_name ? html`<a href="${recipientHref(g.recipient_legal_name)}">${textOf(g, 'recipient_legal_name', w)}</a>` : notGiven}
      ${operatingName ? t('grant.operatingAs', { name: operatingName }) : ''}
    </dd>
    <dt>${t('grant.recipientType')}</dt>
    <dd>${named('recipientType', g.recipient_type, w)}</dd>
    <dt>${t('grant.location')}</dt>
    <dd>${place || notGiven}${g.recipient_postal_code ? html` ${g.recipient_postal_code}` : ''}</dd>
    <dt>${t('common.department')}</dt>
    <dd>${textOf(g, 'owner_org_title', w)} (${g.owner_org})</dd>
    <dt>${t('grant.program')}</dt>
    <dd>
      ${g.program_name_en ? html`<a href="/${queryString({ search: g.program_name_en })}">${textOf(g, 'program_name_en', w)}</a>` : notGiven}${
        purpose ? html`<br /><span class="muted">${proseOf(g, 'program_purpose_en', w)}</span>` : ''
      }
    </dd>
    <dt>${t('grant.agreementType')}</dt>
    <dd>${named('agreementType', g.agreement_type, w)}</dd>
    <dt>${t('common.period')}</dt>
    <dd>
      ${
        g.agreement_end_date
          ? t('grant.period', {
              start: loc.date(g.agreement_start_date),
              end: loc.date(g.agreement_end_date),
              year: fiscalYearIn(g.fiscal_year, w),
            })
          : t('grant.periodOpen', { start: loc.date(g.agreement_start_date), year: fiscalYearIn(g.fiscal_year, w) })
      }
    </dd>
    <dt>${t('grant.reference')}</dt>
    <dd>
      ${t('grant.amendment', { reference: g.reference_number, number: g.amendment_number })}${
        g.amendment_date ? t('grant.amendmentOf', { date: loc.date(g.amendment_date) }) : ''
      }
    </dd>
    <dt>${t('grant.industry')}</dt>
    <dd>
      ${(w.loc.language === 'fr' ? naicsSectorInFrench(g.naics_sector_en) : g.naics_sector_en) || notGiven}${g.naics_identifier ? html` (${g.naics_identifier})` : ''}
    </dd>
  </dl>`;
}

/** The agreement's page: its value, badges, facts and texts, then the share form (and its answer once posted). */
function grantBody(g: Grant, share: SafeHtml, w: Words): SafeHtml {
  const { t } = w;
  const description = textOf(g, 'description_en', w);
  const expected = textOf(g, 'expected_results_en', w);
  return html`<p class="breadcrumbs"><a href="/">${t('nav.search')}</a> ›</p>
    <h1>${textOf(g, 'agreement_title_en', w) ? proseOf(g, 'agreement_title_en', w) : g.reference_number}</h1>
    <p class="stat">${dollars(g.agreement_value, w)}</p>
    <ul class="badges">
      ${g.is_major_funding ? html`<li><span class="badge neutral">${t('grant.overMillion')}</span></li>` : ''}
      ${g.is_notable ? html`<li><span class="badge warn">${t('grant.notable', { reason: notableReasonOf(g, w) })}</span></li>` : ''}
    </ul>
    ${grantFacts(g, w)}
    ${
      description
        ? html`<h2>${t('grant.descriptionHeading')}</h2>
            <p>${proseOf(g, 'description_en', w)}</p>`
        : ''
    }
    ${
      expected
        ? html`<h2>${t('grant.expectedResults')}</h2>
            <p>${proseOf(g, 'expected_results_en', w)}</p>`
        : ''
    }
    <p class="muted">${t('grant.valueNote')} <a href="/api/api/grants/${g.id}/">${t('grant.json')}</a>.</p>
    ${share}`;
}

export function grantPage(app: ServiceApp, db: Kysely<GrantsDatabase>, kit: PageKit): void {
  const aggregatesOf = calculatorAggregatesOf(db, kit);
  definePage(app, kit, {
    url: '/grants/:id',
    params: GrantParams,
    // The income is posted, as on the calculator's page: it does not belong in a URL, a log or a history.
    posted: true,
    async read({ params, posted, locale }) {
      const w = wordsOf(locale);
      const g = await getGrant(db, Number(params.id), 'both');
      if (!g) throw notFound(w.t('grant.notFound', { id: params.id }));
      const { aggregates } = await aggregatesOf(w);
      return { g, aggregates, share: posted ? postedShare(g, posted, aggregates, w) : null };
    },
    render({ g, aggregates, share }, { locale }) {
      const w = wordsOf(locale);
      const { t } = w;
      const department = textOf(g, 'owner_org_title', w);
      const recipient = textOf(g, 'recipient_legal_name', w);
      return {
        status: share?.problem === undefined ? undefined : 400,
        title: textOf(g, 'agreement_title_en', w) || g.reference_number,
        description: t('grant.description', {
          department,
          value: dollars(g.agreement_value, w),
          recipient,
          year: fiscalYearIn(g.fiscal_year, w),
        }),
        section: '/',
        body: grantBody(g, shareSection(g, share, aggregates, w), w),
      };
    },
    explain: (refusal, locale) =>
      refusal.name === 'id' ? wordsOf(locale).t('grant.badNumber', { value: refusal.value ?? '' }) : undefined,
  });
}

/**
 * "Your share of this agreement": the form (the calculator's inputs) and, once posted, the answer of
 * grantTaxpayerShare (the calculator's per-grant formula), or the message of an input it cannot use.
 */
function shareSection(g: Grant, share: PostedShare | null, aggregates: CalculatorAggregates, w: Words): SafeHtml {
  const { t, loc } = w;
  const form = html`<form class="filters" method="post" action="/grants/${g.id}" aria-label="${t('grant.share.formLabel')}">
    ${amountFields(share?.income ?? '', share?.spending ?? '', w)} ${sinceYearField(share?.since ?? '', aggregates.since_range, w)}
    <button type="submit">${t('calc.submit')}</button>
  </form>`;
  const result = share?.answer ? shareResult(share.answer, w) : share?.problem !== undefined ? errorNote(share.problem, loc) : '';
  return html`<section aria-labelledby="share-heading">
    <h2 id="share-heading">${t('grant.share.heading')}</h2>
    <p>${t('grant.share.lead')} <a href="/calculator">${t('grant.share.calculatorLink')}</a></p>
    ${form} ${result}
  </section>`;
}

function shareResult(answer: GrantTaxpayerShare, w: Words): SafeHtml {
  const { t } = w;
  const c = answer.calculation;
  const counted = answer.years.filter((y) => y.counted);
  return html`<div class="stats-row" role="status">
      <p>
        <span class="stat">${dollars(answer.user_share, w)}</span>
        ${t('grant.share.total', { from: fiscalYearIn(c.taxpayer_since_year, w), to: fiscalYearIn(c.current_fiscal_year, w) })}
      </p>
      ${
        answer.future_share > 0
          ? html`<p>
              <span class="stat">${dollars(answer.future_share, w)}</span>
              ${t('grant.share.future', { year: fiscalYearIn(c.current_fiscal_year, w) })}
            </p>`
          : ''
      }
      <p><span class="stat">${dollars(c.total_tax_contribution, w)}</span> ${t('calc.yourTax')}</p>
    </div>
    <p class="formula">${t('grant.share.formula', { c: dollars(c.total_tax_contribution, w), years: counted.length })}</p>
    ${recordTable({
      caption: t('grant.share.caption'),
      columns: [
        t('common.fiscalYear'),
        numericColumn(t('grant.share.annual')),
        numericColumn(t('calc.revenue')),
        numericColumn(t('calc.yourShare')),
      ],
      rows: answer.years,
      cells: (y) => [
        fiscalYearIn(y.fiscal_year, w),
        dollars(y.annual_value, w),
        y.federal_revenue > 0 ? bigDollars(y.federal_revenue, w) : '–',
        html`${dollars(y.user_share, w)}${y.counted ? '' : html` <span class="muted">(${t('grant.share.notCounted')})</span>`}`,
      ],
    })}`;
}
