// Service B routes. Base = host/api: every route is served at the specification's address (base + path, e.g.
// /api/check-doi-local/, /api/api/krt/{id}/) and at the old host-root address (/check-doi-local/, /api/krt/{id}/),
// which existing clients call. Rate limits per client and minute, one group each (spec §8); the two addresses
// of a route share their group's counter. The browser routes answer CORS for any origin.
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import cors from '@fastify/cors';
import type { ServiceApp, ServiceContext } from '../../core/service.ts';
import { HttpError, badRequest, missingParameter, notFound } from '../../core/http/errors.ts';
import { clampLimit, cleanText } from '../../core/http/params.ts';
import { rateLimitedGroup } from '../../core/http/rate-limit.ts';
import { withAliases } from '../../core/http/service-app.ts';
import { EXPORT_CONTENT_TYPES, attachmentDisposition, csvReadable, jsonReadable, xlsxReadable } from '../../core/export/index.ts';
import { normalizeDoi } from './jats/index.ts';
import { KRT_COLUMNS, summarizeRows } from './extract/index.ts';
import type { KrtRow } from './extract/index.ts';
import { recommendAlternatives, suggestRrids, validateRrid } from './rrid/index.ts';
import type { RridSuggestion, RridValidation } from './rrid/index.ts';
import { chat } from './chat/index.ts';
import {
  cachedValidation,
  countSessions,
  getArticle,
  getSession,
  loadChatSession,
  pickBestSession,
  purgeChatStates,
  purgeValidations,
  saveChatState,
  sessionRows,
  sessionsOfDoi,
  storeValidation,
  suggestArticles,
} from './repository.ts';
import { KnowledgeBaseHolder, demoEvidence, labelDemoSuggestions, labelDemoValidation } from './knowledge.ts';
import type { LoadedKnowledgeBase } from './knowledge.ts';
import { LlmNotConfiguredError, runExtraction } from './import.ts';
import * as S from './schemas.ts';

/** Requests per client per minute, by group (spec §8); `tables` and `extraction` are not in the spec (see the README). */
export const RATE_LIMITS = {
  'doi-checks': 100,
  suggestions: 50,
  exports: 20,
  'ai-suggestions': 30,
  'ai-validation': 60,
  'ai-recommendations': 20,
  chat: 10,
  browser: 100,
  tables: 100,
  extraction: 10,
} as const;

/** Chat sessions expire after this long without a message. */
export const CHAT_TTL_MS = 24 * 3600 * 1000;
/** RRID validations are served from the cache for this long (and while the knowledge base is unchanged). */
export const VALIDATION_TTL_MS = 24 * 3600 * 1000;
const PURGE_EVERY_MS = 3600 * 1000;

/** Paths (after the base or at the host root) that answer CORS preflights. */
const CORS_PATHS = ['/api/browser/suggest-rrid', '/api/browser/validate-rrid', '/api/suggest-rrid'];
const CORS_OPTIONS = { origin: '*', methods: 'GET, POST, OPTIONS', allowedHeaders: 'Content-Type', maxAge: 86400, strictPreflight: false };

const ADDRESSES = { spec: '/api', aliases: [''] };

function parseDoi(raw: string | undefined): string {
  const text = raw?.trim() ?? '';
  if (!text) throw missingParameter('doi');
  const doi = normalizeDoi(text);
  if (!doi) {
    throw badRequest(
      `doi must be a DOI such as 10.1101/2020.08.27.269738 (doi:…, https://doi.org/…, a bioRxiv URL and a vN suffix are accepted), got "${text.slice(0, 100)}"`,
    );
  }
  return doi;
}

function required(value: string | undefined, name: string): string {
  const text = value?.trim() ?? '';
  if (!text) throw badRequest(`${name} must not be empty`);
  return text;
}

const seconds = (start: number) => Number(((performance.now() - start) / 1000).toFixed(4));

interface ExportSource {
  title: string;
  session_id: string;
  doi: string | null;
  processing_date: string;
  provider: string;
  model: string;
  is_demo: boolean;
  rows: KrtRow[];
}

