// Per-client rate limits by endpoint group (B and E): each group is its own encapsulated
// @fastify/rate-limit instance with its own counter namespace (a shared groupId would share counters).
// Fixed one-minute windows; counters in Redis when configured (failing open if it is down, slow or hung: every Redis
// command is bounded, and a circuit stops asking a failing Redis for a while); else, in a worker of `serve --workers
// n` with two or more workers, in the primary, which every worker asks (primary-store.ts, bounded the same way), so
// that a limit holds per client whatever the number of workers; else (one process, or a single serving worker, where
// asking the primary would only add an IPC round trip to every request) in this process's memory.
import { createRequire } from 'node:module';
import rateLimit from '@fastify/rate-limit';
import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { ServiceApp, ServiceContext } from '../service.ts';
import { circuitFor } from '../redis.ts';
import type { RedisCircuit } from '../redis.ts';
import { HttpError } from './errors.ts';
import { PrimaryStore, primaryCounters } from './primary-store.ts';
import { servingWorkers } from '../cluster.ts';

export interface RateLimitGroup {
  /** Group name, used in the Redis key namespace and in the 429 message. */
  name: string;
  /** Requests per window per client. */
  max: number;
  windowMs?: number;
}

type StoreCallback = Parameters<FastifyRateLimitStore['incr']>[1];
type RouteInfo = Parameters<FastifyRateLimitStore['child']>[0];

/** A store that can also be read without counting (@fastify/rate-limit's LocalStore and RedisStore can). */
interface ReadableStore extends FastifyRateLimitStore {
  read(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
}

/**
 * What the HTTP listener needs to answer a cache hit of a group's route itself (DirectHits, caching.ts) and count it
 * against the client's limit in the same counters as the plugin's hook: set on each route's config.
 */
export interface DirectLimit {
  max: number;
  windowMs: number;
  /**
   * The group's in-memory counters, which answer at once. Unset when Redis keeps them: a hit then goes through the
   * plugin (a round trip, and a count that other processes share).
   */
  store?: ReadableStore;
  /** The group's counters in the primary (a worker without Redis): a hit waits for the primary's count. */
  primary?: PrimaryStore;
}

/**
 * Counts one request of `client` against `limit` and returns the three headers @fastify/rate-limit sends with an
 * allowed request, in its order; or null, without counting, when the request would exceed the limit (the plugin
 * then answers it, with its 429) or when the counters are not in memory.
 */
export function countDirectly(limit: DirectLimit, client: string): string[] | null {
  const store = limit.store;
  if (store === undefined) return null;
  // The in-memory store calls back at once: the read and the count happen with nothing in between.
  let current = -1;
  store.read(client, (_error, result) => (current = result?.current ?? -1), limit.windowMs, limit.max);
  if (current < 0 || current + 1 > limit.max) return null;
  let counted: { current: number; ttl: number } | undefined;
  store.incr(client, (_error, result) => (counted = result), limit.windowMs, limit.max);
  if (counted === undefined) return null;
  return limitHeaders(limit, counted);
}

/** The plugin's rate-limit headers for an allowed request, from the count after it. */
function limitHeaders(limit: DirectLimit, counted: { current: number; ttl: number }): string[] {
  return [
    'x-ratelimit-limit',
    String(limit.max),
    'x-ratelimit-remaining',
    String(Math.max(0, limit.max - counted.current)),
    'x-ratelimit-reset',
    String(Math.ceil(counted.ttl / 1000)),
  ];
}

/**
 * countDirectly's asynchronous twin for counters held by the primary: calls `done` with the headers of an allowed
 * request once counted; with null, without counting, at the limit (the plugin then answers, with its 429); or with
 * 'failed' when the primary did not count in time (the request is let through without the headers, as the plugin lets
 * it through when the primary fails, and without asking the primary a second time).
 */
export function countInPrimary(limit: DirectLimit, client: string, done: (headers: string[] | null | 'failed') => void): void {
  const store = limit.primary;
  if (store === undefined) {
    done(null);
    return;
  }
  store.incrWithin(client, limit.windowMs, limit.max, (error, counted) => {
    if (error !== null || counted === undefined) {
      done('failed');
      return;
    }
    if (!counted.counted) {
      done(null);
      return;
    }
    done(limitHeaders(limit, counted));
  });
}

export async function rateLimitedGroup(
  app: ServiceApp,
  ctx: ServiceContext,
  group: RateLimitGroup,
  routes: (scope: ServiceApp) => Promise<void> | void,
): Promise<void> {
  const windowMs = group.windowMs ?? 60_000;
  const direct: DirectLimit = { max: group.max, windowMs };
  await app.register(async (scope) => {
    // The kernel documents 429 and the rate-limit headers for the routes of a group; the listener counts hits.
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), limitGroup: group.name, directLimit: direct };
    });
    await scope.register(rateLimit, {
      global: true,
      max: group.max,
      timeWindow: windowMs,
      hook: 'onRequest',
      keyGenerator: (request) => request.ip,
      store: ctx.redis
        ? boundedRedisStore(ctx, ctx.redis, `pdi:rl:${ctx.name}:${group.name}:`)
        : servingWorkers() > 1
          ? storeInPrimary(ctx, direct, `${ctx.name}:${group.name}:`)
          : sharedLocalStore(direct),
      skipOnError: true, // Redis or the primary down, slow or hung: keep answering (fail open); the circuit logs it
      addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
      addHeadersOnExceeding: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true },
      errorResponseBuilder: (_request, context) =>
        new HttpError(
          429,
          `rate limit exceeded for ${group.name}: ${context.max} requests per ${Math.round(windowMs / 1000)} seconds; retry in ${context.after}`,
          'RATE_LIMITED',
        ),
    });
    await routes(scope as ServiceApp);
  });
}

