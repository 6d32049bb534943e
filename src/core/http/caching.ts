// HTTP caching of successful JSON GETs: a strong ETag over the exact bytes (If-None-Match → 304),
// Cache-Control from the service or route, and an optional server-side cache of whole responses keyed
// by URL and data version, so repeated identical requests skip the database until the data changes.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DataVersionWatcher } from '../service.ts';

export function strongEtag(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** RFC 9110 If-None-Match: a list of entity tags or `*`; weak comparison is used for GET. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

interface CachedResponse {
  version: string;
  body: string;
  etag: string;
  contentType: string;
}

/** A small LRU of response bodies. */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private readonly maxEntries: number;
  private readonly maxBodyBytes: number;

  constructor(maxEntries: number, maxBodyBytes = 2 * 1024 * 1024) {
    this.maxEntries = maxEntries;
    this.maxBodyBytes = maxBodyBytes;
  }

  get(key: string, version: string): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key); // refresh recency
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: CachedResponse): void {
    if (this.maxEntries <= 0 || entry.body.length > this.maxBodyBytes) return;
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  clear(): void {
    this.entries.clear();
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    pdiCacheVersion?: string;
  }
}

export interface CachingOptions {
  defaultCacheSeconds: number;
  cache: ResponseCache | null;
  dataVersion: DataVersionWatcher;
}

function cacheable(request: FastifyRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && request.routeOptions.config?.responseCache === true;
}

/** preHandler: answer from the response cache when the data has not changed. */
export async function serveFromCache(this: CachingOptions, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!this.cache || !cacheable(request)) return;
  const version = (await this.dataVersion.current()) ?? 'none';
  request.pdiCacheVersion = version;
  const hit = this.cache.get(request.url, version);
  if (!hit) return;
  reply.header('content-type', hit.contentType).header('etag', hit.etag);
  reply.send(hit.body);
  return reply as unknown as void;
}

/** onSend: ETag, 304 and Cache-Control for successful GETs; fill the response cache. */
export async function finishCaching(
  this: CachingOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return payload;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload; // streams (exports) are not tagged
  const seconds = request.routeOptions.config?.cacheSeconds ?? this.defaultCacheSeconds;
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', seconds > 0 ? `public, max-age=${seconds}` : 'no-cache');
  let etag = reply.getHeader('etag') as string | undefined;
  if (!etag) {
    etag = strongEtag(payload);
    reply.header('etag', etag);
    if (this.cache && request.pdiCacheVersion !== undefined && typeof payload === 'string') {
      this.cache.set(request.url, {
        version: request.pdiCacheVersion,
        body: payload,
        etag,
        contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
      });
    }
  }
  if (etagMatches(request.headers['if-none-match'], etag)) {
    reply.code(304);
    reply.removeHeader('content-length');
    return '';
  }
  return payload;
}
