// Prometheus metrics per listener: request counts and durations by route and status, process metrics, and the
// freshness of the service's data (src/core/sync/status.ts).
import client from 'prom-client';
import type { ServiceApp, ServiceContext } from '../service.ts';
import { registerSyncMetrics } from '../sync/publish.ts';

/** Records one request's duration; what the listener calls for answers Fastify did not see (DirectHits). */
export type ObserveRequest = (method: string, route: string, status: number, seconds: number) => void;

export function registerMetrics(app: ServiceApp, service: string, ctx?: ServiceContext): ObserveRequest {
  const registry = new client.Registry();
  registry.setDefaultLabels({ service });
  client.collectDefaultMetrics({ register: registry });
  // How current the data is: pdi_sync_last_success_timestamp_seconds, pdi_data_stale and friends (issue 21).
  if (ctx) registerSyncMetrics(registry, ctx);
  const duration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of HTTP requests in seconds',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // One labelled child per method, route and status, looked up by a string key: prom-client would otherwise hash the
  // label object on every observation (a few per cent of a cached answer's CPU). Routes and statuses are few.
  const children = new Map<string, client.Histogram.Internal<'method' | 'route' | 'status_code'>>();
  const observe: ObserveRequest = (method, route, status, seconds) => {
    const key = `${method} ${status} ${route}`;
    let child = children.get(key);
    if (child === undefined) {
      child = duration.labels({ method, route, status_code: String(status) });
      children.set(key, child);
    }
    child.observe(seconds);
  };
  app.addHook('onResponse', (request, reply, done) => {
    observe(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', { schema: { hide: true }, config: { cacheSeconds: 0 } }, async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
  return observe;
}
