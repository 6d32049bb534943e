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
import { clientError, errorNote, field, limitedText, parseSessionId, plural, sendPage } from './shared.ts';
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

function exchange(flash: ChatFlash): SafeHtml {
  return html`${
      flash.message
        ? html`<li class="you">
            <span class="who">You</span>
            <p>${flash.message}</p>
          </li>`
        : ''
    }
    <li class="assistant">
      <span class="who">Table builder</span>
      <p>${flash.response}</p>
      ${
        flash.clarifications.length > 0
          ? html`<ul class="clarifications">
              ${flash.clarifications.map((c) => html`<li>${c}</li>`)}
            </ul>`
          : ''
      }
      ${flash.exportUrl ? html`<p><a class="button secondary" href="${flash.exportUrl}" download>Download the table</a></p>` : ''}
    </li>`;
}

async function tableSection(
  answers: KrtAnswers,
  db: Kysely<KrtDatabase>,
  session: string | undefined,
  rows: readonly KrtRow[],
): Promise<SafeHtml> {
  const annotated = await annotateRows(answers, db, rows);
  const summary = summarizeRows(rows);
  return html`<h2 id="chat-table-heading">The table</h2>
    ${
      rows.length > 0 && session
        ? html`<p>${plural(summary.total_resources, 'resource')} (${summary.new_resources} new, ${summary.reused_resources} reused).</p>
            ${exportButtons(session)} ${rowSummary(annotated)}`
        : ''
    }
    ${resourceTable(annotated, 'Key resources table of this chat session')}`;
}

async function loadRows(db: Kysely<KrtDatabase>, session: string | undefined): Promise<{ rows: KrtRow[]; found: boolean }> {
  if (!session) return { rows: [], found: false };
  const stored = await loadChatSession(db, session, new Date(Date.now() - CHAT_TTL_MS).toISOString());
  return { rows: stored?.state.entries ?? [], found: stored !== null };
}

export function chatPages(app: ServiceApp, ctx: ServiceContext, answers: KrtAnswers, db: Kysely<KrtDatabase>, kit: PageKit): Promise<void> {
  async function chatPage(
    request: FastifyRequest,
    reply: FastifyReply,
    session: string | undefined,
    extra: { flash?: ChatFlash | null; error?: { status: number; message: string }; draft?: string } = {},
  ): Promise<string> {
    const { rows, found } = await loadRows(db, session);
    const flash = extra.flash ?? null;
    reply.header('cache-control', 'no-store');
    return sendPage(kit, request, reply, async () => ({
      status: extra.error?.status,
      title: 'Build a key resources table',
      description: 'Build a key resources table in conversation, check its RRIDs and download it.',
      section: '/chat',
      scripts: ['krt-chat.js'],
      body: html`<h1>Build a key resources table</h1>
        <p>
          Tell the table builder what you used, one resource at a time — for example
          <q>Add rabbit anti-GFP antibody from Abcam, catalog ab290</q> — then change, remove or list rows, and download the table. It asks
          for what a row still lacks.
        </p>
        <p class="note">
          The replies come from pdi's rule-based table builder (krt-chat-1), not a language model. It fills in an RRID only from your
          message or from papers of the store that link that vendor's catalog number to one; sessions are kept for 24 hours after the last
          message.
        </p>
        ${
          session && !found && !flash
            ? html`<p class="note" role="status">
                No table is stored under session <code>${session}</code> (sessions expire 24 hours after their last message). Your next
                message starts a new table under it.
              </p>`
            : ''
        }
        <section class="chat-panel" aria-labelledby="chat-heading">
          <h2 id="chat-heading">Chat</h2>
          <ol class="chat-log" id="chat-log" aria-live="polite" data-chat-log>
            ${flash ? exchange(flash) : ''}
          </ol>
          ${extra.error ? errorNote(extra.error.message) : ''}
          <form class="stack chat-form" method="post" action="/chat" data-krt-chat>
            <input type="hidden" name="session_id" value="${session ?? ''}" />
            <label
              >Message
              <textarea name="message" rows="3" maxlength="${MAX_MESSAGE}" required aria-describedby="chat-help">
${extra.draft ?? ''}</textarea>
            </label>
            <p id="chat-help" class="muted">
              Try: <q>add mouse anti-FLAG from Sigma, Cat# F1804</q>, <q>change row 2 vendor to Abcam</q>, <q>remove row 3</q>, <q>list</q>,
              <q>export as excel</q>, <q>help</q>.
            </p>
            <div><button type="submit">Send</button></div>
          </form>
        </section>
        <section class="chat-table" id="chat-table" aria-labelledby="chat-table-heading">
          ${await tableSection(answers, db, session, rows)}
        </section>
        <p class="muted">
          To start from a paper's table instead, <a href="/">look the paper up</a> and press “Edit this table in the chat”.
        </p>`,
    }));
  }

  app.get('/chat', async (request, reply) => {
    const session = parseSessionId('session', field(request.query, 'session'));
    const flash = readFlash(request, session);
    if (flash) reply.header('set-cookie', clearFlash);
    return chatPage(request, reply, session, { flash });
  });

  // The table alone, for krt-chat.js to swap in after a message sent to the API.
  app.get('/chat/table', async (request, reply) => {
    const session = parseSessionId('session', field(request.query, 'session'));
    const { rows } = await loadRows(db, session);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    return (await tableSection(answers, db, session, rows)).text;
  });

  // The form's posts have the API chat's budget per client (RATE_LIMITS.chat a minute), counted apart from it.
  const sameOrigin = sameOriginForm(kit.publicUrl('krt'));
  return rateLimitedGroup(app, ctx, { name: 'chat-page', max: RATE_LIMITS.chat }, (scope) => {
    scope.post('/chat', { onRequest: sameOrigin }, async (request, reply) => {
      const draft = field(request.body, 'message') ?? '';
      let session: string | undefined;
      let message: string;
      try {
        session = parseSessionId('session_id', field(request.body, 'session_id'));
        message = limitedText('message', draft, MAX_MESSAGE)?.trim() ?? '';
        if (!message) throw badRequest('message must not be empty: write what to add, change or remove');
      } catch (error) {
        return chatPage(request, reply, session, { error: clientError(error), draft: draft.slice(0, MAX_MESSAGE) });
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
      const doi = parseDoi(field(request.body, 'doi'));
      const requested = parseSessionId('session', field(request.body, 'session'));
      let rows: KrtRow[];
      let title: string;
      if (requested) {
        const t = await answers.sessionTable(requested);
        if (t.doi !== doi) throw badRequest(`session ${requested} is not a session of ${doi}`);
        if (t.status !== 'completed') throw new HttpError(409, `session ${requested} failed; it has no table to edit`, 'SESSION_FAILED');
        rows = t.krt_data;
        title = t.title;
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
          response: `This chat starts from a copy of the table of “${title}” (${plural(rows.length, 'row')}); the paper's own table stays as it is. Ask me to add, change or remove resources.`,
          clarifications: [],
          exportUrl: null,
        }),
      );
      return reply.redirect(`/chat?session=${encodeURIComponent(id)}`, 303);
    });
  });
}
