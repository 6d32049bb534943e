// HTTP caching and compression of buffered answers: a strong ETag over the exact bytes of each representation
// (If-None-Match → 304), Cache-Control from the service or route, compression (brotli or gzip, as the client
// asks) of answers over 1 KB, and an optional server-side cache of whole responses keyed by URL (and language, for a route in several) and data version.
//
// The cache holds encoded bytes, not strings: a hit sends a Buffer as it is (a 37 KB string with characters above
// U+00FF cost a UTF-8 encoding on every reply, and twice its length in memory), with its brotli or gzip variant
// compressed once, on the first request that accepts it. It is bounded by bytes (PDI_RESPONSE_CACHE_BYTES), least
// recently used first out. A hit is answered in the route's preParsing hook: after every onRequest hook (security
// headers, the rate limit of its group, whichever scope added them) and before validation and the handler: the same
// URL under the same data version has the same answer, and only a 200 that passed validation is ever stored.
import { transcode } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { DataVersionWatcher } from '../service.ts';
import { securityHeadersFor } from './security.ts';
import { countDirectly, countInPrimary } from './rate-limit.ts';
import type { DirectLimit } from './rate-limit.ts';
import { isLanguage, negotiateLanguage } from '../i18n/language.ts';
import type { Language } from '../i18n/language.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers in several languages (`?lang=`, else Accept-Language): its cached answers are keyed by the
     * negotiated language, and an answer chosen by Accept-Language says `Vary: Accept-Language`.
     */
    languages?: readonly Language[];
  }
}

export function strongEtag(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** RFC 9110 If-None-Match: a list of entity tags or `*`; weak comparison is used for GET. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch === etag) return true;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

// ------------------------------------------------------------------------------------------- compression

export type Encoding = 'br' | 'gzip';

/** Answers smaller than this are sent as they are (a compressed frame would save little or nothing). */
export const COMPRESS_MIN_BYTES = 1024;
/** Above this size a body is compressed on the thread pool, not on the event loop. */
const SYNC_COMPRESS_MAX_BYTES = 64 * 1024;
/** Brotli quality 4: most of quality 11's gain on JSON at a small fraction of its time (@fastify/compress's default too). */
const BROTLI_OPTIONS: zlib.BrotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };
// The media types worth compressing (@fastify/compress's rule): text, JSON, XML.
const COMPRESSIBLE_TYPE = /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)text(?:;|$)|(?:\+|\/)xml(?:;|$)/u;

function isCompressibleType(contentType: string): boolean {
  return COMPRESSIBLE_TYPE.test(contentType);
}

const negotiated = new Map<string, Encoding | null>();

/** The encoding to answer with for an Accept-Encoding header: brotli, else gzip, else none (identity). */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const known = negotiated.get(acceptEncoding);
  if (known !== undefined) return known;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.split(';');
    const quality = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = quality === undefined ? 1 : Number(quality.slice(2));
    q.set(name.trim().toLowerCase(), Number.isFinite(value) ? value : 0);
  }
  const accepts = (coding: string) => (q.get(coding) ?? q.get('*') ?? 0) > 0;
  const choice: Encoding | null = accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : null;
  if (negotiated.size >= 256) negotiated.clear(); // a handful of distinct headers in practice; never unbounded
  negotiated.set(acceptEncoding, choice);
  return choice;
}

/** A Buffer that owns exactly its bytes (not a slice of a larger pool or zlib output buffer kept alive by it). */
function exact(buffer: Buffer): Buffer {
  if (buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.length) return buffer;
  const copy = Buffer.allocUnsafeSlow(buffer.length);
  buffer.copy(copy);
  return copy;
}

/** A character V8 cannot hold in a one-byte string: a string with one is stored as UTF-16. */
const ABOVE_LATIN1 = /[^\0-\xff]/;
/** Shorter strings are left to Buffer.from: the detour through UTF-16 has a fixed cost (bench/caching.ts measures this length). */
const TRANSCODE_MIN_CHARS = 1024;

/**
 * The UTF-8 bytes of a text answer, in a Buffer of their own. Buffer.from encodes a UTF-16 string (one with a
 * character above U+00FF: French text with ’, a dash) character by character, at many times the cost of a one-byte
 * string; copying its UTF-16 code units out and letting ICU transcode them gives the same bytes for less
 * (`npm run bench -- caching`). The test costs nothing on a one-byte string (V8 knows none of its characters can
 * match). ICU refuses a lone surrogate, which Buffer.from writes as U+FFFD: such a string is encoded as before.
 */
