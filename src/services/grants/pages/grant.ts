// `/grants/:id`: one agreement as GET /api/grants/{id}/ serves it (the repository's getGrant), every field
// labelled, with links to its recipient and to agreements of the same program.
import type { Kysely } from 'kysely';
import { badRequest, notFound } from '../../../core/http/errors.ts';
import { html, queryString } from '../../../core/pages/index.ts';
import type { PageKit } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { getGrant } from '../repository.ts';
import { AGREEMENT_TYPES, PROVINCE_NAMES_EN, RECIPIENT_TYPES } from '../source/index.ts';
import type { GrantsDatabase } from '../tables.ts';
import { dollars, recipientHref, sendPage } from './shared.ts';

const named = (table: Record<string, string>, code: string): string => (code ? `${table[code] ?? 'unknown code'} (${code})` : 'not given');

export function grantPage(app: ServiceApp, db: Kysely<GrantsDatabase>, kit: PageKit): void {
  app.get('/grants/:id', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const raw = (request.params as { id: string }).id;
      if (!/^\d{1,15}$/.test(raw)) throw badRequest(`an agreement number is a positive whole number, got "${raw}"`);
      const g = await getGrant(db, Number(raw));
      if (!g) throw notFound(`agreement ${raw} not found`);
      const province = g.recipient_province
        ? `${PROVINCE_NAMES_EN[g.recipient_province as keyof typeof PROVINCE_NAMES_EN] ?? g.recipient_province}`
        : '';
      const place = [g.recipient_city_en, province, g.recipient_country].filter(Boolean).join(', ');
      return {
        title: g.agreement_title_en || g.reference_number,
        description: `${g.owner_org_title}: ${dollars(g.agreement_value)} to ${g.recipient_legal_name} (${g.fiscal_year}).`,
        section: '/',
        body: html`<p class="breadcrumbs"><a href="/">Search</a> ›</p>
          <h1>${g.agreement_title_en || g.reference_number}</h1>
          <p class="stat">${dollars(g.agreement_value)}</p>
          <ul class="badges">
            ${g.is_major_funding ? html`<li><span class="badge neutral">Over $1 million</span></li>` : ''}
            ${g.is_notable ? html`<li><span class="badge warn">Notable: ${g.notable_reason}</span></li>` : ''}
          </ul>
          <dl class="facts">
            <dt>Recipient</dt>
            <dd>
              ${g.recipient_legal_name ? html`<a href="${recipientHref(g.recipient_legal_name)}">${g.recipient_legal_name}</a>` : 'not given'}
              ${g.recipient_operating_name ? html` (operating as ${g.recipient_operating_name})` : ''}
            </dd>
            <dt>Recipient type</dt>
            <dd>${named(RECIPIENT_TYPES, g.recipient_type)}</dd>
            <dt>Location</dt>
            <dd>${place || 'not given'}${g.recipient_postal_code ? html` ${g.recipient_postal_code}` : ''}</dd>
            <dt>Department</dt>
            <dd>${g.owner_org_title} (${g.owner_org})</dd>
            <dt>Program</dt>
            <dd>
              ${
                g.program_name_en ? html`<a href="/${queryString({ search: g.program_name_en })}">${g.program_name_en}</a>` : 'not given'
              }${g.program_purpose_en ? html`<br /><span class="muted">${g.program_purpose_en}</span>` : ''}
            </dd>
            <dt>Agreement type</dt>
            <dd>${named(AGREEMENT_TYPES, g.agreement_type)}</dd>
            <dt>Period</dt>
            <dd>${g.agreement_start_date} to ${g.agreement_end_date ?? 'no end date given'} (fiscal year ${g.fiscal_year})</dd>
            <dt>Reference</dt>
            <dd>${g.reference_number}, amendment ${g.amendment_number}${g.amendment_date ? html` of ${g.amendment_date}` : ''}</dd>
            <dt>Industry (NAICS)</dt>
            <dd>${g.naics_sector_en || 'not given'}${g.naics_identifier ? html` (${g.naics_identifier})` : ''}</dd>
          </dl>
          ${
            g.description_en
              ? html`<h2>Description</h2>
                  <p>${g.description_en}</p>`
              : ''
          }
          ${
            g.expected_results_en
              ? html`<h2>Expected results</h2>
                  <p>${g.expected_results_en}</p>`
              : ''
          }
          <p class="muted">
            The value is the agreement’s latest amendment, in Canadian dollars. <a href="/api/api/grants/${g.id}/">This record as JSON</a>.
          </p>`,
      };
    }),
  );
}
