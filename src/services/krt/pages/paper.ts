// `/paper?doi=…[&session=…]`: a paper of the store with its key resources table (the best table, as
// GET /api/krt/doi/{doi}/ chooses it, or the extraction session asked for), export buttons to the API's downloads,
// the RRID check of every row (validation badges, suggestions with their evidence, abstentions), the paper's
// extraction sessions, and a button that opens the table in the chat to edit it.
import type { Kysely } from 'kysely';
import { HttpError, missingParameter, notFound } from '../../../core/http/errors.ts';
import { html } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { KrtAnswers } from '../answers.ts';
import { summarizeRows } from '../extract/index.ts';
import type { KrtRow, RowEvidence } from '../extract/index.ts';
import { sessionsOfDoi } from '../repository.ts';
import type { SessionRecord } from '../repository.ts';
import { parseDoi } from '../routes/common.ts';
import type { KrtDatabase } from '../tables.ts';
import { paperHref } from './lookup.ts';
import { annotateRows, exportButtons, resourceTable, rowSummary } from './resource-table.ts';
import { field, parseSessionId, plural, sendPage } from './shared.ts';

const PROVIDERS: Record<string, string> = {
  'jats-table': "the authors' own key resources table",
  'text-pattern': 'the text extractor (read from the methods text)',
  llm: 'a language model',
};

function providerText(provider: string, model: string): string {
  return `${PROVIDERS[provider] ?? provider} (${model})`;
}

function sessionsTable(doi: string, sessions: readonly SessionRecord[], shown: string | null): SafeHtml {
  return html`<div class="table-scroll">
    <table class="data">
      <caption>
        Extraction sessions of this paper (${sessions.length})
      </caption>
      <thead>
        <tr>
          <th scope="col">Session</th>
          <th scope="col">Extractor</th>
          <th scope="col">Status</th>
          <th scope="col" class="num">Resources</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        ${sessions.map(
          (s) =>
            html`<tr>
              <td>
                ${
                  s.session_id === shown
                    ? html`<strong aria-current="true">${s.session_id}</strong> (shown)`
                    : s.status === 'completed'
                      ? html`<a href="${paperHref(doi)}&amp;session=${encodeURIComponent(s.session_id)}">${s.session_id}</a>`
                      : s.session_id
                }
              </td>
              <td>${providerText(s.provider, s.model)}</td>
              <td>
                ${
                  s.status === 'completed'
                    ? html`<span class="badge good">completed</span>`
                    : html`<span class="badge bad">failed</span> ${s.error ?? 'no reason recorded'}`
                }
              </td>
              <td class="num">${s.total_resources}</td>
              <td>${s.created_at.slice(0, 19).replace('T', ' ')} UTC</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

export function paperPage(app: ServiceApp, answers: KrtAnswers, db: Kysely<KrtDatabase>, kit: PageKit): void {
  app.get('/paper', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const rawDoi = field(request.query, 'doi');
      if (!rawDoi?.trim()) throw missingParameter('doi');
      const doi = parseDoi(rawDoi);
      const requested = parseSessionId('session', field(request.query, 'session'));
      const check = await answers.checkDoi(doi);
      if (!check.available || !check.metadata)
        throw notFound(`${doi} is not in the local store: look it up by title, or check the DOI`, 'DOI_NOT_FOUND');
      const meta = check.metadata;
      const sessions = await sessionsOfDoi(db, doi);

      let table: { sessionId: string; rows: KrtRow[]; found: RowEvidence[] | null; provider: string; model: string } | null = null;
      if (requested) {
        if (!sessions.some((s) => s.session_id === requested)) throw notFound(`session ${requested} is not a session of ${doi}`);
        const t = await answers.sessionTable(requested);
        if (t.status === 'completed')
          table = {
            sessionId: t.session_id,
            rows: t.krt_data,
            found: t.row_evidence,
            provider: t.summary.provider,
            model: t.summary.model,
          };
      } else {
        try {
          const best = await answers.bestTable(doi);
          table = {
            sessionId: best.session_id,
            rows: best.krt_data,
            found: best.row_evidence,
            provider: best.summary.provider,
            model: best.summary.model,
          };
        } catch (error) {
          if (!(error instanceof HttpError && error.statusCode === 404)) throw error;
        }
      }

      let tableSection: SafeHtml;
      if (table) {
        const annotated = await annotateRows(answers, db, table.rows, { exclude: doi, found: table.found });
        const summary = summarizeRows(table.rows);
        tableSection = html`<section aria-labelledby="table-heading">
          <h2 id="table-heading">Key resources table</h2>
          <p>
            ${plural(summary.total_resources, 'resource')} (${summary.new_resources} new, ${summary.reused_resources} reused), from
            ${providerText(table.provider, table.model)}${requested ? '' : html`, the best of ${plural(sessions.length, 'session')}`}.
          </p>
          ${exportButtons(table.sessionId)} ${rowSummary(annotated)} ${resourceTable(annotated, `Key resources of “${meta.title}”`)}
          <form class="chat-start" method="post" action="/chat/start">
            <input type="hidden" name="doi" value="${doi}" />
            <input type="hidden" name="session" value="${table.sessionId}" />
            <button type="submit" class="secondary">Edit this table in the chat</button>
            <span class="muted">A copy of the table opens in the chat, where you can add, change or remove resources.</span>
          </form>
        </section>`;
      } else {
        tableSection = html`<section aria-labelledby="table-heading">
          <h2 id="table-heading">Key resources table</h2>
          <p class="note" role="status">
            ${
              requested
                ? html`Session <code>${requested}</code> failed, so it has no table.`
                : sessions.length === 0
                  ? 'No key resources table has been extracted from this paper yet.'
                  : html`None of the ${plural(sessions.length, 'extraction session')} of this paper completed.`
            }
            An administrator can extract it with <code>pdi extract krt ${doi}</code>.
          </p>
        </section>`;
      }

      return {
        title: meta.title,
        description: `The key resources table of ${doi}, with RRID validation and suggestions.`,
        section: '/',
        body: html`<article>
          <p class="muted"><a href="/">← Look up another paper</a></p>
          <h1>${meta.title}</h1>
          ${
            meta.is_demo
              ? html`<p class="note">
                  <span class="badge warn">generated demo article</span> Not a real preprint: written by pdi to show the service.
                </p>`
              : ''
          }
          <dl class="facts">
            <dt>DOI</dt>
            <dd><a href="https://doi.org/${doi}">${doi}</a></dd>
            ${
              meta.authors
                ? html`<dt>Authors</dt>
                    <dd>${meta.authors}</dd>`
                : ''
            }
            ${
              meta.date
                ? html`<dt>Published</dt>
                    <dd>${meta.date}</dd>`
                : ''
            }
            ${
              meta.journal
                ? html`<dt>Journal or server</dt>
                    <dd>${meta.journal}${meta.is_preprint ? ' (preprint)' : ''}</dd>`
                : ''
            }
          </dl>
          ${tableSection}
          ${
            sessions.length > 0
              ? html`<section aria-labelledby="sessions-heading">
                  <h2 id="sessions-heading">Extraction sessions</h2>
                  ${sessionsTable(doi, sessions, table?.sessionId ?? null)}
                </section>`
              : ''
          }
        </article>`,
      };
    }),
  );
}
