// `/paper?doi=…[&session=…]`: a paper of the store with its key resources table (the best table, as
// GET /api/krt/doi/{doi}/ chooses it, or the extraction session asked for), export buttons to the API's downloads,
// the RRID check of every row (validation badges, suggestions with their evidence, abstentions), the paper's
// extraction sessions, and a button that opens the table in the chat to edit it.
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { HttpError, notFound } from '../../../core/http/errors.ts';
import { html } from '../../../core/pages/index.ts';
import type { HtmlValue, PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { KrtAnswers } from '../answers.ts';
import { summarizeRows } from '../extract/index.ts';
import type { FurtherMention, KrtRow, RowEvidence } from '../extract/index.ts';
import { sessionsOfDoi } from '../repository.ts';
import type { SessionRecord } from '../repository.ts';
import { parseDoi } from '../routes/common.ts';
import { DoiQuery } from '../schemas/doi.ts';
import type { KrtDatabase } from '../tables.ts';
import { paperHref } from './lookup.ts';
import {
  annotateRows,
  exportButtons,
  mentionsTable,
  promoteForm,
  resourceTable,
  rowSummary,
  type WithCandidates,
} from './resource-table.ts';
import type { AnnotatedRow } from './resource-table.ts';
import { SessionQuery, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';
import { richMessage } from '../messages/index.ts';
import type { KrtKey } from '../messages/index.ts';

const PROVIDERS: Record<string, KrtKey> = {
  'jats-table': 'provider.jatsTable',
  'text-pattern': 'provider.textPattern',
  llm: 'provider.llm',
};

function providerText(provider: string, model: string, w: Words): string {
  const key = PROVIDERS[provider];
  return w.t('provider.named', { provider: key ? w.t(key) : provider, model });
}

function sessionsTable(doi: string, sessions: readonly SessionRecord[], shown: string | null, w: Words): SafeHtml {
  const { t } = w;
  return html`<div class="table-scroll">
    <table class="data">
      <caption>
        ${t('paper.sessionsCaption', { count: sessions.length })}
      </caption>
      <thead>
        <tr>
          <th scope="col">${t('paper.session')}</th>
          <th scope="col">${t('paper.extractor')}</th>
          <th scope="col">${t('paper.status')}</th>
          <th scope="col" class="num">${t('paper.resources')}</th>
          <th scope="col">${t('paper.created')}</th>
        </tr>
      </thead>
      <tbody>
        ${sessions.map(
          (s) =>
            html`<tr>
              <td>
                ${
                  s.session_id === shown
                    ? html`<strong aria-current="true">${s.session_id}</strong> ${t('paper.shown')}`
                    : s.status === 'completed'
                      ? html`<a href="${paperHref(doi)}&amp;session=${encodeURIComponent(s.session_id)}">${s.session_id}</a>`
                      : s.session_id
                }
              </td>
              <td>${providerText(s.provider, s.model, w)}</td>
              <td>
                ${
                  s.status === 'completed'
                    ? html`<span class="badge good">${t('paper.completed')}</span>`
                    : html`<span class="badge bad">${t('paper.failed')}</span> ${s.error ?? t('paper.noReason')}`
                }
              </td>
              <td class="num">${s.total_resources}</td>
              <td>${t('paper.createdAt', { time: s.created_at.slice(0, 19).replace('T', ' ') })}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

interface ShownTable {
  sessionId: string;
  rows: KrtRow[];
  /** Per row: the sentence, confidence and identifier candidates (the API's row_evidence). */
  found: WithCandidates<RowEvidence>[] | null;
  /** The rows found in the text that the row-inclusion model leaves out of the table. */
  mentions: WithCandidates<FurtherMention>[];
  provider: string;
  model: string;
}

/** The paper's table with its RRID checks (`annotated`, one per row) and downloads, or why it has none. */
function tableOfPaper(
  paper: { doi: string; title: string; requested: string | undefined; sessions: readonly SessionRecord[]; table: ShownTable | null },
  annotated: readonly AnnotatedRow[],
  w: Words,
): SafeHtml {
  const { t } = w;
  const { doi, requested, sessions, table } = paper;
  if (!table)
    return html`<section aria-labelledby="table-heading">
      <h2 id="table-heading">${t('paper.tableHeading')}</h2>
      <p class="note" role="status">
        ${
          requested
            ? richMessage(t, 'paper.sessionFailed', {}, { session: html`<code>${requested}</code>` })
            : sessions.length === 0
              ? t('paper.noTable')
              : t('paper.noneCompleted', { count: sessions.length })
        }
        ${richMessage(t, 'paper.adminExtract', {}, { command: html`<code>pdi extract krt ${doi}</code>` })}
      </p>
    </section>`;
  const summary = summarizeRows(table.rows);
  return html`<section aria-labelledby="table-heading">
    <h2 id="table-heading">${t('paper.tableHeading')}</h2>
    <p>
      ${t(requested ? 'paper.tableFrom' : 'paper.tableFromBest', {
        total: summary.total_resources,
        fresh: summary.new_resources,
        reused: summary.reused_resources,
        extractor: providerText(table.provider, table.model, w),
        sessions: sessions.length,
      })}
    </p>
    ${exportButtons(table.sessionId, w)} ${rowSummary(annotated, w)}
    ${resourceTable(annotated, t('paper.tableCaption', { title: paper.title }), w)}
    <form class="chat-start" method="post" action="/chat/start">
      <input type="hidden" name="doi" value="${doi}" />
      <input type="hidden" name="session" value="${table.sessionId}" />
      <button type="submit" class="secondary">${t('paper.editInChat')}</button>
      <span class="muted">${t('paper.editInChatHelp')}</span>
    </form>
  </section>`;
}

/**
 * Beneath the table: the resources the text names that the row-inclusion model leaves out of it, each with its
 * evidence and a button that opens a copy of the table in the chat with that resource added.
 */
function mentionsSection(doi: string, title: string, table: ShownTable | null, w: Words): SafeHtml | '' {
  if (!table || table.mentions.length === 0) return '';
  const { t } = w;
  const promote = (m: FurtherMention) =>
    promoteForm({ doi, session: table.sessionId, mention: String(m.position) }, m.row['RESOURCE NAME'], w);
  return html`<section aria-labelledby="mentions-heading">
    <h2 id="mentions-heading">${t('mentions.heading')}</h2>
    <p>${t('mentions.lead', { count: table.mentions.length })}</p>
    ${mentionsTable(table.mentions, t('mentions.caption', { title }), w, promote)}
  </section>`;
}

/** `?doi=…[&session=…]`: the DOI as GET /api/check-doi-local/ reads it, and the session as the chat reads its id. */
const PaperQuery = Type.Object({ doi: DoiQuery.properties.doi, session: SessionQuery.properties.session });

type PaperMetadata = NonNullable<Awaited<ReturnType<KrtAnswers['checkDoi']>>['metadata']>;

/** The table a paper page shows: the session asked for (null when it failed), else the paper's best (null: none). */
async function shownTable(answers: KrtAnswers, doi: string, requested: string | undefined): Promise<ShownTable | null> {
  if (requested) {
    const asked = await answers.sessionTable(requested);
    if (asked.status !== 'completed') return null;
    const { provider, model } = asked.summary;
    return {
      sessionId: asked.session_id,
      rows: asked.krt_data,
      found: asked.row_evidence,
      mentions: asked.further_mentions,
      provider,
      model,
    };
  }
  try {
    const best = await answers.bestTable(doi);
    const { provider, model } = best.summary;
    return { sessionId: best.session_id, rows: best.krt_data, found: best.row_evidence, mentions: best.further_mentions, provider, model };
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 404) return null;
    throw error;
  }
}

function facts(doi: string, meta: PaperMetadata, w: Words): SafeHtml {
  const { t } = w;
  const fact = (label: string, value: HtmlValue) =>
    html`<dt>${label}</dt>
      <dd>${value}</dd>`;
  return html`<dl class="facts">
    ${fact(t('paper.doi'), html`<a href="https://doi.org/${doi}">${doi}</a>`)} ${meta.authors ? fact(t('paper.authors'), meta.authors) : ''}
    ${meta.date ? fact(t('paper.published'), meta.date) : ''}
    ${meta.journal ? fact(t('paper.journal'), meta.is_preprint ? t('paper.preprint', { journal: meta.journal }) : meta.journal) : ''}
  </dl>`;
}

interface PaperData {
  doi: string;
  requested: string | undefined;
  meta: PaperMetadata;
  sessions: SessionRecord[];
  table: ShownTable | null;
  /** The RRID check of every row of the table shown. */
  annotated: AnnotatedRow[];
}

export function paperPage(app: ServiceApp, answers: KrtAnswers, db: Kysely<KrtDatabase>, kit: PageKit): void {
  definePage(app, kit, {
    url: '/paper',
    query: PaperQuery,
    async read({ query, locale }): Promise<PaperData> {
      const w = wordsOf(locale);
      const { t } = w;
      const doi = parseDoi(query.doi);
      const requested = query.session;
      const check = await answers.checkDoi(doi);
      if (!check.available || !check.metadata) throw notFound(t('error.paperNotStored', { doi }), 'DOI_NOT_FOUND');
      const sessions = await sessionsOfDoi(db, doi);
      if (requested && !sessions.some((s) => s.session_id === requested))
        throw notFound(t('error.notSessionOf', { session: requested, doi }));
      const table = await shownTable(answers, doi, requested);
      const annotated = table ? await annotateRows(answers, db, table.rows, { exclude: doi, found: table.found }) : [];
      return { doi, requested, meta: check.metadata, sessions, table, annotated };
    },
    render({ doi, requested, meta, sessions, table, annotated }, { locale }) {
      const w = wordsOf(locale);
      const { t } = w;
      const tableSection = tableOfPaper({ doi, title: meta.title, requested, sessions, table }, annotated, w);
      return {
        title: meta.title,
        description: t('paper.description', { doi }),
        section: '/',
        body: html`<article>
          <p class="muted"><a href="/">${t('paper.back')}</a></p>
          <h1>${meta.title}</h1>
          ${meta.is_demo ? html`<p class="note"><span class="badge warn">${t('badge.demoArticle')}</span> ${t('paper.demoNote')}</p>` : ''}
          ${facts(doi, meta, w)} ${tableSection} ${mentionsSection(doi, meta.title, table, w)}
          ${
            sessions.length > 0
              ? html`<section aria-labelledby="sessions-heading">
                  <h2 id="sessions-heading">${t('paper.sessionsHeading')}</h2>
                  ${sessionsTable(doi, sessions, table?.sessionId ?? null, w)}
                </section>`
              : ''
          }
        </article>`,
      };
    },
  });
}