export async function krtRoutes(app: ServiceApp, ctx: ServiceContext): Promise<void> {
  const db = ctx.db.kysely;
  const knowledge = new KnowledgeBaseHolder(ctx);
  let lastPurge = 0;
  const purgeExpired = async (now: number) => {
    if (now - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = now;
    await purgeChatStates(db, new Date(now - CHAT_TTL_MS).toISOString());
    await purgeValidations(db, new Date(now - VALIDATION_TTL_MS).toISOString());
  };

  // ---- handlers shared by several addresses -------------------------------------------------------------------

  async function checkDoi(rawDoi: string | undefined) {
    const doi = parseDoi(rawDoi);
    const article = await getArticle(db, doi);
    if (!article) {
      return {
        success: true as const,
        available: false,
        doi,
        title: null,
        file_size: null,
        downloaded_at: null,
        local_file_available: false,
        can_extract_krt: false,
        total_sessions: 0,
        metadata: null,
      };
    }
    const present = fs.existsSync(path.join(article.store_root, article.file_path));
    return {
      success: true as const,
      available: true,
      doi,
      title: article.title,
      file_size: article.file_size,
      downloaded_at: article.downloaded_at,
      local_file_available: present,
      can_extract_krt: present,
      total_sessions: await countSessions(db, doi),
      metadata: {
        title: article.title,
        authors: article.authors,
        date: article.publication_date,
        journal: article.journal,
        is_preprint: article.is_preprint,
        is_demo: article.is_demo,
      },
    };
  }

  function suggestionBody(s: RridSuggestion) {
    return {
      id: s.id,
      suggested_rrid: s.suggested_rrid,
      confidence_score: s.confidence_score,
      reasoning: s.reasoning,
      vendor: s.vendor,
      catalog_number: s.catalog_number,
      resource_name: s.resource_name,
      resource_type: s.resource_type,
      papers: s.papers,
    };
  }

  async function suggest(query: {
    resource_name: string;
    resource_type?: string;
    vendor?: string;
    catalog_number?: string;
    limit?: number;
  }) {
    const started = performance.now();
    const resourceName = required(query.resource_name, 'resource_name');
    const loaded = await knowledge.get();
    const limit = clampLimit(query.limit ?? S.RRID_SUGGESTIONS_DEFAULT, S.RRID_SUGGESTIONS_MAX);
    const found = loaded
      ? labelDemoSuggestions(
          suggestRrids(
            loaded.kb,
            {
              resourceName,
              resourceType: cleanText(query.resource_type),
              vendor: cleanText(query.vendor),
              catalogNumber: cleanText(query.catalog_number),
            },
            { limit },
          ),
          loaded,
        )
      : [];
    const suggestions = found.map(suggestionBody);
    return { success: true as const, suggestions, total_found: suggestions.length, response_time: seconds(started) };
  }

  async function browserSuggest(query: Parameters<typeof suggest>[0]) {
    const body = await suggest(query);
    return {
      ...body,
      status: 'success' as const,
      suggestions: body.suggestions.map((s) => ({
        ...s,
        rrid: s.suggested_rrid,
        confidence: s.confidence_score,
        catalog: s.catalog_number,
        additional_info: {},
      })),
    };
  }

  async function validate(raw: string): Promise<RridValidation> {
    const input = required(raw, 'rrid');
    const loaded = await knowledge.get();
    const now = new Date();
    const key = input.replace(/\s+/g, ' ').replace(/^RRID\s*:?\s*/i, '');
    const kbVersion = loaded?.version ?? 'none';
    const hit = await cachedValidation(db, key, kbVersion, new Date(now.getTime() - VALIDATION_TTL_MS).toISOString());
    if (hit) return { ...hit, source: 'cache' };
    const fresh = labelDemoValidation(validateRrid(loaded?.kb ?? null, input, now), loaded);
    await storeValidation(db, key, kbVersion, fresh);
    await purgeExpired(now.getTime());
    return fresh;
  }

  async function exportSource(id: string): Promise<ExportSource> {
    const session = await getSession(db, id);
    if (session) {
      if (session.status !== 'completed')
        throw new HttpError(
          409,
          `session ${id} failed (${session.error ?? 'no reason recorded'}); it has no table to export`,
          'SESSION_FAILED',
        );
      return {
        title: session.title,
        session_id: id,
        doi: session.doi,
        processing_date: session.created_at,
        provider: session.provider,
        model: session.model,
        is_demo: session.is_demo,
        rows: await sessionRows(db, id),
      };
    }
    const chatSession = await loadChatSession(db, id, new Date(Date.now() - CHAT_TTL_MS).toISOString());
    if (chatSession) {
      return {
        title: 'Key resources table (built in a chat session)',
        session_id: id,
        doi: null,
        processing_date: chatSession.updated_at,
        provider: 'chat',
        model: 'krt-chat-1',
        is_demo: false,
        rows: chatSession.state.entries,
      };
    }
    throw notFound(`session ${id} not found`, 'SESSION_NOT_FOUND');
  }

  function sendExport(reply: FastifyReply, source: ExportSource, format: string) {
    const send = (type: string, ext: string, body: unknown) => {
      reply
        .header('content-type', type)
        .header('content-disposition', attachmentDisposition(`krt_${source.session_id}.${ext}`))
        .header('cache-control', 'no-store');
      return reply.send(body);
    };
    if (format === 'csv') return send(EXPORT_CONTENT_TYPES.csv, 'csv', csvReadable(source.rows, { columns: [...KRT_COLUMNS] }));
    if (format === 'excel') {
      const widths: Record<string, number> = {
        'RESOURCE TYPE': 28,
        'RESOURCE NAME': 40,
        SOURCE: 28,
        IDENTIFIER: 36,
        'NEW/REUSE': 11,
        'ADDITIONAL INFORMATION': 40,
      };
      return send(
        EXPORT_CONTENT_TYPES.xlsx,
        'xlsx',
        xlsxReadable(source.rows, {
          columns: KRT_COLUMNS.map((key) => ({ key, width: widths[key] })),
          sheetName: 'Key resources table',
          titleRows: [
            ['Key Resources Table'],
            ['Title', source.title],
            ['DOI', source.doi ?? ''],
            ['Session', source.session_id],
            ['Extractor', `${source.provider} (${source.model})`],
            ['Processing date', source.processing_date],
            ...(source.is_demo ? [['Note', 'Generated demo data (not a real article)']] : []),
            [],
          ],
        }),
      );
    }
    return send(
      EXPORT_CONTENT_TYPES.json,
      'json',
      jsonReadable({
        head: {
          title: source.title,
          session_id: source.session_id,
          doi: source.doi,
          processing_date: source.processing_date,
          provider: source.provider,
          model: source.model,
          resources_found: source.rows.length,
        },
        arrayKey: 'krt_data',
        rows: source.rows,
        tail: () => ({ is_demo: source.is_demo }),
        pretty: true,
      }),
    );
  }

  function demoLabel(loaded: LoadedKnowledgeBase | null, reasoning: string, id: number): string {
    const entry = loaded?.kb.entryById(id);
    return entry && demoEvidence(entry.papers.keys(), loaded)
      ? `${reasoning} Evidence comes only from generated demo articles of this installation, not from real papers.`
      : reasoning;
  }

  // ---- DOI checks ----------------------------------------------------------------------------------------------

  await rateLimitedGroup(app, ctx, { name: 'doi-checks', max: RATE_LIMITS['doi-checks'] }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      const description =
        'Whether the local store holds the article. The DOI is normalised first: a `doi:` prefix, https://doi.org/…, a bioRxiv or medRxiv URL, ' +
        'a version suffix (…v2) and letter case do not matter. A well-formed DOI that is not stored gives 200 with `available: false`; ' +
        'a missing or malformed one, 400.';
      scope.get(
        '/check-doi-local/',
        {
          schema: { summary: 'Is a DOI in the local store?', description, querystring: S.DoiQuery, response: { 200: S.CheckDoiResponse } },
          config: { operation: 'DOI check', cacheSeconds: 0 },
        },
        async (request) => checkDoi(request.query.doi),
      );
      scope.post(
        '/check-doi-local/',
        {
          schema: {
            summary: 'Is a DOI in the local store? (JSON body)',
            description,
            body: S.DoiBodyIn,
            response: { 200: S.CheckDoiResponse },
          },
          config: { operation: 'DOI check' },
        },
        async (request) => checkDoi(request.body.doi),
      );
    }),
  );

  // ---- DOI suggestions -----------------------------------------------------------------------------------------

  await rateLimitedGroup(app, ctx, { name: 'suggestions', max: RATE_LIMITS.suggestions }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.get(
        '/doi-suggestions/',
        {
          schema: {
            summary: 'DOIs of stored articles matching a text',
            description:
              '`q` is matched against DOIs and titles, case- and accent-insensitively; best match first (exact DOI, DOI prefix, DOI substring, ' +
              'title phrase, all words in the title), then the newest, then by DOI. Without `q`: all articles, newest first. ' +
              `limit: default ${S.SUGGESTIONS_DEFAULT_LIMIT}, values above ${S.SUGGESTIONS_MAX_LIMIT} are reduced to ${S.SUGGESTIONS_MAX_LIMIT}.`,
            querystring: S.SuggestionsQuery,
            response: { 200: S.SuggestionsResponse },
          },
          config: { operation: 'DOI suggestions', responseCache: true },
        },
        async (request) => {
          const q = cleanText(request.query.q);
          const limit = clampLimit(request.query.limit, S.SUGGESTIONS_MAX_LIMIT);
          const { items, total } = await suggestArticles(db, q, limit);
          return { success: true as const, suggestions: items, total_available: total, query: q ?? '', limit };
        },
      );
    }),
  );

  // ---- tables by session and by DOI ------------------------------------------------------------------------------

  await rateLimitedGroup(app, ctx, { name: 'tables', max: RATE_LIMITS.tables }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.get(
        '/api/krt/:session_id/',
        {
          schema: {
            summary: 'The key resources table of an extraction session',
            description:
              'Rows in table order. A failed session (e.g. the language-model provider answered with an error) has status `failed`, its `error`, and no rows. Unknown id: 404.',
            params: S.SessionParams,
            response: { 200: S.SessionResponse },
          },
          config: { operation: 'KRT lookup', responseCache: true },
        },
        async (request) => {
          const id = request.params.session_id.trim();
          // "/api/krt/doi/" without a DOI lands here (the DOI route needs something after doi/).
          if (id === 'doi') throw missingParameter('doi');
          const session = await getSession(db, id);
          if (!session) throw notFound(`session ${id} not found`, 'SESSION_NOT_FOUND');
          const rows = await sessionRows(db, id);
          const summary = summarizeRows(rows);
          return {
            success: true as const,
            session_id: id,
            doi: session.doi,
            title: session.title,
            status: session.status,
            error: session.error,
            created_at: session.created_at,
            krt_data: rows,
            summary: {
              ...summary,
              processing_time: session.processing_time,
              provider: session.provider,
              model: session.model,
              is_demo: session.is_demo,
            },
          };
        },
      );

      scope.get(
        '/api/krt/doi/*',
        {
          schema: {
            summary: 'The best key resources table of a paper',
            description:
              "The DOI follows `doi/` with its slash written as is or as %2F (any form /check-doi-local/ accepts). The best table is the author's own " +
              'key resources table when the paper has one, else the completed session with the most rows (ties: the newest). ' +
              '`total_sessions` counts every session of the paper. No completed session: 404.',
            params: S.DoiPathParams,
            response: { 200: S.DoiTableResponse },
          },
          config: { operation: 'KRT lookup by DOI', responseCache: true },
        },
        async (request) => {
          const raw = request.params['*'].replace(/\/+$/, '');
          const doi = parseDoi(raw);
          const sessions = await sessionsOfDoi(db, doi);
          const best = pickBestSession(sessions);
          if (!best) {
            throw notFound(
              sessions.length
                ? `DOI ${doi} has no completed extraction session (${sessions.length} failed)`
                : `no extraction session for DOI ${doi}`,
              'SESSION_NOT_FOUND',
            );
          }
          const article = await getArticle(db, doi);
          const rows = await sessionRows(db, best.session_id);
          return {
            success: true as const,
            doi,
            session_id: best.session_id,
            krt_data: rows,
            summary: { ...summarizeRows(rows), total_sessions: sessions.length, provider: best.provider, model: best.model },
            article_info: {
              title: article?.title ?? best.title,
              authors: article?.authors ?? '',
              publication_date: article?.publication_date ?? null,
              journal: article?.journal ?? '',
              is_preprint_paper: article?.is_preprint ?? false,
              is_biorxiv_paper: article?.is_preprint ?? false,
              is_demo: article?.is_demo ?? best.is_demo,
            },
          };
        },
      );
    }),
  );

  // ---- exports ---------------------------------------------------------------------------------------------------

  await rateLimitedGroup(app, ctx, { name: 'exports', max: RATE_LIMITS.exports }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.get(
        '/export/:session_id/:format/',
        {
          schema: {
            summary: 'Download a key resources table',
            description:
              'format json: {title, session_id, doi, processing_date, provider, model, resources_found, krt_data, is_demo}, pretty-printed; csv: UTF-8, header row, ' +
              "the six KRT columns in order, RFC 4180 quoting, formula-like cells prefixed with '; excel: .xlsx with title rows (title, DOI, session, extractor, date), " +
              'then the header row and the rows. `Content-Disposition: attachment; filename="krt_<id>.<json|csv|xlsx>"`. A chat session id exports its table too. ' +
              'Unknown session: 404; other formats: 400; a failed session: 409.',
            params: S.ExportParams,
            response: { 200: S.ExportJson },
          },
          config: { operation: 'export' },
        },
        async (request, reply) => {
          const format = request.params.format.trim().toLowerCase();
          if (!['json', 'csv', 'excel'].includes(format))
            throw badRequest(`format must be one of: json, csv, excel (got "${request.params.format.slice(0, 40)}")`);
          return sendExport(reply, await exportSource(request.params.session_id.trim()), format);
        },
      );
    }),
  );

  // ---- AI ---------------------------------------------------------------------------------------------------------

  const confidenceNote =
    'confidence_score is calibrated: the share of right answers among suggestions with that ranking score in a leave-one-paper-out experiment on the ' +
    'knowledge base (isotonic regression, recomputed at every import). Only RRIDs written by papers of the store are ever suggested; no match gives [].';

  await rateLimitedGroup(app, ctx, { name: 'ai-suggestions', max: RATE_LIMITS['ai-suggestions'] }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.post(
        '/api/ai/suggest-rrid/',
        {
          schema: {
            summary: 'Suggest RRIDs for a resource',
            description: `Ranks knowledge-base entries by catalog number (exact, normalised), vendor and name similarity (token and synonym aware). ${confidenceNote}`,
            body: S.SuggestBody,
            response: { 200: S.SuggestResponse },
          },
          config: { operation: 'RRID suggestion' },
        },
        async (request) => suggest(request.body),
      );
    }),
  );

  await rateLimitedGroup(app, ctx, { name: 'ai-validation', max: RATE_LIMITS['ai-validation'] }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.post(
        '/api/ai/validate-rrid/',
        {
          schema: {
            summary: 'Validate an RRID',
            description:
              'status valid: well-formed and written by a paper of the store; unverified: well-formed but not in the store (is_valid false; check at the RRID resolver); ' +
              'invalid: malformed or of an unknown registry, with the corrected form when it is obvious (AB-123 → AB_123). confidence_score is the share of four ' +
              'checks passed (well-formed, known registry, attested, attested consistently). source is cache when the answer comes from the 24-hour cache.',
            body: S.ValidateBody,
            response: { 200: S.ValidateResponse },
          },
          config: { operation: 'RRID validation' },
        },
        async (request) => ({ success: true as const, validation: await validate(request.body.rrid) }),
      );
    }),
  );

  await rateLimitedGroup(app, ctx, { name: 'ai-recommendations', max: RATE_LIMITS['ai-recommendations'] }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.post(
        '/api/ai/recommend/',
        {
          schema: {
            summary: 'Alternatives to a resource',
            description:
              'Resources of the same type from the knowledge base: same target and host for antibodies, same function (or a newer version) for software, same ' +
              'strain background for organisms, another supplier of the same product. confidence_score = attribute agreement × n/(n+1) for n papers using the ' +
              'alternative (a ranking, not a probability). availability_status is unknown: no stock source is consulted.',
            body: S.RecommendBody,
            response: { 200: S.RecommendResponse },
          },
          config: { operation: 'recommendation' },
        },
        async (request) => {
          const started = performance.now();
          const body = request.body;
          const resourceName = required(body.resource_name, 'resource_name');
          const loaded = await knowledge.get();
          const recommendations = loaded
            ? recommendAlternatives(
                loaded.kb,
                { resourceName, resourceType: cleanText(body.resource_type), context: body.context as Record<string, unknown> | undefined },
                { limit: clampLimit(body.limit ?? 10, 50) },
              ).map((r) => ({ ...r, reasoning: demoLabel(loaded, r.reasoning, r.id) }))
            : [];
          return { success: true as const, recommendations, total_found: recommendations.length, response_time: seconds(started) };
        },
      );
    }),
  );

  await rateLimitedGroup(app, ctx, { name: 'chat', max: RATE_LIMITS.chat }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.post(
        '/api/ai/chat/',
        {
          schema: {
            summary: 'Build a key resources table in conversation',
            description:
              'Intents: add_resource, remove_resource, modify_resource, list_resources, export, help, clarification_answer. Missing essentials are asked for ' +
              '(needs_clarification, clarifications). krt_entries is the whole table of the session. Sessions are kept on the server and expire after 24 hours ' +
              'without a message; a new id is generated when session_id is omitted (an unknown or expired id starts an empty table under that id). ' +
              "RRIDs come only from the message or from papers of the store that link that vendor's catalog number to one.",
            body: S.ChatBody,
            response: { 200: S.ChatResponse },
          },
          config: { operation: 'chat' },
        },
        async (request) => {
          const started = performance.now();
          const message = required(request.body.message, 'message');
          const id = request.body.session_id?.trim() || randomUUID();
          const now = Date.now();
          const previous = await loadChatSession(db, id, new Date(now - CHAT_TTL_MS).toISOString());
          const loaded = await knowledge.get();
          const turn = chat(previous?.state ?? null, message, { kb: loaded?.kb ?? null });
          await saveChatState(db, id, turn.state, new Date(now).toISOString());
          await purgeExpired(now);
          return {
            success: true as const,
            session_id: id,
            response: turn.response,
            intent: turn.intent,
            krt_entries: turn.krt_entries,
            needs_clarification: turn.needs_clarification,
            clarifications: turn.clarifications,
            response_time: seconds(started),
            export: turn.export
              ? { format: turn.export.format, url: `/api/export/${encodeURIComponent(id)}/${turn.export.format}/` }
              : null,
          };
        },
      );
    }),
  );

  // ---- browser extension (CORS) ----------------------------------------------------------------------------------

  // @fastify/cors lives in this encapsulated scope only; it answers preflights through an OPTIONS catch-all route,
  // which this hook limits to the browser paths (any other OPTIONS is the JSON 404 of an unknown route).
  await app.register(async (corsScope) => {
    const corsPaths = new Set(CORS_PATHS.flatMap((p) => [p, `/api${p}`]));
    corsScope.addHook('onRequest', async (request: FastifyRequest) => {
      if (request.method !== 'OPTIONS' || !request.routeOptions.url?.endsWith('*')) return;
      const pathOnly = request.url
        .split('?')[0]
        .replace(/\/+$/, '')
        .replace(/\/{2,}/g, '/');
      if (!corsPaths.has(pathOnly)) throw notFound(`no such endpoint: OPTIONS ${request.url.split('?')[0]}`);
    });
    await corsScope.register(cors, CORS_OPTIONS);
    await rateLimitedGroup(corsScope as unknown as ServiceApp, ctx, { name: 'browser', max: RATE_LIMITS.browser }, (group) =>
      withAliases(group, ADDRESSES, (scope) => {
        const note =
          'For the browser extension: CORS for any origin (preflight OPTIONS answers 204). The body adds the names the extension reads: ';
        scope.post(
          '/api/browser/suggest-rrid/',
          {
            schema: {
              summary: 'Suggest RRIDs (browser extension)',
              description: `${note}status "success", and per suggestion rrid, confidence, catalog and additional_info {}. Otherwise as /api/ai/suggest-rrid/. ${confidenceNote}`,
              body: S.SuggestBody,
              response: { 200: S.BrowserSuggestResponse },
            },
            config: { operation: 'RRID suggestion', cors: true },
          },
          async (request) => browserSuggest(request.body),
        );
        scope.post(
          '/api/browser/validate-rrid/',
          {
            schema: {
              summary: 'Validate an RRID (browser extension)',
              description: `${note}status "success". Otherwise as /api/ai/validate-rrid/.`,
              body: S.ValidateBody,
              response: { 200: S.BrowserValidateResponse },
            },
            config: { operation: 'RRID validation', cors: true },
          },
          async (request) => ({ success: true as const, status: 'success' as const, validation: await validate(request.body.rrid) }),
        );
        scope.get(
          '/api/suggest-rrid/',
          {
            schema: {
              summary: 'Suggest RRIDs from query parameters (browser extension)',
              description: `The address the shipped extension calls, with the body of /api/browser/suggest-rrid/. ${note}as there.`,
              querystring: S.SuggestQuery,
              response: { 200: S.BrowserSuggestResponse },
            },
            config: { operation: 'RRID suggestion', cors: true, cacheSeconds: 0 },
          },
          async (request) => browserSuggest(request.query),
        );
      }),
    );
  });

  // ---- extraction (admin) ----------------------------------------------------------------------------------------

  await rateLimitedGroup(app, ctx, { name: 'extraction', max: RATE_LIMITS.extraction }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.post(
        '/api/krt/extract/',
        {
          schema: {
            summary: 'Extract the key resources table of a stored article (admin)',
            description:
              'Enabled only when the server has an admin token (PDI_KRT_ADMIN_TOKEN): send it as `Authorization: Bearer <token>`. Without a configured token ' +
              'this route answers 404; without a token in the request 401; with a wrong one 403. Runs the built-in extractor and, when configured, the ' +
              'language-model provider; a provider failure is stored as a failed session (502 when every requested extractor failed).',
            body: S.ExtractBody,
            response: { 200: S.ExtractResponse },
          },
          config: { operation: 'extraction' },
        },
        async (request) => {
          const token = ctx.config.env.PDI_KRT_ADMIN_TOKEN?.trim();
          if (!token)
            throw notFound('extraction over HTTP is not enabled on this server (set PDI_KRT_ADMIN_TOKEN to enable it)', 'NOT_ENABLED');
          const auth = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
          if (!auth)
            throw new HttpError(401, 'an admin token is required: send Authorization: Bearer <token>', 'UNAUTHORIZED', {
              'www-authenticate': 'Bearer realm="krt"',
            });
          const digest = (s: string) => createHash('sha256').update(s).digest();
          if (!timingSafeEqual(digest(auth[1]), digest(token))) throw new HttpError(403, 'the admin token is not valid', 'FORBIDDEN');
          const doi = parseDoi(request.body.doi);
          if (!(await getArticle(db, doi))) throw notFound(`DOI ${doi} is not in the local store`, 'DOI_NOT_FOUND');
          let run;
          try {
            run = await runExtraction(ctx, [doi], { source: 'api', provider: request.body.provider ?? 'all', workers: 1, progress: false });
          } catch (error) {
            if (error instanceof LlmNotConfiguredError) throw badRequest(error.message);
            throw error;
          }
          if (run.sessions.length === 0)
            throw new HttpError(409, `cannot extract ${doi}: ${run.errors.map((e) => e.error).join('; ')}`, 'CANNOT_EXTRACT');
          if (run.sessions.every((s) => s.status === 'failed')) {
            throw new HttpError(
              502,
              `extraction failed: ${run.sessions.map((s) => `${s.error} (recorded as failed session ${s.session_id})`).join('; ')}`,
              'EXTRACTOR_FAILED',
            );
          }
          return { success: true as const, doi, sessions: run.sessions.map(({ doi: _d, ...s }) => s) };
        },
      );
    }),
  );
}
