// `/recipients`: the largest recipients and the totals by recipient type and province (the aggregate of GET
// /api/recipients/), with a look-up by name. `/recipient?name=…`: one recipient (its legal name as published,
// exactly): totals, value by fiscal year as a chart, and its agreements, largest first, read by id through the
// repository like the search's.
import type { Kysely } from 'kysely';
import { HttpError, badRequest, notFound } from '../../../core/http/errors.ts';
import { cleanText } from '../../../core/http/params.ts';
import { barChart, html, queryString } from '../../../core/pages/index.ts';
import type { PageKit } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { grantsByIds, readAggregate } from '../repository.ts';
import { PROVINCE_NAMES_EN } from '../source/index.ts';
import type { GrantsDatabase } from '../tables.ts';
import type { AgreementIndex } from './agreement-index.ts';
import { bigDollars, count, dollars, millions, pager, param, parsePageNumber, recipientHref, sendPage } from './shared.ts';

export const AGREEMENTS_PER_PAGE = 25;
const NO_DATA = 'no grants data has been imported yet; run `pdi import grants <csv>` (or start the server with demo data)';

const provinceName = (code: string): string =>
  code === '' ? 'Not given or outside Canada' : (PROVINCE_NAMES_EN[code as keyof typeof PROVINCE_NAMES_EN] ?? code);

function lookupForm(name: string) {
  return html`<form class="filters" method="get" action="/recipient" role="search" aria-label="Find a recipient">
    <label
      >Recipient’s legal name, exactly as published
      <input
        type="search"
        name="name"
        value="${name}"
        required
        maxlength="300"
        size="40"
        list="recipient-suggestions"
        autocomplete="off"
        data-autocomplete="/api/api/search/?limit=10&amp;sort=recipient_legal_name&amp;search="
        data-autocomplete-items="results"
        data-autocomplete-label="recipient_legal_name"
      />
    </label>
    <datalist id="recipient-suggestions"></datalist>
    <button type="submit">Show recipient</button>
  </form>`;
}