export function utf8Bytes(text: string): Buffer {
  if (text.length >= TRANSCODE_MIN_CHARS && ABOVE_LATIN1.test(text)) {
    try {
      return exact(transcode(Buffer.from(text, 'utf16le'), 'utf16le', 'utf8'));
    } catch {
      // a lone surrogate: not well-formed UTF-16
    }
  }
  return exact(Buffer.from(text));
}

function compressSync(body: Buffer, encoding: Encoding): Buffer {
  return exact(encoding === 'br' ? zlib.brotliCompressSync(body, BROTLI_OPTIONS) : zlib.gzipSync(body));
}

function compressAsync(body: Buffer, encoding: Encoding, callback: (error: Error | null, result: Buffer) => void): void {
  const done = (error: Error | null, result: Buffer) => callback(error, error ? result : exact(result));
  if (encoding === 'br') zlib.brotliCompress(body, BROTLI_OPTIONS, done);
  else zlib.gzip(body, done);
}

/** The tag of one encoding of a body whose identity tag is `etag`: strong tags differ between representations. */
export function variantEtag(etag: string, encoding: Encoding | null): string {
  return encoding === null ? etag : `${etag.slice(0, -1)}-${encoding === 'br' ? 'br' : 'gz'}"`;
}

// ------------------------------------------------------------------------------------------- the cache

export interface CachedResponse {
  version: string;
  /** Tag of the identity bytes; the compressed variants' tags derive from it (variantEtag). */
  etag: string;
  contentType: string;
  cacheControl: string;
  /** The body is large enough and of a type to be compressed: answers carry `Vary: Accept-Encoding`. */
  compressible: boolean;
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  /** Epoch ms after which the entry is not served (pages: their notices change with time, not only with the data). */
  expiresAt?: number;
  /**
   * The route's address (e.g. `/api/stats/`) when its hits may be answered directly (DirectHits): the route runs no
   * hook of its own before its handler (no rate limit, no CORS), so the answer depends on the URL and data alone.
   */
  directRoute?: string;
  /** The route's rate limit, when its hits are counted against the client's limit (rate-limit.ts, countDirectly). */
  directLimit?: DirectLimit;
  /** The header lists DirectHits sends, per representation, built on first use. */
  directHeaders?: Partial<Record<Encoding | 'identity', string[]>>;
}

/** A cached page (HTML) is served for at most this long: its stale-data notice depends on the clock. */
const PAGE_CACHE_MS = 60_000;

/** Bytes an entry holds beyond its bodies: the key, the strings and the objects (an estimate, on the safe side). */
const ENTRY_OVERHEAD_BYTES = 400;

function entryBytes(key: string, entry: CachedResponse): number {
  return (
    ENTRY_OVERHEAD_BYTES +
    key.length * 2 +
    entry.identity.length +
    (entry.br?.length ?? 0) +
    (entry.gzip?.length ?? 0) +
    entry.contentType.length +
    entry.cacheControl.length
  );
}

/** An LRU of encoded responses, bounded by the bytes it holds (and, optionally, by its number of entries). */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private readonly sizes = new Map<string, number>();
  private held = 0;
  readonly maxBytes: number;
  private readonly maxEntries: number;
  /** One answer may take at most this share of the budget: a huge one would empty the cache for itself. */
  private readonly maxEntryBytes: number;

  constructor(maxBytes: number, maxEntries = Infinity) {
    this.maxBytes = maxBytes;
    this.maxEntries = maxEntries;
    this.maxEntryBytes = Math.floor(maxBytes / 8);
  }

  /** Bytes held now (bodies and estimated overhead). */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string, version: string): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.version !== version || (entry.expiresAt !== undefined && Date.now() > entry.expiresAt)) {
      this.remove(key);
      return undefined;
    }
    // Refresh recency (a Map iterates in insertion order: the first key is the least recently used).
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: CachedResponse): void {
    this.remove(key);
    const size = entryBytes(key, entry);
    if (size > this.maxEntryBytes || this.maxEntries <= 0) return;
    this.entries.set(key, entry);
    this.sizes.set(key, size);
    this.held += size;
    this.evict();
  }

  /** Adds a compressed variant to an entry still held (its bytes count from now on). */
  addVariant(key: string, entry: CachedResponse, encoding: Encoding, body: Buffer): void {
    if (this.entries.get(key) !== entry || entry[encoding] !== undefined) return;
    entry[encoding] = body;
    const size = entryBytes(key, entry);
    this.held += size - (this.sizes.get(key) ?? 0);
    this.sizes.set(key, size);
    this.evict();
  }

  clear(): void {
    this.entries.clear();
    this.sizes.clear();
    this.held = 0;
  }

  private remove(key: string): void {
    const size = this.sizes.get(key);
    if (size === undefined) return;
    this.entries.delete(key);
    this.sizes.delete(key);
    this.held -= size;
  }

  private evict(): void {
    while ((this.held > this.maxBytes || this.entries.size > this.maxEntries) && this.entries.size > 0) {
      this.remove(this.entries.keys().next().value as string);
    }
  }
}

