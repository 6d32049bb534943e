// A small closed-loop HTTP load generator (keep-alive connections, each sending its next request when the
// previous answer arrives), used by the benchmarks to compare a service route with a baseline route.
import http from 'node:http';

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

export async function runLoad(
  url: string,
  options: { connections?: number; seconds?: number; warmupSeconds?: number } = {},
): Promise<LoadResult> {
  const connections = options.connections ?? 16;
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const req = http.get({ host: target.hostname, port: target.port, path: target.pathname + target.search, agent }, (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`status ${res.statusCode}`)),
        );
      });
      req.on('error', reject);
    });
  const phase = async (seconds: number, record: boolean) => {
    const latencies: number[] = [];
    let errors = 0;
    const deadline = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < deadline) {
          try {
            const ms = await once();
            if (record) latencies.push(ms);
          } catch {
            errors++;
          }
        }
      }),
    );
    return { latencies, errors, seconds: (performance.now() - started) / 1000 };
  };
  await phase(options.warmupSeconds ?? 2, false);
  const { latencies, errors, seconds } = await phase(options.seconds ?? 8, true);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  return { requests: latencies.length, seconds, rps: latencies.length / seconds, p50Ms: q(0.5), p99Ms: q(0.99), errors };
}