export function recipientPages(app: ServiceApp, db: Kysely<GrantsDatabase>, kit: PageKit, index: AgreementIndex): void {
  app.get('/recipients', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const stored = await readAggregate(db, 'recipients');
      if (!stored) throw new HttpError(503, NO_DATA);
      const r = stored.value;
      return {
        title: 'Recipients',
        description: 'The largest recipients of federal grants and contributions, by type and province.',
        section: '/recipients',
        body: html`<h1>Recipients</h1>
          ${lookupForm('')}
          <h2>The ${r.top_recipients.length} largest recipients</h2>
          <div class="table-scroll">
            <table class="data">
              <caption class="visually-hidden">
                Largest recipients by total value
              </caption>
              <thead>
                <tr>
                  <th scope="col" class="num">Rank</th>
                  <th scope="col">Recipient (legal name as published)</th>
                  <th scope="col" class="num">Total value</th>
                  <th scope="col" class="num">Agreements</th>
                  <th scope="col" class="num">Average</th>
                </tr>
              </thead>
              <tbody>
                ${r.top_recipients.map(
                  (x, i) =>
                    html`<tr>
                      <td class="num">${i + 1}</td>
                      <th scope="row"><a href="${recipientHref(x.recipient_legal_name)}">${x.recipient_legal_name}</a></th>
                      <td class="num">${dollars(x.total_value)}</td>
                      <td class="num">${count(x.grant_count)}</td>
                      <td class="num">${dollars(x.avg_value)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>
          <div class="grid-2">
            <div>
              <h2>By type of recipient</h2>
              <table class="data">
                <caption class="visually-hidden">
                  Recipients by type
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Type</th>
                    <th scope="col" class="num">Agreements</th>
                    <th scope="col" class="num">Total value</th>
                  </tr>
                </thead>
                <tbody>
                  ${r.by_type.map(
                    (t) =>
                      html`<tr>
                        <th scope="row">
                          <a href="/${queryString({ recipient_type: t.recipient_type || undefined })}">${t.label}</a>
                        </th>
                        <td class="num">${count(t.count)}</td>
                        <td class="num">${bigDollars(t.total_value)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>
            <div>
              <h2>By province or territory</h2>
              <table class="data">
                <caption class="visually-hidden">
                  Recipients by province or territory
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Province or territory</th>
                    <th scope="col" class="num">Recipients</th>
                    <th scope="col" class="num">Total value</th>
                  </tr>
                </thead>
                <tbody>
                  ${r.by_province.map(
                    (p) =>
                      html`<tr>
                        <th scope="row">${provinceName(p.recipient_province)}</th>
                        <td class="num">${count(p.unique_recipients)}</td>
                        <td class="num">${bigDollars(p.total_value)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>
          </div>`,
      };
    }),
  );

  app.get('/recipient', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const name = cleanText(param(request.query, 'name'));
      if (name === undefined) throw badRequest('name is required: the recipient’s legal name, as published');
      if (name.length > 300) throw badRequest('name must be at most 300 characters long');
      const page = parsePageNumber(param(request.query, 'page'));
      const found = await index.recipient(name, { limit: AGREEMENTS_PER_PAGE, offset: (page - 1) * AGREEMENTS_PER_PAGE });
      if (found.count === 0)
        throw notFound(`no agreement names “${name}” as its recipient (the name must match the published legal name exactly)`);
      const rows = await grantsByIds(db, found.pageIds);
      const totalPages = Math.max(1, Math.ceil(found.count / AGREEMENTS_PER_PAGE));
      const version = await kit.dataVersion();
      const chart = kit.charts.figure(`grants:recipient:${version}:${found.textId}`, () =>
        barChart({
          id: 'recipient-by-year',
          title: 'Value of the agreements by fiscal year',
          description: `Total value of ${name}’s agreements of each fiscal year, in millions of dollars.`,
          categories: found.byYear.map((y) => y.fiscal_year),
          series: [{ name: 'Total value ($ millions)', values: found.byYear.map((y) => millions(y.total_value_cents / 100)) }],
          valueName: '$ millions',
        }),
      );
      const places = [...new Set(rows.map((g) => [g.recipient_city_en, g.recipient_province].filter(Boolean).join(', ')).filter(Boolean))];
      return {
        title: name,
        description: `${name}: ${count(found.count)} federal grant and contribution agreements worth ${bigDollars(found.totalValueCents / 100)}.`,
        section: '/recipients',
        body: html`<p class="breadcrumbs"><a href="/recipients">Recipients</a> ›</p>
          <h1>${name}</h1>
          <div class="stats-row">
            <p><span class="stat">${bigDollars(found.totalValueCents / 100)}</span> in all</p>
            <p><span class="stat">${count(found.count)}</span> agreement${found.count === 1 ? '' : 's'}</p>
            <p><span class="stat">${dollars(Math.round(found.totalValueCents / found.count) / 100)}</span> average</p>
          </div>
          ${places.length > 0 ? html`<p class="muted">Located in ${places.join('; ')} (from the agreements on this page).</p>` : ''}
          ${chart}
          <h2>Agreements, largest first</h2>
          <div class="table-scroll">
            <table class="data">
              <caption class="visually-hidden">
                Agreements of ${name}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Agreement</th>
                  <th scope="col">Department</th>
                  <th scope="col">Fiscal year</th>
                  <th scope="col" class="num">Value</th>
                </tr>
              </thead>
              <tbody>
                ${rows.map(
                  (g) =>
                    html`<tr>
                      <th scope="row"><a href="/grants/${g.id}">${g.agreement_title_en || g.reference_number}</a></th>
                      <td>${g.owner_org_title}</td>
                      <td>${g.fiscal_year}</td>
                      <td class="num">${dollars(g.agreement_value)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>
          ${pager('/recipient', { name }, page, totalPages)}
          <p><a href="/${queryString({ search: name })}">Search every agreement that mentions “${name}”</a></p>`,
      };
    }),
  );
}
