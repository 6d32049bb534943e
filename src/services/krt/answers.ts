// What Service B's endpoints answer, without HTTP: each method takes parsed input and returns the response body,
// or throws the HttpError the kernel renders. The route plugins (routes/) parse the request, call one method and
// return its result; the CLI and tests can call the same methods.
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { ServiceContext } from '../../core/service.ts';
import { ImportRefusedError, importGuard } from '../../core/import.ts';
import { HttpError, badRequest, notFound } from '../../core/http/errors.ts';
import { EXPORT_CONTENT_TYPES, csvReadable, jsonReadable, xlsxReadable } from '../../core/export/index.ts';
import { KRT_COLUMNS, summarizeRows } from './extract/index.ts';
import type { FurtherMention, KrtRow, RowEvidence } from './extract/index.ts';
import { identifierCandidates, type IdentifierCandidate } from './rrid/fill-model.ts';
import { shippedFillModel } from './extract/learned/shipped.ts';
import { answerFromIndex, answerRrids, recommendAlternatives, validateRrid } from './rrid/index.ts';
import { RegistryKnowledge } from './rrid/registry-knowledge.ts';
import type { RridSuggestion, RridValidation } from './rrid/index.ts';
import { chat } from './chat/index.ts';
import {
  articleDates,
  bestBuiltinTables,
  cachedValidation,
  getArticle,
  getSession,
  loadChatSession,
  pickBestSession,
  purgeChatStates,
  purgeValidations,
  saveChatState,
  sessionRows,
  sessionRowsWithEvidence,
  sessionsOfDoi,
  storeValidation,
  suggestionIndexReader,
} from './repository.ts';
import {
  DEMO_EVIDENCE_NOTE,
  KnowledgeBaseHolder,
  labelDemoRecommendations,
  labelDemoSuggestions,
  labelDemoValidation,
} from './served-knowledge.ts';
import { LlmNotConfiguredError, runExtraction } from './import.ts';
import { HeldArticles } from './held-articles.ts';
import type { ProviderChoice } from './import.ts';
import type { ExportFormat } from './schemas/export.ts';
import type { KrtDatabase, KrtTables } from './tables.ts';
import { computeStatistics } from './statistics.ts';
import type { StoreStatistics } from './statistics.ts';
import type { LoadedKnowledgeBase } from './aggregates.ts';

/** Chat sessions expire after this long without a message. */
export const CHAT_TTL_MS = 24 * 3600 * 1000;
/** RRID validations are served from the cache for this long (and while the knowledge base is unchanged). */
const VALIDATION_TTL_MS = 24 * 3600 * 1000;
const PURGE_EVERY_MS = 3600 * 1000;
/** Tables whose identifier candidates are kept per knowledge base (about 0.1 s to compute for 100 rows). */
const CANDIDATE_TABLES_KEPT = 500;

const seconds = (start: number) => Number(((performance.now() - start) / 1000).toFixed(4));

export interface SuggestionQuery {
  resourceName: string;
  resourceType?: string;
  vendor?: string;
  catalogNumber?: string;
  limit: number;
}

export interface RecommendationQuery {
  resourceName: string;
  resourceType?: string;
  context?: Record<string, unknown>;
  limit: number;
}

/** A table to download: an extraction session's, or the table a chat session built. */
export interface ExportSource {
  title: string;
  session_id: string;
  doi: string | null;
  processing_date: string;
  provider: string;
  model: string;
  is_demo: boolean;
  rows: KrtRow[];
}

export interface ExportFile {
  contentType: string;
  fileName: string;
  body: Readable;
}

const EXCEL_WIDTHS: Record<string, number> = {
  'RESOURCE TYPE': 28,
  'RESOURCE NAME': 40,
  SOURCE: 28,
  IDENTIFIER: 36,
  'NEW/REUSE': 11,
  'ADDITIONAL INFORMATION': 40,
};

export class KrtAnswers {
  readonly knowledge: KnowledgeBaseHolder;
  /** The imported registries' dumps (Cellosaurus, the Antibody Registry). */
  readonly registries: RegistryKnowledge;
  /** The articles' DOI lookups, held per data version (held-articles.ts). */
  readonly articles: HeldArticles;
  private readonly ctx: ServiceContext;
  private readonly db: Kysely<KrtDatabase>;
  private lastPurge = 0;
  /** Identifier candidates by table (a digest of its rows and confidences), per loaded knowledge base. */
  private readonly candidateCache = new WeakMap<object, Map<string, IdentifierCandidate[][]>>();
  private statisticsCache: { version: string | null; value: Promise<StoreStatistics & { data_version: string | null }> } | null = null;