// ------------------------------------------------------------------------------------------- hooks

declare module 'fastify' {
  interface FastifyRequest {
    /** The data version read before the handler ran: the answer is stored in the cache under it. */
    pdiCacheVersion?: string;
    /** The answer came from the cache (onSend has nothing left to do). */
    pdiCacheHit?: boolean;
  }
}

export interface CachingOptions {
  defaultCacheSeconds: number;
  cache: ResponseCache | null;
  dataVersion: DataVersionWatcher;
}

/** Adds Accept-Encoding to Vary, keeping what is there (CORS varies on Origin). */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!/accept-encoding|\*/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
}

/** Adds a header name to Vary, keeping what is there. */
function varyOn(reply: FastifyReply, name: string): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', name);
  else if (!new RegExp(`${name}|\\*`, 'i').test(String(vary))) reply.header('vary', `${String(vary)}, ${name}`);
}

/** The language a multilingual route answers this request in, and whether Accept-Language chose it; null for other routes. */
function routeLanguage(request: FastifyRequest): { language: Language; byHeader: boolean } | null {
  const languages = request.routeOptions.config?.languages;
  if (languages === undefined || languages.length < 2) return null;
  const raw = (request.query as Record<string, unknown> | undefined)?.lang;
  const asked = typeof raw === 'string' ? raw : Array.isArray(raw) && typeof raw[0] === 'string' ? raw[0] : undefined;
  const header = request.headers['accept-language'];
  const language = negotiateLanguage(asked, typeof header === 'string' ? header : undefined, languages);
  const named = asked?.trim().toLowerCase();
  return { language, byHeader: !(isLanguage(named) && languages.includes(named)) };
}

/** The response cache's key of a request: its URL, and for a multilingual route the language it is answered in. */
function cacheKeyOf(request: FastifyRequest): string {
  const language = routeLanguage(request);
  return language === null ? request.url : `${request.url}\u0000${language.language}`;
}

/** A multilingual route's answer names its language, and varies on Accept-Language when that header chose it. */
function varyOnLanguage(request: FastifyRequest, reply: FastifyReply): void {
  const language = routeLanguage(request);
  if (language === null) return;
  reply.header('content-language', language.language);
  if (language.byHeader) varyOn(reply, 'accept-language');
}

const cacheControlOf = (seconds: number) => (seconds > 0 ? `public, max-age=${seconds}` : 'no-cache');

/**
 * onRoute: a GET (and its HEAD) route with `responseCache: true` gets a route-level preParsing hook that answers from
 * the cache. preParsing, not onRequest: a scope's onRoute hook (the rate limit's) adds its onRequest hook after this
 * one, and a hit must still count against the client's limit.
 */
export function cacheRoute(options: CachingOptions, route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (!options.cache || route.config?.responseCache !== true || !methods.every((m) => m === 'GET' || m === 'HEAD')) return;
  const hook = serveFromCache.bind(options);
  route.preParsing =
    route.preParsing === undefined ? [hook] : [...(Array.isArray(route.preParsing) ? route.preParsing : [route.preParsing]), hook];
}

type HookDone = (error?: Error | null) => void;

/** Route preParsing: answer from the response cache when the data has not changed; else note the version for onSend. */
function serveFromCache(this: CachingOptions, request: FastifyRequest, reply: FastifyReply, _payload: unknown, done: HookDone): void {
  const version = this.dataVersion.peek();
  if (version === undefined) {
    // The watcher's value is due for a re-read (at most once a second): ask the database, then look.
    this.dataVersion.current().then(
      (current) => answer(this, request, reply, done, current ?? 'none'),
      (error: unknown) => done(error as Error),
    );
    return;
  }
  answer(this, request, reply, done, version ?? 'none');
}

