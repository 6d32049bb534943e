// `/build`: a key resources table from a DOI or from an uploaded JATS file.
// - The DOI (POST /build/doi): a paper the store holds opens at its page; any other goes through the fetch path of
//   POST /api/krt/fetch/ (sync.ts fetchArticles, the same importer and guards as `pdi import krt`) when the operator
//   enables it for the page (PDI_KRT_PAGE_FETCH=true); otherwise the field is disabled and the page says why.
// - The file (POST /build, multipart/form-data): at most MAX_JATS_BYTES (the fetch path's limit), read in memory,
//   extracted in a worker thread by the importer's own extractor (its parser drops the DOCTYPE and resolves no
//   entity outside the file). The article is NOT stored: an upload is unauthenticated and its DOI is only what the
//   file claims, so storing it could replace a stored paper or put unverified RRIDs into the knowledge base. The
//   table is kept as a chat session (24 hours, like the chat's tables), so that the existing export routes download it
//   and the chat can edit it. Every refusal (too large, not multipart, not well-formed XML, not JATS) is a 4xx drawn
//   on the page beside the form, and changes nothing.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { badRequest, notFound } from '../../../core/http/errors.ts';
import { rateLimitedGroup } from '../../../core/http/rate-limit.ts';
import { defineForm, sameOriginForm } from '../../../core/pages/forms.ts';
import { html } from '../../../core/pages/index.ts';
import type { PageKit, PageLocale, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import { pageErrors } from '../../../core/pages/replies.ts';
import type { PageProblem, PageResult } from '../../../core/pages/replies.ts';
import type { ServiceApp, ServiceContext } from '../../../core/service.ts';
import type { KrtAnswers } from '../answers.ts';
import { newChatState } from '../chat/index.ts';
import { splitTable } from '../extract/index.ts';
import type { FileExtraction, FurtherMention } from '../extract/index.ts';
import type { WorkerReply, WorkerRequest } from '../extract/extract-worker.ts';
import { normalizeDoi } from '../jats/index.ts';
import { stripDoctype } from '../jats/entities.ts';
import type { KrtKey } from '../messages/index.ts';
import { saveChatState } from '../repository.ts';
import { RATE_LIMITS, parseDoi } from '../routes/common.ts';
import { DoiBodyIn } from '../schemas/doi.ts';
import { MAX_JATS_BYTES, fetchForWaitingClient } from '../sync.ts';
import type { KrtDatabase } from '../tables.ts';
import type { Translate } from '../../../core/i18n/catalogue.ts';
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
import { errorNote, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';

const MIB = 1024 * 1024;

/** Whether the page may fetch papers by DOI (PDI_KRT_PAGE_FETCH=true): fetching writes to the store. */
function pageFetchEnabled(env: NodeJS.ProcessEnv): boolean {
  return env.PDI_KRT_PAGE_FETCH?.trim().toLowerCase() === 'true';
}

/**
 * What the prolog says: the name of the document element (read past the declaration, comments, processing
 * instructions and the DOCTYPE), and whether the DOCTYPE declares entities. The parser drops the DOCTYPE and never
 * expands a declared entity, so a file that declares some would be read otherwise than it says: it is refused.
 */
export function readProlog(xml: string): { root: string | null; declaresEntities: boolean } {
  const text = xml.replace(/^\uFEFF/, '');
  const stripped = stripDoctype(text);
  const m = /^\s*(?:(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->)\s*)*<([A-Za-z_][\w.:-]*)/.exec(stripped);
  // The DOCTYPE sits before the document element, so the prolog of the file is as long as the stripped one plus it.
  const prolog = text.slice(0, (m ? m[0].length : stripped.length) + (text.length - stripped.length));
  return { root: m ? m[1] : null, declaresEntities: /<!ENTITY/.test(prolog) };
}

/** One file through the importer's extractor, in a worker thread (a large file must not hold up other requests). */
async function extractInWorker(file: string): Promise<{ ok: true; extraction: FileExtraction } | { ok: false; error: string }> {
  const worker = new Worker(new URL('../extract/extract-worker.ts', import.meta.url));
  try {
    return await new Promise((resolve, reject) => {
      worker.once('message', (reply: WorkerReply) =>
        resolve(reply.ok ? { ok: true, extraction: reply.result } : { ok: false, error: reply.error }),
      );
      worker.once('error', reject);
      worker.postMessage({ seq: 0, file, mode: 'auto' } satisfies WorkerRequest);
    });
  } finally {
    await worker.terminate();
  }
}

function forms(t: Translate<KrtKey>, fetchEnabled: boolean, doi = ''): SafeHtml {
  return html`<section aria-labelledby="doi-heading">
      <h2 id="doi-heading">${t('build.doiHeading')}</h2>
      <p class="${fetchEnabled ? 'muted' : 'note'}" id="doi-status">${fetchEnabled ? t('build.doiEnabled') : t('build.doiDisabled')}</p>
      <form class="filters" method="post" action="/build/doi">
        <label
          >${t('build.doiLabel')}
          <input
            type="text"
            name="doi"
            value="${doi}"
            size="40"
            maxlength="500"
            spellcheck="false"
            aria-describedby="doi-help doi-status"
            ${fetchEnabled ? '' : html`disabled`}
        /></label>
        <button type="submit" ${fetchEnabled ? '' : html`disabled`}>${t('build.doiSubmit')}</button>
        <p id="doi-help" class="muted">${t('build.doiHelp')}</p>
      </form>
    </section>
    <section aria-labelledby="file-heading">
      <h2 id="file-heading">${t('build.fileHeading')}</h2>
      <form class="stack" method="post" action="/build" enctype="multipart/form-data">
        <label
          >${t('build.fileLabel')}
          <input type="file" name="file" accept=".xml,.nxml,application/xml,text/xml" required aria-describedby="file-help" />
        </label>
        <p id="file-help" class="muted">${t('build.fileHelp', { max: MAX_JATS_BYTES / MIB })}</p>
        <div><button type="submit">${t('build.fileSubmit')}</button></div>
      </form>
    </section>`;
}

/** An uploaded file's table, kept as a chat session (`session`) for its downloads and the chat; nothing else is written. */
interface Upload {
  name: string;
  bytes: number;
  extraction: FileExtraction;
  session: string;
  doi: string | null;
  /** Whether the store holds the DOI the file names. */
  stored: boolean;
  /** The key resources table's rows with their RRID checks; the further mentions apart. */
  annotated: AnnotatedRow[];
  mentions: WithCandidates<FurtherMention>[];
}

/** The file of the form, checked (not empty, XML, JATS, no entity declarations) and extracted; the table kept. */
async function readUpload(request: FastifyRequest, answers: KrtAnswers, db: Kysely<KrtDatabase>, t: Translate<KrtKey>): Promise<Upload> {
  const part = await request.file();
  if (!part) throw badRequest(t('error.fileMissing'));
  // Throws FST_REQ_FILE_TOO_LARGE (413) once the limit is passed: nothing beyond it is read.
  const bytes = await part.toBuffer();
  if (bytes.length === 0) throw badRequest(t('error.fileEmpty'));
  const { root, declaresEntities } = readProlog(bytes.toString('utf8'));
  if (root === null) throw badRequest(t('error.noElement'));
  if (declaresEntities) throw badRequest(t('error.entities'));
  if (root.replace(/^.*:/, '') !== 'article') throw badRequest(t('error.notJats', { root }));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'krt-upload-'));
  let outcome;
  try {
    const file = path.join(dir, 'upload.xml');
    await fs.writeFile(file, bytes);
    outcome = await extractInWorker(file);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
  if (!outcome.ok) throw badRequest(t('error.notXml', { reason: outcome.error.replace(/^XML is not well-formed: /, '') }));
  const x = outcome.extraction;
  const split = splitTable(x.rows, x.evidence);
  const doi = x.metadata.doi ? normalizeDoi(x.metadata.doi) : null;
  // An upload of a stored paper is not evidence for its own cells, as on the paper's page.
  const table = { rows: split.rows, ...(await answers.withCandidates({ ...split, ...(doi ? { doi } : {}) })) };
  const session = randomUUID();
  await saveChatState(db, session, { ...newChatState(), entries: table.rows }, new Date().toISOString());
  const stored = doi ? (await answers.checkDoi(doi)).available : false;
  const annotated = await annotateRows(answers, db, table.rows, { exclude: doi ?? undefined, found: table.evidence });
  const name = path.basename(part.filename || 'upload.xml').slice(0, 200);
  return { name, bytes: bytes.length, extraction: x, session, doi, stored, annotated, mentions: table.mentions };
}

function uploadResult({ name, bytes, extraction: x, session, doi, stored, annotated, mentions }: Upload, w: Words): SafeHtml {
  const { t } = w;
  const title = x.metadata.title || t('build.untitled');
  const extractor = t(x.provider === 'jats-table' ? 'build.extractorTable' : 'build.extractorText', { model: x.model });
  return html`<section aria-labelledby="result-heading">
    <h2 id="result-heading">${t('build.resultHeading')}</h2>
    <p><strong>${title}</strong></p>
    <p>${t('build.resultFrom', { file: name, bytes, extractor })}</p>
    <p>
      ${doi ? t('build.resultDoi', { doi }) : t('build.resultNoDoi')}
      ${stored && doi ? html`<a href="${paperHref(doi)}">${t('build.resultDoiStored')}</a>` : ''}
    </p>
    ${
      x.authorTables.length > 0
        ? html`<p class="muted">${t('build.authorTables', { tables: x.authorTables.map((a) => `${a.label} (${a.rows})`).join('; ') })}</p>`
        : ''
    }
    <p class="note">${t('build.resultKept')}</p>
    ${
      x.rows.length > 0
        ? html`${exportButtons(session, w)} ${rowSummary(annotated, w)} ${resourceTable(annotated, t('build.tableCaption', { title }), w)}
            <p><a class="button secondary" href="/chat?session=${encodeURIComponent(session)}">${t('build.editInChat')}</a></p>`
        : html`<p class="note" role="status">${t('build.noRows')}</p>`
    }
    ${
      mentions.length > 0
        ? html`<h3 id="mentions-heading">${t('mentions.heading')}</h3>
            <p>${t('mentions.lead', { count: mentions.length })}</p>
            ${mentionsTable(mentions, t('mentions.caption', { title }), w, (m) =>
              promoteForm({ upload: session, row: JSON.stringify(m.row) }, m.row['RESOURCE NAME'], w),
            )}`
        : ''
    }
    <p><a href="/build">${t('build.another')}</a></p>
  </section>`;
}

/** The build page: the forms (the DOI one filled with `doi`), or an upload's result; a refusal's message above them. */
function buildPage(w: Words, fetchEnabled: boolean, extra: { error?: string; doi?: string; result?: SafeHtml } = {}): PageResult {
  const { t } = w;
  return {
    title: t('build.title'),
    description: t('build.description'),
    section: '/build',
    // A result is one visitor's upload.
    ...(extra.result ? { headers: { 'cache-control': 'no-store' } } : {}),
    body: html`<h1>${t('build.title')}</h1>
      <p class="lead">${t('build.lead')}</p>
      ${extra.error ? errorNote(extra.error, w.loc) : ''} ${extra.result ?? forms(t, fetchEnabled, extra.doi)}`,
  };
}

/** A refusal of the forms in the words of this page (the kernel's and the multipart plugin's codes), with its status. */
function buildRefusal(problem: PageProblem, t: Translate<KrtKey>): { status: number; message: string } {
  switch (problem.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return { status: 415, message: t('error.notMultipart') };
    case 'FST_REQ_FILE_TOO_LARGE':
      return { status: problem.status, message: t('error.fileTooLarge', { max: MAX_JATS_BYTES / MIB }) };
    default:
      return { status: problem.status, message: problem.message };
  }
}

/** What POST /build/doi found: the paper's page to go to, or the fetch's failure to draw beside the form. */
type DoiOutcome = { doi: string; failure: null } | { doi: string; failure: { status: number; error: string } };

export function buildPages(
  app: ServiceApp,
  ctx: ServiceContext,
  answers: KrtAnswers,
  db: Kysely<KrtDatabase>,
  kit: PageKit,
): Promise<void> {
  const fetchEnabled = pageFetchEnabled(ctx.config.env);
  const refusedPage = (problem: PageProblem, locale: PageLocale, doi?: string): PageResult => {
    const w = wordsOf(locale);
    const { status, message } = buildRefusal(problem, w.t);
    return { ...buildPage(w, fetchEnabled, { error: message, doi }), status };
  };

  definePage(app, kit, { url: '/build', read: async () => null, render: (_none, { locale }) => buildPage(wordsOf(locale), fetchEnabled) });

  const onRequest = sameOriginForm(kit.publicUrl('krt'));
  // Uploads and fetches have the extraction route's budget per client (RATE_LIMITS.build a minute).
  return rateLimitedGroup(app, ctx, { name: 'build-page', max: RATE_LIMITS.build }, async (scope) => {
    await scope.register(multipart, { limits: { fileSize: MAX_JATS_BYTES, files: 1, fields: 5, fieldSize: 1000, parts: 6 } });
    // Refusals before a form's handler (a rate limit, another site's post, a body that is not multipart) are drawn on the build page too.
    pageErrors(scope, kit, (problem, request) => refusedPage(problem, kit.locale(request)));

    defineForm(scope, kit, {
      url: '/build',
      onRequest,
      act: ({ request, locale }) => readUpload(request, answers, db, wordsOf(locale).t),
      render: (upload, { locale }) => {
        const w = wordsOf(locale);
        return buildPage(w, fetchEnabled, { result: uploadResult(upload, w) });
      },
      refused: (problem, { locale }) => refusedPage(problem, locale),
    });

    defineForm(scope, kit, {
      url: '/build/doi',
      body: DoiBodyIn,
      onRequest,
      async act({ body, locale }): Promise<DoiOutcome> {
        const doi = parseDoi(body.doi);
        if ((await answers.checkDoi(doi)).available) return { doi, failure: null };
        if (!fetchEnabled) throw notFound(wordsOf(locale).t('error.fetchDisabled'), 'NOT_ENABLED');
        const run = await fetchForWaitingClient(ctx, doi);
        const failure = run.errors[0];
        return { doi, failure: failure ? { status: failure.status, error: failure.error } : null };
      },
      render: ({ doi, failure }, { locale }) =>
        failure
          ? { ...buildPage(wordsOf(locale), fetchEnabled, { error: failure.error, doi }), status: failure.status }
          : { redirect: paperHref(doi) },
      refused: (problem, { form, locale }) => refusedPage(problem, locale, form.doi?.slice(0, 500)),
    });
  });
}