  constructor(ctx: ServiceContext) {
    this.ctx = ctx;
    this.db = ctx.db.kysely.withTables<KrtTables>();
    this.knowledge = new KnowledgeBaseHolder(ctx);
    this.registries = new RegistryKnowledge(this.db, () => ctx.dataVersion.current());
    this.articles = new HeldArticles(this.db, ctx.dataVersion);
  }

  /** Expired chat sessions and validations are removed at most once an hour, by the request that notices. */
  private async purgeExpired(now: number): Promise<void> {
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    await purgeChatStates(this.db, new Date(now - CHAT_TTL_MS).toISOString());
    await purgeValidations(this.db, new Date(now - VALIDATION_TTL_MS).toISOString());
  }

  // ---- the article store --------------------------------------------------------------------------------------

  async checkDoi(doi: string) {
    const article = await this.articles.article(doi);
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
      total_sessions: article.sessions,
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

  async doiSuggestions(q: string | undefined, limit: number) {
    const { items, total } = await this.articles.suggest(q, limit);
    return { success: true as const, suggestions: items, total_available: total, query: q ?? '', limit };
  }

  // ---- tables ---------------------------------------------------------------------------------------------------

  async sessionTable(id: string) {
    const session = await getSession(this.db, id);
    if (!session) throw notFound(`session ${id} not found`, 'SESSION_NOT_FOUND');
    const stored = await sessionRowsWithEvidence(this.db, id);
    const { rows } = stored;
    const { evidence, mentions } = await this.withCandidates({ ...stored, doi: session.doi });
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
      row_evidence: evidence,
      further_mentions: mentions,
      summary: {
        ...summary,
        processing_time: session.processing_time,
        provider: session.provider,
        model: session.model,
        is_demo: session.is_demo,
      },
    };
  }

  async bestTable(doi: string) {
    const sessions = await sessionsOfDoi(this.db, doi);
    const best = pickBestSession(sessions);
    if (!best) {
      throw notFound(
        sessions.length
          ? `DOI ${doi} has no completed extraction session (${sessions.length} failed)`
          : `no extraction session for DOI ${doi}`,
        'SESSION_NOT_FOUND',
      );
    }
    const article = await getArticle(this.db, doi);
    const stored = await sessionRowsWithEvidence(this.db, best.session_id);
    const { rows } = stored;
    const { evidence, mentions } = await this.withCandidates({ ...stored, doi });
    return {
      success: true as const,
      doi,
      session_id: best.session_id,
      krt_data: rows,
      row_evidence: evidence,
      further_mentions: mentions,
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
  }

  /**
   * A text-built table's rows and further mentions, each with the candidates for its empty identifier cells: what the
   * served knowledge base proposes, scored by the shipped fill model (rrid/fill-model.ts identifierCandidates). Read
   * when the table is, so they follow the base of the current import. Author and language-model tables (no evidence)
   * get none; without a fill model or a base every list is empty. `doi`: the paper of the table, whose own mentions in
   * the base are not evidence for its rows (the candidates are what other papers wrote, as the fill model was fitted).
   */
  async withCandidates(table: {
    rows: readonly KrtRow[];
    evidence: readonly RowEvidence[] | null;
    mentions: readonly FurtherMention[];
    doi?: string;
  }): Promise<{
    evidence: (RowEvidence & { identifier_candidates: IdentifierCandidate[] })[] | null;
    mentions: (FurtherMention & { identifier_candidates: IdentifierCandidate[] })[];
  }> {
    const { rows, evidence, mentions } = table;
    if (!evidence) return { evidence: null, mentions: mentions.map((m) => ({ ...m, identifier_candidates: [] })) };
    const model = shippedFillModel();
    const loaded = model && (rows.length || mentions.length) ? await this.knowledge.get() : null;
    let candidates: IdentifierCandidate[][] = [];
    if (model && loaded) {
      const all = [...rows, ...mentions.map((m) => m.row)];
      const confidences = [...evidence.map((e) => e.confidence), ...mentions.map((m) => m.confidence)];
      const key = createHash('sha1')
        .update(JSON.stringify([all, confidences, table.doi ?? null]))
        .digest('hex');
      let cache = this.candidateCache.get(loaded.kb);
      if (!cache) this.candidateCache.set(loaded.kb, (cache = new Map()));
      const known = cache.get(key);
      if (known) candidates = known;
      else {
        candidates = identifierCandidates(loaded.kb, model, all, confidences, table.doi);
        if (cache.size >= CANDIDATE_TABLES_KEPT) cache.delete(cache.keys().next().value!);
        cache.set(key, candidates);
      }
    }
    return {
      evidence: evidence.map((e, i) => ({ ...e, identifier_candidates: candidates[i] ?? [] })),
      mentions: mentions.map((m, i) => ({ ...m, identifier_candidates: candidates[rows.length + i] ?? [] })),
    };
  }

  // ---- exports --------------------------------------------------------------------------------------------------

  async exportSource(id: string): Promise<ExportSource> {
    const session = await getSession(this.db, id);
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
        rows: await sessionRows(this.db, id),
      };
    }
    const chatSession = await loadChatSession(this.db, id, new Date(Date.now() - CHAT_TTL_MS).toISOString());
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

