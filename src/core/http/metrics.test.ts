// RequestDurations must expose exactly what prom-client's own Histogram would for the same observations: the text
// format (Prometheus and OpenMetrics) and the JSON, with the registry's default labels.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import client from 'prom-client';
import { Random } from '../random.ts';
import { DURATION_BUCKETS, RequestDurations } from './metrics.ts';

function registries(contentType?: string) {
  const reference = new client.Registry();
  const ours = new client.Registry();
  for (const registry of [reference, ours]) {
    registry.setDefaultLabels({ service: 'probe' });
    // (prom-client's types bind a registry to the content type it was made with; it accepts either)
    if (contentType) registry.setContentType(contentType as typeof client.Registry.PROMETHEUS_CONTENT_TYPE);
  }
  const histogram = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of HTTP requests in seconds',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [...DURATION_BUCKETS],
    registers: [reference],
  });
  const durations = new RequestDurations();
  ours.registerMetric(durations as unknown as client.Metric);
  return { reference, ours, histogram, durations };
}

describe('request durations', () => {
  for (const contentType of [undefined, client.Registry.OPENMETRICS_CONTENT_TYPE])
    it(`match prom-client's histogram for the same observations (${contentType ?? 'Prometheus text'})`, async () => {
      const { reference, ours, histogram, durations } = registries(contentType);
      const random = new Random('request-durations');
      const routes = ['/api/stats/', '/api/search/', 'unmatched', '/api/paper/:record_id/citations/'];
      const values = [0, ...DURATION_BUCKETS, 20, 1e-7];
      for (let i = 0; i < 3000; i++) {
        const method = random.pick(['GET', 'HEAD', 'POST']);
        const route = random.pick(routes);
        const status = random.pick([200, 304, 400, 404, 429, 503]);
        // Values on every bound (a bound counts in its own bucket), between bounds, and beyond the last.
        const seconds = random.next() < 0.3 ? random.pick(values) : random.exponential(40);
        histogram.labels({ method, route, status_code: String(status) }).observe(seconds);
        durations.observe(method, route, status, seconds);
      }
      assert.equal(await ours.metrics(), await reference.metrics());
      assert.deepEqual(await ours.getMetricsAsJSON(), await reference.getMetricsAsJSON());
      durations.reset();
      histogram.reset();
      assert.equal(await ours.metrics(), await reference.metrics(), 'after a reset');
    });

  it('ignores a duration that is not a finite number', async () => {
    const { ours } = registries();
    const durations = new RequestDurations();
    durations.observe('GET', '/x/', 200, Number.NaN);
    assert.deepEqual(durations.get().values, []);
    assert.match(await ours.metrics(), /# TYPE http_request_duration_seconds histogram/);
  });
});
