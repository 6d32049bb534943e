// `/chat`: the table-building chat as a panel above the table it builds. Without JavaScript the panel is a form that
// posts to POST /chat, which calls the same chat engine as POST /api/ai/chat/ (KrtAnswers.chat) and answers 303 to
// GET /chat?session=…; the reply travels to that page in a short-lived cookie (never in the URL, where a link could
// put words in the service's mouth). With JavaScript, pages/static/krt-chat.js posts to the API instead and swaps in
// the table from GET /chat/table. POST /chat/start opens a copy of a paper's table in a new chat session.
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { badRequest, HttpError } from '../../../core/http/errors.ts';
import { rateLimitedGroup } from '../../../core/http/rate-limit.ts';
import { html } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp, ServiceContext } from '../../../core/service.ts';
import { CHAT_TTL_MS } from '../answers.ts';
import type { KrtAnswers } from '../answers.ts';
import { newChatState } from '../chat/index.ts';
import { summarizeRows } from '../extract/index.ts';
import type { KrtRow } from '../extract/index.ts';
import { loadChatSession, saveChatState } from '../repository.ts';
import { RATE_LIMITS, parseDoi } from '../routes/common.ts';
import { MAX_MESSAGE } from '../schemas/common.ts';
import type { KrtDatabase } from '../tables.ts';
import { annotateRows, exportButtons, resourceTable, rowSummary } from './resource-table.ts';
import { clientError, errorNote, field, limitedText, parseSessionId, sendPage, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';
import { richMessage } from '../messages/index.ts';
import type { KrtKey } from '../messages/index.ts';
import { sameOriginForm } from '../../../core/pages/forms.ts';

/** The last exchange, carried from POST /chat to the page it redirects to. */
export interface ChatFlash {
  /** The session it belongs to (a cookie of another session is ignored). */
  session: string;
  message: string | null;
  response: string;
  clarifications: string[];
  /** A download link when the message asked for an export. */
  exportUrl: string | null;
}

export const FLASH_COOKIE = 'krt_chat_turn';
const FLASH_SECONDS = 120;
/** Cookies hold about 4 KB: long texts are cut (the table itself is always whole on the page). */
const FLASH_TEXT = 1500;

const cut = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

export function flashCookie(flash: ChatFlash): string {
  const value = Buffer.from(
    JSON.stringify({
      ...flash,
      message: flash.message === null ? null : cut(flash.message, 300),
      response: cut(flash.response, FLASH_TEXT),
      clarifications: flash.clarifications.slice(0, 5).map((c) => cut(c, 300)),
    }),
  ).toString('base64url');
  return `${FLASH_COOKIE}=${value}; Path=/chat; Max-Age=${FLASH_SECONDS}; HttpOnly; SameSite=Lax`;
}

/** The flash of `session` from the request's cookies, or null (absent, of another session, or unreadable). */
export function readFlash(request: FastifyRequest, session: string | undefined): ChatFlash | null {
  const cookie = request.headers.cookie;
  if (!cookie || !session) return null;
  for (const part of cookie.split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name !== FLASH_COOKIE || !value) continue;
    try {
      const flash = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<ChatFlash>;
      if (flash.session !== session || typeof flash.response !== 'string') return null;
      return {
        session,
        message: typeof flash.message === 'string' ? flash.message : null,
        response: flash.response,
        clarifications: Array.isArray(flash.clarifications) ? flash.clarifications.filter((c) => typeof c === 'string') : [],
        exportUrl: typeof flash.exportUrl === 'string' && flash.exportUrl.startsWith('/api/export/') ? flash.exportUrl : null,
      };
    } catch {
      return null;
    }
  }
  return null;
}

const clearFlash = `${FLASH_COOKIE}=; Path=/chat; Max-Age=0; HttpOnly; SameSite=Lax`;