  async exportFile(id: string, format: ExportFormat): Promise<ExportFile> {
    return exportFileOf(await this.exportSource(id), format);
  }

  // ---- RRIDs ----------------------------------------------------------------------------------------------------

  async suggest(query: SuggestionQuery) {
    const started = performance.now();
    const rridQuery = {
      resourceName: query.resourceName,
      resourceType: query.resourceType,
      vendor: query.vendor,
      catalogNumber: query.catalogNumber,
    };
    // The index stored at import answers without loading the knowledge base (the same answers); a
    // store imported before it existed is answered from the base in memory until its next import.
    const indexed = await answerFromIndex(suggestionIndexReader(this.db), rridQuery, { limit: query.limit });
    let found: RridSuggestion[];
    let reason: string | null;
    if (indexed) {
      found = indexed.suggestions.map(({ demoOnly, ...s }) => (demoOnly ? { ...s, reasoning: `${s.reasoning} ${DEMO_EVIDENCE_NOTE}` } : s));
      reason = indexed.reason;
    } else {
      const loaded = await this.knowledge.get();
      const answer = loaded ? answerRrids(loaded.kb, rridQuery, { limit: query.limit }) : null;
      found = loaded && answer ? labelDemoSuggestions(answer.suggestions, loaded) : [];
      reason = answer ? answer.reason : 'no articles have been imported: the knowledge base is empty';
    }
    const suggestions = found.map(suggestionBody);
    return {
      success: true as const,
      suggestions,
      total_found: suggestions.length,
      abstained: suggestions.length === 0,
      reason: suggestions.length ? null : reason,
      response_time: seconds(started),
    };
  }

