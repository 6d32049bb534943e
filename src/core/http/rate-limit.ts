// Per-client rate limits by endpoint group (B and E): each group is its own encapsulated
// @fastify/rate-limit instance with its own counter namespace (a shared groupId would share counters).
// Fixed one-minute windows; counters in memory, or in Redis when configured (failing open if it is down, slow or
// hung: every Redis command is bounded, and a circuit stops asking a failing Redis for a while).
import { createRequire } from 'node:module';
import rateLimit from '@fastify/rate-limit';
import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { ServiceApp, ServiceContext } from '../service.ts';
import { circuitFor } from '../redis.ts';
import type { RedisCircuit } from '../redis.ts';
import { HttpError } from './errors.ts';

export interface RateLimitGroup {
  /** Group name, used in the Redis key namespace and in the 429 message. */
  name: string;
  /** Requests per window per client. */
  max: number;
  windowMs?: number;
}

export async function rateLimitedGroup(
  app: ServiceApp,
  ctx: ServiceContext,
  group: RateLimitGroup,
  routes: (scope: ServiceApp) => Promise<void> | void,
): Promise<void> {
  const windowMs = group.windowMs ?? 60_000;
  await app.register(async (scope) => {
    // The kernel documents 429 and the rate-limit headers for the routes of a group.
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), limitGroup: group.name };
    });
    await scope.register(rateLimit, {
      global: true,
      max: group.max,
      timeWindow: windowMs,
      hook: 'onRequest',
      keyGenerator: (request) => request.ip,
      ...(ctx.redis ? { store: boundedRedisStore(ctx, ctx.redis, `pdi:rl:${ctx.name}:${group.name}:`) } : {}),
      skipOnError: true, // Redis down, slow or hung: keep answering (fail open); the client and the circuit log it
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

type StoreCallback = Parameters<FastifyRateLimitStore['incr']>[1];
type RouteInfo = Parameters<FastifyRateLimitStore['child']>[0];

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