function exchange(flash: ChatFlash, w: Words): SafeHtml {
  const { t } = w;
  return html`${
      flash.message
        ? html`<li class="you">
            <span class="who">${t('chat.you')}</span>
            <p>${flash.message}</p>
          </li>`
        : ''
    }
    <li class="assistant">
      <span class="who">${t('chat.builder')}</span>
      <p>${flash.response}</p>
      ${
        flash.clarifications.length > 0
          ? html`<ul class="clarifications">
              ${flash.clarifications.map((c) => html`<li>${c}</li>`)}
            </ul>`
          : ''
      }
      ${flash.exportUrl ? html`<p><a class="button secondary" href="${flash.exportUrl}" download>${t('chat.download')}</a></p>` : ''}
    </li>`;
}

async function tableSection(
  answers: KrtAnswers,
  db: Kysely<KrtDatabase>,
  session: string | undefined,
  rows: readonly KrtRow[],
  w: Words,
): Promise<SafeHtml> {
  const { t } = w;
  const annotated = await annotateRows(answers, db, rows);
  const summary = summarizeRows(rows);
  return html`<h2 id="chat-table-heading">${t('chat.tableHeading')}</h2>
    ${
      rows.length > 0 && session
        ? html`<p>
              ${t('chat.tableSummary', { total: summary.total_resources, fresh: summary.new_resources, reused: summary.reused_resources })}
            </p>
            ${exportButtons(session, w)} ${rowSummary(annotated, w)}`
        : ''
    }
    ${resourceTable(annotated, t('chat.tableCaption'), w)}`;
}

async function loadRows(db: Kysely<KrtDatabase>, session: string | undefined): Promise<{ rows: KrtRow[]; found: boolean }> {
  if (!session) return { rows: [], found: false };
  const stored = await loadChatSession(db, session, new Date(Date.now() - CHAT_TTL_MS).toISOString());
  return { rows: stored?.state.entries ?? [], found: stored !== null };
}

interface ChatDeps {
  answers: KrtAnswers;
  db: Kysely<KrtDatabase>;
  kit: PageKit;
}

/** The chat page of a session: the last exchange (from the flash cookie), an error beside the form, the table. */
async function chatPage(
  { answers, db, kit }: ChatDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  session: string | undefined,
  extra: { flash?: ChatFlash | null; error?: { status: number; message: string }; draft?: string } = {},
): Promise<string> {
  const { rows, found } = await loadRows(db, session);
  const flash = extra.flash ?? null;
  const w = wordsOf(kit, request);
  const { t } = w;
  const q = (key: KrtKey) => html`<q>${t(key)}</q>`;
  reply.header('cache-control', 'no-store');
  return sendPage(kit, request, reply, async () => ({
    status: extra.error?.status,
    title: t('chat.title'),
    description: t('chat.description'),
    section: '/chat',
    scripts: ['krt-chat.js'],
    body: html`<h1>${t('chat.title')}</h1>
      <p>${richMessage(t, 'chat.lead', {}, { example: q('chat.leadExample') })}</p>
      <p class="note">${t('chat.note')}</p>
      ${
        session && !found && !flash
          ? html`<p class="note" role="status">${richMessage(t, 'chat.noSession', {}, { session: html`<code>${session}</code>` })}</p>`
          : ''
      }
      <section class="chat-panel" aria-labelledby="chat-heading">
        <h2 id="chat-heading">${t('chat.heading')}</h2>
        <ol class="chat-log" id="chat-log" aria-live="polite" data-chat-log>
          ${flash ? exchange(flash, w) : ''}
        </ol>
        ${extra.error ? errorNote(extra.error.message) : ''}
        <form class="stack chat-form" method="post" action="/chat" data-krt-chat>
          <input type="hidden" name="session_id" value="${session ?? ''}" />
          <label
            >${t('chat.message')}
            <textarea name="message" rows="3" maxlength="${MAX_MESSAGE}" required aria-describedby="chat-help">
${extra.draft ?? ''}</textarea>
          </label>
          <p id="chat-help" class="muted">
            ${richMessage(
              t,
              'chat.try',
              {},
              {
                add: q('chat.tryAdd'),
                change: q('chat.tryChange'),
                remove: q('chat.tryRemove'),
                list: q('chat.tryList'),
                exportAs: q('chat.tryExport'),
                help: q('chat.tryHelp'),
              },
            )}
          </p>
          <div><button type="submit">${t('chat.send')}</button></div>
        </form>
      </section>
      <section class="chat-table" id="chat-table" aria-labelledby="chat-table-heading">
        ${await tableSection(answers, db, session, rows, w)}
      </section>
      <p class="muted">
        ${richMessage(t, 'chat.fromPaper', { button: t('paper.editInChat') }, { lookup: html`<a href="/">${t('chat.fromPaperLink')}</a>` })}
      </p>`,
  }));
}