  /** The suggestion body with the names the browser extension reads. */
  async browserSuggest(query: SuggestionQuery) {
    const body = await this.suggest(query);
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

  async validate(input: string): Promise<RridValidation> {
    const loaded = await this.knowledge.get();
    const now = new Date();
    const key = input.replace(/\s+/g, ' ').replace(/^RRID\s*:?\s*/i, '');
    // An answer depends on the base and on the registries' releases: a new import of either makes it stale.
    const kbVersion = `${loaded?.version ?? 'none'};${await this.registries.version()}`;
    const hit = await cachedValidation(this.db, key, kbVersion, new Date(now.getTime() - VALIDATION_TTL_MS).toISOString());
    if (hit) return { ...hit, source: 'cache' };
    const fresh = await this.validateUncached(input, loaded, now);
    await storeValidation(this.db, key, kbVersion, fresh);
    await this.purgeExpired(now.getTime());
    return fresh;
  }

  /** The validation of `input` against the base and the registries, without the cache (validate() stores it). */
  private async validateUncached(input: string, loaded: LoadedKnowledgeBase | null, now: Date): Promise<RridValidation> {
    const registry = await this.registries.evidenceFor(input);
    const validation = validateRrid(loaded?.kb ?? null, input, now, registry);
    // A registry's listing is evidence whatever the papers are; only an answer resting on papers is relabelled.
    return registry.entry ? validation : labelDemoValidation(validation, loaded);
  }

  // ---- statistics -----------------------------------------------------------------------------------------------

  /**
   * The store's statistics (statistics.ts), computed once per data version: every distinct RRID of the tables is
   * validated as validate() does, without filling its cache with thousands of entries no client asked for.
   */
  async statistics(): Promise<StoreStatistics & { data_version: string | null }> {
    const version = await this.ctx.dataVersion.current();
    if (this.statisticsCache?.version !== version) {
      const pending = this.computeStatistics(version);
      this.statisticsCache = { version, value: pending };
      // A failure is not kept: the next request computes again.
      pending.catch(() => {
        if (this.statisticsCache?.value === pending) this.statisticsCache = null;
      });
    }
    return this.statisticsCache!.value;
  }

  private async computeStatistics(version: string | null): Promise<StoreStatistics & { data_version: string | null }> {
    const loaded = await this.knowledge.get();
    const dates = await articleDates(this.db);
    const best = new Map((await bestBuiltinTables(this.db, { tableOnly: true })).map((t) => [t.doi, t.rows]));
    const tables = [...dates].map(([doi, date]) => ({ doi, publication_date: date, rows: best.get(doi) ?? [] }));
    const now = new Date();
    const statistics = await computeStatistics(tables, async (rrid) => (await this.validateUncached(rrid, loaded, now)).status);
    return { data_version: version, ...statistics };
  }

  async recommend(query: RecommendationQuery) {
    const started = performance.now();
    const loaded = await this.knowledge.get();
    const text = (key: string) => (typeof query.context?.[key] === 'string' ? (query.context[key] as string) : undefined);
    // The resource itself, as suggest-rrid answers the same input.
    const itself = await this.suggest({
      resourceName: query.resourceName,
      resourceType: query.resourceType,
      vendor: text('vendor') ?? text('source') ?? text('supplier'),
      catalogNumber: text('catalog_number') ?? text('catalogNumber') ?? text('catalog'),
      limit: 1,
    });
    const first = itself.suggestions[0];
    const recommendations = loaded
      ? labelDemoRecommendations(
          recommendAlternatives(
            loaded.kb,
            { resourceName: query.resourceName, resourceType: query.resourceType, context: query.context },
            { limit: query.limit, exclude: first ? [first.id] : [] },
          ),
          loaded,
        )
      : [];
    return {
      success: true as const,
      identified: first ? { rrid: first.suggested_rrid, confidence_score: first.confidence_score, reasoning: first.reasoning } : null,
      identification_reason: itself.reason,
      recommendations,
      total_found: recommendations.length,
      response_time: seconds(started),
    };
  }

  // ---- chat -----------------------------------------------------------------------------------------------------

  async chat(message: string, sessionId: string | undefined) {
    const started = performance.now();
    const id = sessionId || randomUUID();
    const now = Date.now();
    const previous = await loadChatSession(this.db, id, new Date(now - CHAT_TTL_MS).toISOString());
    const loaded = await this.knowledge.get();
    const turn = chat(previous?.state ?? null, message, { kb: loaded?.kb ?? null });
    await saveChatState(this.db, id, turn.state, new Date(now).toISOString());
    await this.purgeExpired(now);
    return {
      success: true as const,
      session_id: id,
      response: turn.response,
      intent: turn.intent,
      krt_entries: turn.krt_entries,
      needs_clarification: turn.needs_clarification,
      clarifications: turn.clarifications,
      response_time: seconds(started),
      export: turn.export ? { format: turn.export.format, url: `/api/export/${encodeURIComponent(id)}/${turn.export.format}/` } : null,
    };
  }

  // ---- extraction -----------------------------------------------------------------------------------------------

  async extract(doi: string, provider: ProviderChoice) {
    if (!(await getArticle(this.db, doi))) throw notFound(`DOI ${doi} is not in the local store`, 'DOI_NOT_FOUND');
    let run;
    try {
      run = await runExtraction(this.ctx, [doi], {
        source: 'api',
        provider,
        workers: 1,
        progress: false,
        guard: importGuard({}, this.ctx.config.env),
      });
    } catch (error) {
      if (error instanceof LlmNotConfiguredError) throw badRequest(error.message);
      if (error instanceof ImportRefusedError) throw new HttpError(409, `cannot extract ${doi}: ${error.message}`, 'CANNOT_EXTRACT');
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
  }
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

/** The file of a table in one of the three formats (streamed). */
function exportFileOf(source: ExportSource, format: ExportFormat): ExportFile {
  const file = (contentType: string, ext: string, body: Readable): ExportFile => ({
    contentType,
    fileName: `krt_${source.session_id}.${ext}`,
    body,
  });
  if (format === 'csv') return file(EXPORT_CONTENT_TYPES.csv, 'csv', csvReadable(source.rows, { columns: [...KRT_COLUMNS] }));
  if (format === 'excel') {
    return file(
      EXPORT_CONTENT_TYPES.xlsx,
      'xlsx',
      xlsxReadable(source.rows, {
        columns: KRT_COLUMNS.map((key) => ({ key, width: EXCEL_WIDTHS[key] })),
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
  return file(
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
