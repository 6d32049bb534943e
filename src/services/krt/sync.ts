// B's papers come one DOI at a time. `pdi fetch krt <doi…>` and POST /api/krt/fetch/
// fetch a paper's JATS full text from bioRxiv (its API names the JATS file of the newest version; medRxiv is asked
// too, as the two share the 10.1101 prefix), else from Europe PMC (search by DOI, then the full text of a PMC or
// preprint record), write it into the fetched-papers store (<PDI_DATA_DIR>/krt/fetched/<year>/<doi-suffix>.xml)
// and import that store through B's own importer, which extracts the key resources table of every new or changed
// file with the same guards as `pdi import krt`. The endpoints are configurable and take no credentials.
// `pdi sync krt` (and `serve --sync-every`) is for B's one bulk source: Cellosaurus' flat file, read by the registry
// importer (registry/import.ts) with the guards of `pdi import krt <file> --kind registry`; its mirror is named by
// PDI_SYNC_URL_KRT_CELLOSAURUS (PDI_SYNC_URL_KRT names the bioRxiv API). The Antibody Registry's
// export has no address to sync from (its download needs a signed-in account): it is imported from a file.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ImportRefusedError } from '../../core/import.ts';
import type { ImportReport } from '../../core/import.ts';
import { HttpError } from '../../core/http/errors.ts';
import type { ImporterDefinition, ServiceContext } from '../../core/service.ts';
import { DownloadError, download, redactUrl } from '../../core/sync/download.ts';
import type { DownloadOptions } from '../../core/sync/download.ts';
import { syncSettings } from '../../core/sync/source.ts';
import type { SyncDefinition } from '../../core/sync/source.ts';
import { normalizeDoi, storePathOfDoi } from './jats/index.ts';
import { FetchRefusedError, checkUrl, fetchPolicy, guardedFetch } from './fetch-guard.ts';
import { importPath } from './import.ts';
import { getArticle, pickBestSession, sessionsOfDoi } from './repository.ts';
import type { KrtTables } from './tables.ts';

export const CELLOSAURUS_URL = 'https://ftp.expasy.org/databases/cellosaurus/cellosaurus.txt';

export const krtSync: SyncDefinition = {
  service: 'krt',
  title: "Cellosaurus' flat file of cell lines (cellosaurus.txt), as a registry of RRIDs CVCL_…",
  defaultUrl: CELLOSAURUS_URL,
  publisherPage: 'https://www.cellosaurus.org/description.html',
  files: [{ name: 'cellosaurus', fileName: 'cellosaurus.txt', importer: 'registry', contentTypes: ['text/plain'] }],
  // The file is about 400 MB (release 49, 2024) and grows with every release.
  maxBytes: 4 * 1024 ** 3,
  // PDI_SYNC_URL_KRT names the bioRxiv API (krtFetchEndpoints), so the registry mirror has its own variable.
  urlVariable: 'PDI_SYNC_URL_KRT_CELLOSAURUS',
};

export const BIORXIV_API_URL = 'https://api.biorxiv.org';
const EUROPE_PMC_API_URL = 'https://www.ebi.ac.uk/europepmc/webservices/rest';

export interface KrtFetchEndpoints {
  /** bioRxiv's API (PDI_SYNC_URL_KRT). */
  biorxiv: string;
  /** Europe PMC's REST API (PDI_SYNC_URL_KRT_EUROPEPMC). */
  europePmc: string;
}

export function krtFetchEndpoints(env: NodeJS.ProcessEnv): KrtFetchEndpoints {
  const clean = (value: string | undefined, fallback: string) => (value?.trim() || fallback).replace(/\/+$/, '');
  return { biorxiv: clean(env.PDI_SYNC_URL_KRT, BIORXIV_API_URL), europePmc: clean(env.PDI_SYNC_URL_KRT_EUROPEPMC, EUROPE_PMC_API_URL) };
}

/** Neither bioRxiv/medRxiv nor Europe PMC has a full text for the DOI (HTTP 404). */
class ArticleNotFoundError extends Error {
  override name = 'ArticleNotFoundError';
}

/** An upstream server failed for good (5xx or network after retries, an answer that is not what it should be): HTTP 502. */
class UpstreamError extends Error {
  override name = 'UpstreamError';
}

