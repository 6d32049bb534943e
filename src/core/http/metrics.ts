// Prometheus metrics per listener: request counts and durations by route and status, process metrics, and the
// freshness of the service's data (src/core/sync/status.ts).
import client from 'prom-client';
import type { ServiceApp, ServiceContext } from '../service.ts';
import { registerSyncMetrics } from '../sync/publish.ts';

export function registerMetrics(app: ServiceApp, service: string, ctx?: ServiceContext): void {
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
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let child = children.get(key);
    if (child === undefined) {
      child = duration.labels({ method: request.method, route, status_code: String(reply.statusCode) });
      children.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', { schema: { hide: true }, config: { cacheSeconds: 0 } }, async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}
