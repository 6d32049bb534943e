// `/chat`: the table-building chat as a panel above the table it builds. Without JavaScript the panel is a form that
// posts to POST /chat, which calls the same chat engine as POST /api/ai/chat/ (KrtAnswers.chat) and answers 303 to
// GET /chat?session=…; the reply travels to that page in a short-lived cookie (never in the URL, where a link could
// put words in the service's mouth). With JavaScript, pages/static/krt-chat.js posts to the API instead and swaps in
// the table from GET /chat/table. POST /chat/start opens a copy of a paper's table in a new chat session.
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { badRequest, HttpError } from '../../../core/http/errors.ts';
import { rateLimitedGroup } from '../../../core/http/rate-limit.ts';
import { defineForm, sameOriginForm } from '../../../core/pages/forms.ts';
import { html } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import type { PageResult } from '../../../core/pages/replies.ts';
import type { ServiceApp, ServiceContext } from '../../../core/service.ts';
import { CHAT_TTL_MS } from '../answers.ts';
import type { KrtAnswers } from '../answers.ts';
import { newChatState } from '../chat/index.ts';
import { isResourceType } from '../extract/krt-row.ts';
import { summarizeRows } from '../extract/index.ts';
import type { FurtherMention, KrtRow } from '../extract/index.ts';
import { loadChatSession, saveChatState } from '../repository.ts';
import { RATE_LIMITS, parseDoi, required } from '../routes/common.ts';
import { ChatBody } from '../schemas/chat.ts';
import { KrtRow as KrtRowSchema, MAX_MESSAGE } from '../schemas/common.ts';
import { DoiBodyIn } from '../schemas/doi.ts';
import type { KrtDatabase } from '../tables.ts';
import { annotateRows, exportButtons, resourceTable, rowSummary } from './resource-table.ts';
import type { AnnotatedRow } from './resource-table.ts';
import { SessionQuery, errorNote, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';
import { richMessage } from '../messages/index.ts';
import type { KrtKey } from '../messages/index.ts';

/** The last exchange, carried from POST /chat to the page it redirects to. */
interface ChatFlash {
  /** The session it belongs to (a cookie of another session is ignored). */
  session: string;
  message: string | null;
  response: string;
  clarifications: string[];
  /** A download link when the message asked for an export. */
  exportUrl: string | null;
}

const FLASH_COOKIE = 'krt_chat_turn';
const FLASH_SECONDS = 120;
/** Cookies hold about 4 KB: long texts are cut (the table itself is always whole on the page). */
const FLASH_TEXT = 1500;

const cut = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

function flashCookie(flash: ChatFlash): string {
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
function readFlash(request: FastifyRequest, session: string | undefined): ChatFlash | null {
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

async function loadRows(db: Kysely<KrtDatabase>, session: string | undefined): Promise<{ rows: KrtRow[]; found: boolean }> {
  if (!session) return { rows: [], found: false };
  const stored = await loadChatSession(db, session, new Date(Date.now() - CHAT_TTL_MS).toISOString());
  return { rows: stored?.state.entries ?? [], found: stored !== null };
}

/** What the chat page shows: the session's table with its RRID checks, and whether the session is stored. */
interface ChatData {
  session: string | undefined;
  rows: KrtRow[];
  found: boolean;
  annotated: AnnotatedRow[];
}

async function readChat(answers: KrtAnswers, db: Kysely<KrtDatabase>, session: string | undefined): Promise<ChatData> {
  const { rows, found } = await loadRows(db, session);
  return { session, rows, found, annotated: await annotateRows(answers, db, rows) };
}

function tableSection({ session, rows, annotated }: ChatData, w: Words): SafeHtml {
  const { t } = w;
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

function chatForm(session: string | undefined, draft: string, w: Words): SafeHtml {
  const { t } = w;
  const q = (key: KrtKey) => html`<q>${t(key)}</q>`;
  return html`<form class="stack chat-form" method="post" action="/chat" data-krt-chat>
    <input type="hidden" name="session_id" value="${session ?? ''}" />
    <label
      >${t('chat.message')}
      <textarea name="message" rows="3" maxlength="${MAX_MESSAGE}" required aria-describedby="chat-help">${draft}</textarea>
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
  </form>`;
}

/**
 * The chat page of a session: the last exchange (from the flash cookie), an error beside the form, the table. One
 * visitor's page: never stored by a cache.
 */
function chatPage(data: ChatData, w: Words, extra: { flash?: ChatFlash | null; error?: SafeHtml; draft?: string } = {}): PageResult {
  const { t } = w;
  const { session, found } = data;
  const flash = extra.flash ?? null;
  return {
    title: t('chat.title'),
    description: t('chat.description'),
    section: '/chat',
    scripts: ['krt-chat.js'],
    headers: { 'cache-control': 'no-store' },
    body: html`<h1>${t('chat.title')}</h1>
      <p>${richMessage(t, 'chat.lead', {}, { example: html`<q>${t('chat.leadExample')}</q>` })}</p>
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
        ${extra.error ?? ''} ${chatForm(session, extra.draft ?? '', w)}
      </section>
      <section class="chat-table" id="chat-table" aria-labelledby="chat-table-heading">${tableSection(data, w)}</section>
      <p class="muted">
        ${richMessage(t, 'chat.fromPaper', { button: t('paper.editInChat') }, { lookup: html`<a href="/">${t('chat.fromPaperLink')}</a>` })}
      </p>`,
  };
}

/**
 * POST /chat/start: a paper's table (the session asked for, else its best) to start a chat from; with `mention`, one
 * of the table's further mentions (its position) promoted into the copy. Or, from the build page, `upload` (the chat
 * session that keeps an uploaded file's table) and `row`, one of the upload's further mentions: an upload is not
 * stored, so its mentions travel in the form; the copy is the visitor's own chat, where any row can be added anyway.
 */
const ChatStartBody = Type.Object({
  doi: Type.Optional(DoiBodyIn.properties.doi),
  session: SessionQuery.properties.session,
  mention: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 100_000, description: 'The position of a further mention of the table to add to the copy.' }),
  ),
  upload: SessionQuery.properties.session,
  row: Type.Optional(
    Type.String({ maxLength: 20_000, description: 'A further mention of the upload: its row, as JSON with the six KRT keys.' }),
  ),
});

/** The rows of an upload's kept table with one of its further mentions (`row`, JSON of a KRT row) appended. */
async function uploadWithMention(
  db: Kysely<KrtDatabase>,
  upload: string,
  raw: string | undefined,
  w: Words,
): Promise<{ rows: KrtRow[]; promoted: string }> {
  let row: unknown;
  try {
    row = JSON.parse(required(raw, 'row'));
  } catch (error) {
    if (error instanceof HttpError) throw error;
  }
  if (!Value.Check(KrtRowSchema, row) || !isResourceType(row['RESOURCE TYPE']) || !['new', 'reuse'].includes(row['NEW/REUSE']))
    throw badRequest(w.t('error.badMentionRow'));
  const { rows, found } = await loadRows(db, upload);
  if (!found) throw new HttpError(404, w.t('error.uploadGone', { session: upload }), 'NOT_FOUND');
  const added: KrtRow = {
    'RESOURCE TYPE': row['RESOURCE TYPE'],
    'RESOURCE NAME': row['RESOURCE NAME'],
    SOURCE: row.SOURCE,
    IDENTIFIER: row.IDENTIFIER,
    'NEW/REUSE': row['NEW/REUSE'] === 'new' ? 'new' : 'reuse',
    'ADDITIONAL INFORMATION': row['ADDITIONAL INFORMATION'],
  };
  return { rows: [...rows, added], promoted: added['RESOURCE NAME'] };
}

/**
 * The rows and title of the table a chat starts from: the session asked for (of that paper, completed), else the
 * best; with `mention`, that further mention of it appended (its name returned to say so).
 */
async function startingTable(
  answers: KrtAnswers,
  doi: string,
  requested: string | undefined,
  mention: number | undefined,
  w: Words,
): Promise<{ rows: KrtRow[]; title: string; promoted: string | null }> {
  let table: { rows: KrtRow[]; title: string; mentions: FurtherMention[]; session: string };
  if (!requested) {
    const best = await answers.bestTable(doi);
    table = { rows: best.krt_data, title: best.article_info.title, mentions: best.further_mentions, session: best.session_id };
  } else {
    const asked = await answers.sessionTable(requested);
    if (asked.doi !== doi) throw badRequest(w.t('error.notSessionOf', { session: requested, doi }));
    if (asked.status !== 'completed') throw new HttpError(409, w.t('error.sessionFailed', { session: requested }), 'SESSION_FAILED');
    table = { rows: asked.krt_data, title: asked.title, mentions: asked.further_mentions, session: requested };
  }
  if (mention === undefined) return { rows: table.rows, title: table.title, promoted: null };
  const promoted = table.mentions.find((m) => m.position === mention);
  if (!promoted) throw badRequest(w.t('error.noSuchMention', { session: table.session, mention }));
  return { rows: [...table.rows, promoted.row], title: table.title, promoted: promoted.row['RESOURCE NAME'] };
}

const chatHref = (session: string) => `/chat?session=${encodeURIComponent(session)}`;

export function chatPages(app: ServiceApp, ctx: ServiceContext, answers: KrtAnswers, db: Kysely<KrtDatabase>, kit: PageKit): Promise<void> {
  definePage(app, kit, {
    url: '/chat',
    query: SessionQuery,
    cache: false,
    async read({ query, request }) {
      return { chat: await readChat(answers, db, query.session), flash: readFlash(request, query.session) };
    },
    render({ chat, flash }, { locale }) {
      const page = chatPage(chat, wordsOf(locale), { flash });
      // The reply is shown once: its cookie is cleared by the page that shows it.
      return flash ? { ...page, headers: { ...page.headers, 'set-cookie': clearFlash } } : page;
    },
  });

  // The table alone, for krt-chat.js to swap in after a message sent to the API (a bad session: the error page).
  app.get('/chat/table', { schema: { querystring: SessionQuery } }, async (request, reply) => {
    const data = await readChat(answers, db, request.query.session);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    return tableSection(data, wordsOf(kit.locale(request))).text;
  });

  // The form's posts have the API chat's budget per client (RATE_LIMITS.chat a minute), counted apart from it.
  const onRequest = sameOriginForm(kit.publicUrl('krt'));
  return rateLimitedGroup(app, ctx, { name: 'chat-page', max: RATE_LIMITS.chat }, (scope) => {
    defineForm(scope, kit, {
      url: '/chat',
      body: ChatBody,
      onRequest,
      act: async ({ body }) => {
        const message = required(body.message, 'message');
        return { message, turn: await answers.chat(message, body.session_id?.trim() || undefined) };
      },
      render: ({ message, turn }) => ({
        redirect: chatHref(turn.session_id),
        headers: {
          'set-cookie': flashCookie({
            session: turn.session_id,
            message,
            response: turn.response,
            clarifications: turn.clarifications,
            exportUrl: turn.export?.url ?? null,
          }),
        },
      }),
      // The page again, with what was typed and the message beside the form.
      async refused(problem, { form, locale }) {
        const session = form.session_id && Value.Check(ChatBody.properties.session_id, form.session_id) ? form.session_id : undefined;
        const draft = (form.message ?? '').slice(0, MAX_MESSAGE);
        return chatPage(await readChat(answers, db, session), wordsOf(locale), { error: errorNote(problem.message, locale), draft });
      },
    });

    defineForm(scope, kit, {
      url: '/chat/start',
      body: ChatStartBody,
      onRequest,
      async act({ body, locale }) {
        const w = wordsOf(locale);
        let rows: KrtRow[];
        let response: string;
        if (body.upload) {
          const copy = await uploadWithMention(db, body.upload, body.row, w);
          rows = copy.rows;
          response = w.t('chat.startedFromUpload', { name: copy.promoted, rows: rows.length });
        } else {
          const start = await startingTable(answers, parseDoi(body.doi), body.session || undefined, body.mention, w);
          rows = start.rows;
          response =
            start.promoted === null
              ? w.t('chat.startedFrom', { title: start.title, rows: rows.length })
              : w.t('chat.startedWithMention', { title: start.title, name: start.promoted, rows: rows.length });
        }
        const id = randomUUID();
        await saveChatState(db, id, { ...newChatState(), entries: rows }, new Date().toISOString());
        return { id, response };
      },
      render: ({ id, response }) => ({
        redirect: chatHref(id),
        headers: { 'set-cookie': flashCookie({ session: id, message: null, response, clarifications: [], exportUrl: null }) },
      }),
    });
  });
}