// @fastify/rate-limit's own in-memory store, as the plugin makes it without a `store` (an LRU of 5,000 clients).
const LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
) => ReadableStore;

/** The plugin's in-memory store, built by the plugin and kept where the listener can count with it too. */
function sharedLocalStore(direct: DirectLimit): new (options: FastifyRateLimitOptions) => FastifyRateLimitStore {
  return class extends LocalStore {
    constructor(_options: FastifyRateLimitOptions) {
      super(false, false); // fixed windows, as the groups ask (no continueExceeding, no exponential backoff)
      direct.store = this;
    }
  };
}

/** The counters of the primary of `serve --workers n`, kept where the listener can count with them too. */
function storeInPrimary(
  ctx: ServiceContext,
  direct: DirectLimit,
  namespace: string,
): new (options: FastifyRateLimitOptions) => FastifyRateLimitStore {
  const counters = primaryCounters(ctx.config.primaryLimits, ctx.log);
  return class extends PrimaryStore {
    constructor(_options: FastifyRateLimitOptions) {
      super(counters, namespace);
      direct.primary = this;
    }
  };
}

// @fastify/rate-limit's own Redis store (an atomic Lua INCR + PEXPIRE); the package publishes no types for it.
const RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => FastifyRateLimitStore;

/** The Redis store behind the connection's circuit, each command bounded by PDI_REDIS_COMMAND_TIMEOUT_MS. */
class BoundedStore implements FastifyRateLimitStore {
  private readonly inner: FastifyRateLimitStore;
  private readonly circuit: RedisCircuit;

  constructor(inner: FastifyRateLimitStore, circuit: RedisCircuit) {
    this.inner = inner;
    this.circuit = circuit;
  }

  incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
    if (!this.circuit.allow()) {
      callback(new Error('redis circuit open: not asked'));
      return;
    }
    const timeoutMs = this.circuit.limits.commandTimeoutMs;
    let settled = false;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            if (settled) return;
            settled = true;
            const error = new Error(`redis did not answer within ${timeoutMs} ms`);
            this.circuit.failure(error);
            callback(error);
          }, timeoutMs)
        : undefined;
    this.inner.incr(
      key,
      (error, result) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) this.circuit.failure(error);
        else this.circuit.success();
        callback(error, result);
      },
      timeWindow,
      max,
    );
  }

  child(routeOptions: RouteInfo): FastifyRateLimitStore {
    return new BoundedStore(this.inner.child(routeOptions), this.circuit);
  }
}

/** A store class for @fastify/rate-limit (it constructs the store itself, with its options). */
function boundedRedisStore(
  ctx: ServiceContext,
  redis: Redis,
  nameSpace: string,
): new (options: FastifyRateLimitOptions) => FastifyRateLimitStore {
  const circuit = circuitFor(redis, ctx.config.redisLimits, ctx.log);
  return class extends BoundedStore {
    constructor(_options: FastifyRateLimitOptions) {
      // Fixed windows: no continueExceeding, no exponential backoff (the groups never set them).
      super(new RedisStore(false, false, redis, nameSpace), circuit);
    }
  };
}
