// `/grants/:id`: one agreement as GET /api/grants/{id}/ serves it (the repository's getGrant), every field
// labelled, with links to its recipient and to agreements of the same program.
import type { Kysely } from 'kysely';
import { badRequest, notFound } from '../../../core/http/errors.ts';
import { html, queryString } from '../../../core/pages/index.ts';
import type { PageKit } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { getGrant } from '../repository.ts';
import type { GrantsDatabase } from '../tables.ts';
import { codeLabel, dollars, provinceName, recipientHref, sendPage, textOf, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';

const named = (kind: 'recipientType' | 'agreementType', code: string, w: Words): string =>
  code ? `${codeLabel(kind, code, w) ?? w.t('grant.unknownCode')} (${code})` : w.t('common.notGiven');

export function grantPage(app: ServiceApp, db: Kysely<GrantsDatabase>, kit: PageKit): void {
  app.get('/grants/:id', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const w = wordsOf(kit, request);
      const { t, loc } = w;
      const raw = (request.params as { id: string }).id;
      if (!/^\d{1,15}$/.test(raw)) throw badRequest(t('grant.badNumber', { value: raw }));
      const g = await getGrant(db, Number(raw), 'both');
      if (!g) throw notFound(t('grant.notFound', { id: raw }));
      const province = g.recipient_province ? provinceName(g.recipient_province, w) : '';
      const place = [textOf(g, 'recipient_city_en', w), province, g.recipient_country].filter(Boolean).join(', ');
      const notGiven = t('common.notGiven');
      const title = textOf(g, 'agreement_title_en', w) || g.reference_number;
      const department = textOf(g, 'owner_org_title', w);
      const recipient = textOf(g, 'recipient_legal_name', w);
      const operatingName = textOf(g, 'recipient_operating_name', w);
      const program = textOf(g, 'program_name_en', w);
      const purpose = textOf(g, 'program_purpose_en', w);
      const description = textOf(g, 'description_en', w);
      const expected = textOf(g, 'expected_results_en', w);
      return {
        title,
        description: t('grant.description', {
          department,
          value: dollars(g.agreement_value, w),
          recipient,
          year: g.fiscal_year,
        }),
        section: '/',
        body: html`<p class="breadcrumbs"><a href="/">${t('nav.search')}</a> ›</p>
          <h1>${title}</h1>
          <p class="stat">${dollars(g.agreement_value, w)}</p>
          <ul class="badges">
            ${g.is_major_funding ? html`<li><span class="badge neutral">${t('grant.overMillion')}</span></li>` : ''}
            ${g.is_notable ? html`<li><span class="badge warn">${t('grant.notable', { reason: g.notable_reason ?? '' })}</span></li>` : ''}
          </ul>
          <dl class="facts">
            <dt>${t('common.recipient')}</dt>
            <dd>
              ${g.recipient_legal_name ? html`<a href="${recipientHref(g.recipient_legal_name)}">${recipient}</a>` : notGiven}
              ${operatingName ? t('grant.operatingAs', { name: operatingName }) : ''}
            </dd>
            <dt>${t('grant.recipientType')}</dt>
            <dd>${named('recipientType', g.recipient_type, w)}</dd>
            <dt>${t('grant.location')}</dt>
            <dd>${place || notGiven}${g.recipient_postal_code ? html` ${g.recipient_postal_code}` : ''}</dd>
            <dt>${t('common.department')}</dt>
            <dd>${department} (${g.owner_org})</dd>
            <dt>${t('grant.program')}</dt>
            <dd>
              ${g.program_name_en ? html`<a href="/${queryString({ search: g.program_name_en })}">${program}</a>` : notGiven}${
                purpose ? html`<br /><span class="muted">${purpose}</span>` : ''
              }
            </dd>
            <dt>${t('grant.agreementType')}</dt>
            <dd>${named('agreementType', g.agreement_type, w)}</dd>
            <dt>${t('common.period')}</dt>
            <dd>
              ${t('grant.period', {
                start: loc.date(g.agreement_start_date),
                end: g.agreement_end_date ? loc.date(g.agreement_end_date) : t('grant.noEndDate'),
                year: g.fiscal_year,
              })}
            </dd>
            <dt>${t('grant.reference')}</dt>
            <dd>
              ${t('grant.amendment', { reference: g.reference_number, number: g.amendment_number })}${
                g.amendment_date ? t('grant.amendmentOf', { date: loc.date(g.amendment_date) }) : ''
              }
            </dd>
            <dt>${t('grant.industry')}</dt>
            <dd>${g.naics_sector_en || notGiven}${g.naics_identifier ? html` (${g.naics_identifier})` : ''}</dd>
          </dl>
          ${
            description
              ? html`<h2>${t('grant.descriptionHeading')}</h2>
                  <p>${description}</p>`
              : ''
          }
          ${
            expected
              ? html`<h2>${t('grant.expectedResults')}</h2>
                  <p>${expected}</p>`
              : ''
          }
          <p class="muted">${t('grant.valueNote')} <a href="/api/api/grants/${g.id}/">${t('grant.json')}</a>.</p>`,
      };
    }),
  );
}
