// Per-client rate limits by endpoint group (B and E): each group is its own encapsulated
// @fastify/rate-limit instance with its own counter namespace (a shared groupId would share counters).
// Fixed one-minute windows; counters in memory, or in Redis when configured (failing open if it is down).
import rateLimit from '@fastify/rate-limit';
import type { ServiceApp, ServiceContext } from '../service.ts';
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
      ...(ctx.redis ? { redis: ctx.redis, nameSpace: `pdi:rl:${ctx.name}:${group.name}:` } : {}),
      skipOnError: true, // Redis down: keep answering (fail open); the client logs the outage
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