type HookLists = Partial<Record<'onRequest' | 'preParsing' | 'onSend' | 'onResponse', unknown[] | null>>;
/** Fastify keeps a route's hooks on its context, under an internal symbol (lib/symbols.js: kRouteContext). */
let routeContextKey: symbol | undefined;

/**
 * Whether a cached route's hits may skip Fastify (DirectHits): the hooks a hit runs on Fastify's path are only the
 * kernel's: no onRequest hook (a rate limit, CORS, a service's own wait), the cache's own preParsing, the security
 * headers and finishCaching on send (and Fastify's HEAD handler), the metrics on response. Anything more, or a
 * Fastify whose route context cannot be found, keeps the route on Fastify's path (caching.test.ts fails if A's
 * plain route is then no longer answered directly, so that this never turns itself off unnoticed).
 */
function answersDirectly(request: FastifyRequest): boolean {
  const config = request.routeOptions.config;
  if (config?.cors === true) return false;
  // A rate-limited route runs the limit's hook first (onRequest); the listener counts a hit in the same counters.
  const limitHooks = config?.limitGroup === undefined ? 0 : config.directLimit === undefined ? -1 : 1;
  if (limitHooks < 0) return false;
  routeContextKey ??= Object.getOwnPropertySymbols(request).find((key) => key.description === 'fastify.context');
  if (routeContextKey === undefined) return false;
  const hooks = (request as unknown as Record<symbol, HookLists | undefined>)[routeContextKey];
  if (hooks === undefined) return false;
  const count = (list: unknown[] | null | undefined) => list?.length ?? 0;
  const kernelOnSend = request.method === 'HEAD' ? 3 : 2;
  return (
    count(hooks.onRequest) === limitHooks &&
    count(hooks.preParsing) === 1 &&
    count(hooks.onSend) <= kernelOnSend &&
    count(hooks.onResponse) <= 1
  );
}

function answer(options: CachingOptions, request: FastifyRequest, reply: FastifyReply, done: HookDone, version: string): void {
  const key = cacheKeyOf(request);
  const hit = options.cache!.get(key, version);
  if (hit === undefined) {
    request.pdiCacheVersion = version;
    done();
    return;
  }
  request.pdiCacheHit = true;
  const encoding =
    hit.compressible && request.headers['x-no-compression'] === undefined ? preferredEncoding(request.headers['accept-encoding']) : null;
  const etag = variantEtag(hit.etag, encoding);
  reply.header('content-type', hit.contentType).header('cache-control', hit.cacheControl).header('etag', etag);
  if (hit.compressible) varyOnEncoding(reply);
  varyOnLanguage(request, reply);
  if (etagMatches(request.headers['if-none-match'], etag)) {
    reply.code(304).send();
    return;
  }
  if (encoding === null) {
    reply.send(hit.identity);
    return;
  }
  const ready = hit[encoding];
  if (ready !== undefined) {
    reply.header('content-encoding', encoding).send(ready);
    return;
  }
  // The first client that accepts this encoding: compress once, keep the variant with the entry.
  compress(hit.identity, encoding, (error, body) => {
    if (error) {
      reply.send(hit.identity); // cannot happen with zlib on a Buffer; the identity bytes are always right
      return;
    }
    options.cache!.addVariant(key, hit, encoding, body);
    reply.header('content-encoding', encoding).send(body);
  });
}

function compress(body: Buffer, encoding: Encoding, callback: (error: Error | null, result: Buffer) => void): void {
  if (body.length <= SYNC_COMPRESS_MAX_BYTES) {
    let result: Buffer;
    try {
      result = compressSync(body, encoding);
    } catch (error) {
      callback(error as Error, body);
      return;
    }
    callback(null, result);
  } else {
    compressAsync(body, encoding, callback);
  }
}

/**
 * onSend, every route: for a buffered answer (string or Buffer; streams are left to @fastify/compress), encode it
 * once, then for a successful GET add Cache-Control and the ETag, store it in the cache when its route asked for
 * that, and answer 304 to a matching If-None-Match; compress it (brotli or gzip, as accepted) when it is over 1 KB.
 */