export function chatPages(app: ServiceApp, ctx: ServiceContext, answers: KrtAnswers, db: Kysely<KrtDatabase>, kit: PageKit): Promise<void> {
  const deps: ChatDeps = { answers, db, kit };
  app.get('/chat', async (request, reply) => {
    const session = parseSessionId('session', field(request.query, 'session'), wordsOf(kit, request).t);
    const flash = readFlash(request, session);
    if (flash) reply.header('set-cookie', clearFlash);
    return chatPage(deps, request, reply, session, { flash });
  });

  // The table alone, for krt-chat.js to swap in after a message sent to the API.
  app.get('/chat/table', async (request, reply) => {
    const session = parseSessionId('session', field(request.query, 'session'), wordsOf(kit, request).t);
    const { rows } = await loadRows(db, session);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    return (await tableSection(answers, db, session, rows, wordsOf(kit, request))).text;
  });

  // The form's posts have the API chat's budget per client (RATE_LIMITS.chat a minute), counted apart from it.
  const sameOrigin = sameOriginForm(kit.publicUrl('krt'));
  return rateLimitedGroup(app, ctx, { name: 'chat-page', max: RATE_LIMITS.chat }, (scope) => {
    scope.post('/chat', { onRequest: sameOrigin }, async (request, reply) => {
      const draft = field(request.body, 'message') ?? '';
      let session: string | undefined;
      let message: string;
      try {
        session = parseSessionId('session_id', field(request.body, 'session_id'), wordsOf(kit, request).t);
        message = limitedText('message', draft, MAX_MESSAGE, wordsOf(kit, request).t)?.trim() ?? '';
        if (!message) throw badRequest(wordsOf(kit, request).t('error.emptyMessage'));
      } catch (error) {
        return chatPage(deps, request, reply, session, { error: clientError(error), draft: draft.slice(0, MAX_MESSAGE) });
      }
      const turn = await answers.chat(message, session);
      reply.header(
        'set-cookie',
        flashCookie({
          session: turn.session_id,
          message,
          response: turn.response,
          clarifications: turn.clarifications,
          exportUrl: turn.export?.url ?? null,
        }),
      );
      return reply.redirect(`/chat?session=${encodeURIComponent(turn.session_id)}`, 303);
    });

    scope.post('/chat/start', { onRequest: sameOrigin }, async (request, reply) => {
      const { t } = wordsOf(kit, request);
      const doi = parseDoi(field(request.body, 'doi'));
      const requested = parseSessionId('session', field(request.body, 'session'), wordsOf(kit, request).t);
      let rows: KrtRow[];
      let title: string;
      if (requested) {
        const asked = await answers.sessionTable(requested);
        if (asked.doi !== doi) throw badRequest(t('error.notSessionOf', { session: requested, doi }));
        if (asked.status !== 'completed') throw new HttpError(409, t('error.sessionFailed', { session: requested }), 'SESSION_FAILED');
        rows = asked.krt_data;
        title = asked.title;
      } else {
        const best = await answers.bestTable(doi);
        rows = best.krt_data;
        title = best.article_info.title;
      }
      const id = randomUUID();
      await saveChatState(db, id, { ...newChatState(), entries: rows }, new Date().toISOString());
      reply.header(
        'set-cookie',
        flashCookie({
          session: id,
          message: null,
          response: t('chat.startedFrom', { title, rows: rows.length }),
          clarifications: [],
          exportUrl: null,
        }),
      );
      return reply.redirect(`/chat?session=${encodeURIComponent(id)}`, 303);
    });
  });
}