/** The DOI cannot be stored: not a DOI, or not a 10.1101 (bioRxiv/medRxiv) DOI the store is keyed on: HTTP 400. */
class UnsupportedDoiError extends Error {
  override name = 'UnsupportedDoiError';
}

interface FetchedJats {
  doi: string;
  source: 'biorxiv' | 'medrxiv' | 'europepmc';
  /** The address of the JATS file, without credentials. */
  url: string;
  /** Where it was written in the fetched-papers store. */
  file: string;
  bytes: number;
  sha256: string;
}

export interface FetchOptions {
  /** Download settings (tests shorten the delays). */
  download?: Partial<Pick<DownloadOptions, 'headersMs' | 'idleMs' | 'retries' | 'baseDelayMs' | 'maxDelayMs' | 'random' | 'fetch'>>;
  signal?: AbortSignal;
}

const JATS_TYPES = ['application/xml', 'text/xml', 'application/jats+xml'];
const JSON_TYPES = ['application/json', 'text/json', 'text/plain'];
/** The largest JATS file B reads from outside its store: a download of the fetch path, an upload of the build page. */
export const MAX_JATS_BYTES = 64 * 1024 * 1024;
const MAX_META_BYTES = 8 * 1024 * 1024;

/** The store path of a DOI ("2020/2020.08.27.269738.xml"), or UnsupportedDoiError. */
function fetchedPathOf(raw: string): { doi: string; relative: string } {
  const doi = normalizeDoi(raw);
  if (!doi) throw new UnsupportedDoiError(`"${raw.slice(0, 100)}" is not a DOI (e.g. 10.1101/2020.08.27.269738)`);
  if (!doi.startsWith('10.1101/'))
    throw new UnsupportedDoiError(`${doi}: the store holds bioRxiv and medRxiv preprints (DOIs 10.1101/…); other DOIs cannot be fetched`);
  const suffix = doi.slice('10.1101/'.length);
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(suffix)) throw new UnsupportedDoiError(`${doi}: not a bioRxiv or medRxiv DOI`);
  return { doi, relative: storePathOfDoi(doi) ?? `other/${suffix}.xml` };
}

function fetchedStoreRoot(ctx: ServiceContext): string {
  return path.join(ctx.config.dataDir, 'krt', 'fetched');
}

/**
 * Fetches one paper's JATS into the fetched-papers store (not yet imported). Every request, the addresses the
 * upstream names and their redirects included, is bound to the hosts and addresses fetch-guard.ts allows; a refusal
 * is an UpstreamError (502) and nothing is fetched from the refused address.
 */
async function fetchJats(ctx: ServiceContext, raw: string, options: FetchOptions = {}): Promise<FetchedJats> {
  const { doi, relative } = fetchedPathOf(raw);
  const endpoints = krtFetchEndpoints(ctx.config.env);
  const policy = fetchPolicy(ctx.config.env, [endpoints.biorxiv, endpoints.europePmc]);
  // A refusal stops the download at once (download() would retry it as a network error) and is reported as itself.
  let refused: FetchRefusedError | null = null;
  const stop = new AbortController();
  const guarded = guardedFetch(policy, {
    onRefused: (error) => {
      refused ??= error;
      stop.abort(error);
    },
  });
  try {
    return await fetchAllowed(ctx, doi, relative, endpoints, policy, {
      ...options,
      signal: options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal,
      download: { fetch: guarded, ...options.download },
    });
  } catch (error) {
    const refusal = error instanceof FetchRefusedError ? error : refused;
    if (refusal) throw new UpstreamError(`${doi}: ${refusal.message}`);
    throw error;
  }
}