export function finishCaching(
  this: CachingOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: Error | null, payload?: unknown) => void,
): void {
  if (request.pdiCacheHit === true) {
    done(null, payload);
    return;
  }
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) {
    done(null, payload); // streams (exports) and empty answers
    return;
  }
  const status = reply.statusCode;
  const isGet = request.method === 'GET' || request.method === 'HEAD';
  const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
  const encodedAlready = reply.hasHeader('content-encoding');
  const identity = typeof payload === 'string' ? utf8Bytes(payload) : payload;
  const compressible = !encodedAlready && identity.length >= COMPRESS_MIN_BYTES && status !== 206 && isCompressibleType(contentType);
  const encoding =
    compressible && request.headers['x-no-compression'] === undefined ? preferredEncoding(request.headers['accept-encoding']) : null;
  if (compressible) varyOnEncoding(reply);
  varyOnLanguage(request, reply);

  if (!isGet || status !== 200) {
    if (encoding === null) done(null, identity);
    else
      compress(identity, encoding, (error, body) => (error ? done(error) : (reply.header('content-encoding', encoding), done(null, body))));
    return;
  }

  const seconds = request.routeOptions.config?.cacheSeconds ?? this.defaultCacheSeconds;
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', cacheControlOf(seconds));
  // A route may tag its answer itself (cheaper than hashing a long body, e.g. from digests of parts it holds): the tag
  // must be strong and change whenever the identity bytes do. A weak one is kept as it is and not cached.
  const given = reply.getHeader('etag') as string | undefined;
  const etag = given ?? strongEtag(identity);
  let entry: CachedResponse | undefined;
  const key = cacheKeyOf(request);
  if (!given?.startsWith('W/') && this.cache && request.pdiCacheVersion !== undefined && !encodedAlready) {
    entry = {
      version: request.pdiCacheVersion,
      etag,
      contentType,
      cacheControl: String(reply.getHeader('cache-control')),
      compressible,
      identity,
      ...(contentType.startsWith('text/html') ? { expiresAt: Date.now() + PAGE_CACHE_MS } : {}),
      // A multilingual route's hits need the negotiation, which the direct path does not do: they go through Fastify.
      ...(key === request.url && answersDirectly(request) && request.routeOptions.url !== undefined
        ? { directRoute: request.routeOptions.url, directLimit: request.routeOptions.config.directLimit }
        : {}),
    };
    this.cache.set(key, entry);
  }
  // A tag names one representation: a compressed answer gets its own, derived from the route's tag if it set one.
  const tag = variantEtag(etag, encoding);
  reply.header('etag', tag);
  if (etagMatches(request.headers['if-none-match'], tag)) {
    reply.code(304);
    reply.removeHeader('content-length');
    done(null, '');
    return;
  }
  if (encoding === null) {
    done(null, identity);
    return;
  }
  compress(identity, encoding, (error, body) => {
    if (error) {
      done(error);
      return;
    }
    if (entry) this.cache!.addVariant(key, entry, encoding, body);
    reply.header('content-encoding', encoding);
    done(null, body);
  });
}

// ------------------------------------------------------------------------------------------- direct hits

/**
 * Answers a cache hit of a plain route before Fastify sees the request: the HTTP server's request listener asks
 * here first (service-app.ts), and only what is answered here skips routing, the request and reply objects, the
 * per-request logger and the hooks, which cost a hit more than its bytes do (about a third of a hit's time).
 * It answers only what the Fastify path would answer the same way, byte for byte in body and
 * headers (caching.test.ts compares the two): a GET or HEAD whose URL is in the cache under the current data
 * version, stored by a route without a hook of its own (no CORS) other than its group's rate limit (the hit is
 * counted here in the plugin's own counters, with its headers: in memory at once, or in the primary's, answered
 * once counted), in an encoding already held. Everything else, and every request while the server is closing
 * (Fastify adds `Connection: close`), goes on to Fastify. It observes the request in the metrics and, when the
 * log level is info or lower, logs one completion line as Fastify would.
 */
export class DirectHits {
  private readonly options: CachingOptions;
  private readonly observe: (method: string, route: string, status: number, seconds: number) => void;
  private readonly log: FastifyBaseLogger;
  /** Set when the app starts closing: from then on Fastify answers (it closes each connection after its answer). */
  closing = false;
  /** Requests answered here so far. */
  answered = 0;
  /** The client's address as Fastify's `request.ip` gives it: rate limits count by it. */
  private readonly clientAddress: (req: IncomingMessage) => string | undefined;

  constructor(
    options: CachingOptions,
    observe: (method: string, route: string, status: number, seconds: number) => void,
    log: FastifyBaseLogger,
    clientAddress: (req: IncomingMessage) => string | undefined,
  ) {
    this.options = options;
    this.observe = observe;
    this.log = log;
    this.clientAddress = clientAddress;
  }