async function fetchAllowed(
  ctx: ServiceContext,
  doi: string,
  relative: string,
  endpoints: KrtFetchEndpoints,
  policy: ReturnType<typeof fetchPolicy>,
  options: FetchOptions,
): Promise<FetchedJats> {
  const settings = syncSettings(ctx.config.env);
  const target = path.join(fetchedStoreRoot(ctx), relative);
  const work = path.join(fetchedStoreRoot(ctx), '.incoming');
  await fs.mkdir(work, { recursive: true });
  const base = (name: string): Omit<DownloadOptions, 'url' | 'maxBytes'> => ({
    destination: path.join(work, `${path.basename(relative)}.${name}.${process.pid}`),
    headersMs: settings.timeoutMs,
    idleMs: settings.timeoutMs,
    retries: settings.retries,
    signal: options.signal,
    headers: { 'user-agent': 'pdi-fetch/1.0 (key resources tables of preprints)' },
    ...options.download,
  });
  const tried: string[] = [];

  // 1. bioRxiv, then medRxiv: the details of every version of the DOI, each naming its JATS file.
  for (const server of ['biorxiv', 'medrxiv'] as const) {
    const detailsUrl = `${endpoints.biorxiv}/details/${server}/${doi}/na/json`;
    const details = await getJson(detailsUrl, base(`${server}-details`), 'a bioRxiv details answer');
    const collection =
      details && Array.isArray((details as { collection?: unknown }).collection) ? (details as { collection: unknown[] }).collection : [];
    const latest = collection
      .filter((c): c is { jatsxml: string; version?: string } => typeof (c as { jatsxml?: unknown })?.jatsxml === 'string')
      .sort((a, b) => Number(a.version ?? 0) - Number(b.version ?? 0))
      .at(-1);
    if (!latest) {
      tried.push(`${server} (${redactUrl(detailsUrl)}: no such DOI)`);
      continue;
    }
    checkUrl(policy, latest.jatsxml, `${server === 'biorxiv' ? "bioRxiv's" : "medRxiv's"} JATS file`);
    const jats = await getJats(latest.jatsxml, target, base(`${server}-jats`));
    if (jats) return { doi, source: server, ...jats };
    tried.push(`${server} (its JATS file ${redactUrl(latest.jatsxml)} is not available)`);
    break; // the DOI is bioRxiv's or medRxiv's, not both
  }

  // 2. Europe PMC: records with the DOI, then the full text of the first that has one (PMC article or preprint).
  const searchUrl = `${endpoints.europePmc}/search?query=${encodeURIComponent(`DOI:"${doi}"`)}&format=json&resultType=lite&pageSize=10`;
  const search = await getJson(searchUrl, base('epmc-search'), 'a Europe PMC search answer');
  // Only records that carry this DOI (a search may match more loosely).
  const results = (((search as { resultList?: { result?: unknown[] } } | null)?.resultList?.result ?? []) as EuropePmcRecord[]).filter(
    (r) => typeof r.doi === 'string' && r.doi.toLowerCase() === doi,
  );
  const ids = [
    ...new Set(
      results.flatMap((r) => [r.pmcid, r.source === 'PPR' ? r.id : undefined]).filter((x): x is string => !!x && /^[A-Z]+\d+$/.test(x)),
    ),
  ];
  for (const id of ids) {
    const url = `${endpoints.europePmc}/${id}/fullTextXML`;
    const jats = await getJats(url, target, base(`epmc-${id}`));
    if (jats) return { doi, source: 'europepmc', ...jats };
  }
  tried.push(`Europe PMC (${results.length === 0 ? 'no record with this DOI' : `${results.length} record(s), none with a full text`})`);
  throw new ArticleNotFoundError(`${doi} was not found with a full text: ${tried.join('; ')}`);
}

interface EuropePmcRecord {
  id?: string;
  source?: string;
  pmcid?: string;
  doi?: string;
}

/** A small JSON answer; null on 404 (not found); UpstreamError on anything else that fails. */
async function getJson(url: string, options: Omit<DownloadOptions, 'url' | 'maxBytes'>, what: string): Promise<unknown> {
  try {
    const result = await download({
      ...options,
      url,
      maxBytes: MAX_META_BYTES,
      contentTypes: JSON_TYPES,
      headers: { ...options.headers, accept: 'application/json' },
    });
    if (result.status !== 'downloaded') throw new UpstreamError(`GET ${redactUrl(url)}: unexpected 304`);
    try {
      return JSON.parse(await fs.readFile(result.file, 'utf8'));
    } catch {
      throw new UpstreamError(`GET ${redactUrl(url)}: the answer is not ${what} (not JSON)`);
    }
  } catch (error) {
    if (error instanceof DownloadError && error.status === 404) return null;
    if (error instanceof DownloadError) throw new UpstreamError(error.message.replace(/; nothing was imported$/, ''));
    throw error;
  } finally {
    await fs.rm(options.destination, { force: true });
  }
}