  /**
   * Answers `req` from the cache and returns true, or returns false and leaves it to Fastify. A hit whose count waits
   * for the primary (a worker's rate limit) returns true and is answered once counted, or handed to `fallback`
   * (Fastify) when it is not.
   */
  answer(req: IncomingMessage, res: ServerResponse, fallback?: (req: IncomingMessage, res: ServerResponse) => void): boolean {
    const cache = this.options.cache;
    const method = req.method;
    if (cache === null || this.closing || (method !== 'GET' && method !== 'HEAD') || req.url === undefined) return false;
    const version = this.options.dataVersion.peek();
    if (version === undefined) return false;
    const started = performance.now();
    const entry = cache.get(req.url, version ?? 'none');
    if (entry === undefined || entry.directRoute === undefined) return false;
    const headers = req.headers;
    const encoding = entry.compressible && headers['x-no-compression'] === undefined ? preferredEncoding(headers['accept-encoding']) : null;
    const body = encoding === null ? entry.identity : entry[encoding];
    if (body === undefined) return false; // the first request that accepts this encoding: Fastify's path compresses once
    const list =
      (entry.directHeaders ??= {})[encoding ?? 'identity'] ??
      (entry.directHeaders[encoding ?? 'identity'] = directHeaders(entry, encoding));
    // A hit of a rate-limited route counts against the client's limit, last, once it is sure to be answered here; the
    // limit's headers come first, where the plugin's hook puts them. At the limit the plugin answers (its 429).
    const limit = entry.directLimit;
    if (limit === undefined) {
      this.send(req, res, entry, list, body, encoding, null, started);
      return true;
    }
    const client = this.clientAddress(req);
    if (client === undefined) return false;
    if (limit.store !== undefined) {
      const limitHeaders = countDirectly(limit, client);
      if (limitHeaders === null) return false;
      this.send(req, res, entry, list, body, encoding, limitHeaders, started);
      return true;
    }
    if (limit.primary === undefined || fallback === undefined) return false;
    countInPrimary(limit, client, (limitHeaders) => {
      // Closing meanwhile: Fastify answers, with the Connection: close a closing server sends.
      if (limitHeaders === null || this.closing) fallback(req, res);
      else this.send(req, res, entry, list, body, encoding, limitHeaders === 'failed' ? null : limitHeaders, started);
    });
    return true;
  }

  private send(
    req: IncomingMessage,
    res: ServerResponse,
    entry: CachedResponse,
    list: string[],
    body: Buffer,
    encoding: Encoding | null,
    limitHeaders: string[] | null,
    started: number,
  ): void {
    const method = req.method!;
    const headers = req.headers;
    let status = 200;
    // list[5] is the representation's ETag (directHeaders puts it there).
    if (etagMatches(headers['if-none-match'], list[5])) {
      status = 304;
      const notModified = list.slice(0, encoding === null ? -2 : -4);
      res.writeHead(304, limitHeaders === null ? notModified : limitHeaders.concat(notModified));
      res.end();
    } else {
      res.writeHead(200, limitHeaders === null ? list : limitHeaders.concat(list));
      if (method === 'HEAD') res.end();
      else res.end(body);
    }
    this.answered++;
    const seconds = (performance.now() - started) / 1000;
    this.observe(method, entry.directRoute!, status, seconds);
    if (LOGS_COMPLETIONS.has(this.log.level))
      this.log.info(
        {
          req: { method, url: req.url, host: headers.host, remoteAddress: req.socket.remoteAddress },
          res: { statusCode: status },
          responseTime: seconds * 1000,
          cache: 'direct',
        },
        'request completed',
      );
  }
}

/** Levels at which Fastify logs each request's completion (requestLoggingDisabled in core/log.ts). */
const LOGS_COMPLETIONS = new Set(['trace', 'debug']);

/** The headers of one representation of an entry, in the order and spelling the Fastify path sends them. */
function directHeaders(entry: CachedResponse, encoding: Encoding | null): string[] {
  const list = ['content-type', entry.contentType, 'cache-control', entry.cacheControl, 'etag', variantEtag(entry.etag, encoding)];
  if (entry.compressible) list.push('vary', 'accept-encoding');
  for (const [name, value] of securityHeadersFor(entry.contentType)) list.push(name, value);
  // Last, because a 304 leaves them out (as Fastify's path does): the encoding and length of a body not sent.
  if (encoding !== null) list.push('content-encoding', encoding);
  const body = encoding === null ? entry.identity : entry[encoding]!;
  list.push('content-length', String(body.length));
  return list;
}