/** A JATS file written to `target`; null when the address has none (4xx, or an answer that is not an article). */
async function getJats(
  url: string,
  target: string,
  options: Omit<DownloadOptions, 'url' | 'maxBytes'>,
): Promise<Omit<FetchedJats, 'doi' | 'source'> | null> {
  try {
    const result = await download({
      ...options,
      url,
      maxBytes: MAX_JATS_BYTES,
      contentTypes: JATS_TYPES,
      headers: { ...options.headers, accept: JATS_TYPES.join(', ') },
    });
    if (result.status !== 'downloaded') return null;
    const head = (await fs.readFile(result.file)).subarray(0, 64 * 1024).toString('utf8');
    if (!/<article[\s>]/.test(head)) return null; // not JATS (an HTML page, an empty answer)
    await fs.mkdir(path.dirname(target), { recursive: true });
    // The same text again leaves the stored file as it is (its time too), so the import finds it unchanged.
    const existing = await fs.readFile(target).catch(() => null);
    if (existing && createHash('sha256').update(existing).digest('hex') === result.sha256) await fs.rm(result.file);
    else await fs.rename(result.file, target);
    return { url: redactUrl(url), file: target, bytes: result.bytes, sha256: result.sha256 };
  } catch (error) {
    if (error instanceof DownloadError && error.status !== null && error.status >= 400 && error.status < 500) return null;
    if (error instanceof DownloadError) throw new UpstreamError(error.message.replace(/; nothing was imported$/, ''));
    throw error;
  } finally {
    await fs.rm(options.destination, { force: true });
  }
}

interface FetchedPaper extends FetchedJats {
  title: string | null;
  /** The best completed session of the paper after the import (an author table first). */
  session_id: string | null;
  total_resources: number | null;
}

export interface FetchRun {
  papers: FetchedPaper[];
  errors: Array<{ doi: string; status: 404 | 400 | 502; error: string }>;
  report: ImportReport | null;
}

/**
 * Fetches each DOI, then imports the fetched-papers store once through `importer` (B's `importers.store.run`, the
 * same importer and guards as `pdi import krt`): new and changed files are extracted; a DOI already stored is refreshed.
 */
export async function fetchArticles(
  ctx: ServiceContext,
  importer: ImporterDefinition['run'],
  dois: readonly string[],
  options: FetchOptions & { allowShrink?: boolean; allowSkips?: boolean } = {},
): Promise<FetchRun> {
  const fetched: FetchedJats[] = [];
  const errors: FetchRun['errors'] = [];
  for (const raw of dois) {
    try {
      fetched.push(await fetchJats(ctx, raw, options));
    } catch (error) {
      const status =
        error instanceof ArticleNotFoundError
          ? 404
          : error instanceof UnsupportedDoiError
            ? 400
            : error instanceof UpstreamError
              ? 502
              : null;
      if (status === null) throw error;
      errors.push({ doi: normalizeDoi(raw) ?? raw, status, error: (error as Error).message });
    }
  }
  if (fetched.length === 0) return { papers: [], errors, report: null };
  const [report] = await importer(ctx, fetchedStoreRoot(ctx), {
    allowShrink: options.allowShrink === true,
    allowSkips: options.allowSkips === true,
  });
  ctx.dataVersion.invalidate();
  const krt = ctx.db.kysely.withTables<KrtTables>();
  const papers: FetchedPaper[] = [];
  for (const f of fetched) {
    const article = await getArticle(krt, f.doi);
    const best = pickBestSession(await sessionsOfDoi(krt, f.doi));
    papers.push({
      ...f,
      title: article?.title ?? null,
      session_id: best?.session_id ?? null,
      total_resources: best?.total_resources ?? null,
    });
  }
  return { papers, errors, report: report ?? null };
}

/**
 * One DOI fetched and imported for a client that is waiting (the fetch route, the build page): fewer download retries
 * than the command line, and an import the guards refuse is a 409. `importPath` is what B's `importers.store.run` calls.
 */
export async function fetchForWaitingClient(ctx: ServiceContext, doi: string): Promise<FetchRun> {
  try {
    return await fetchArticles(ctx, importPath, [doi], { download: { retries: 2 } });
  } catch (error) {
    if (error instanceof ImportRefusedError) throw new HttpError(409, error.message, 'IMPORT_REFUSED');
    throw error;
  }
}
