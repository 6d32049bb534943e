// npm run bench -- oral [--seconds 8] [--connections 16]
// Requests per second of GET /api/recommendations/?q=fluoride&limit=20 on Service A (the real files on SQLite; a
// real import replaces demo data, so none is loaded), with and without the server-side response cache, beside a
// bare Fastify route returning the same bytes, measured in the same run. Server in a child process, load
// generated here (one core each).
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/core/config.ts';
import { openRuntime } from '../src/core/runtime.ts';
import { importPath } from '../src/services/oral/import.ts';
import { oralService } from '../src/services/oral/service.ts';
import { runLoad } from './_http-load.ts';
import type { LoadResult } from './_http-load.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' }, connections: { type: 'string', default: '16' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const PATH = '/api/recommendations/?q=fluoride&limit=20';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-bench-oral-'));
const env = { ...process.env, PDI_DATA_DIR: dir, PDI_DATABASE_URL: `sqlite:${path.join(dir, 'bench.sqlite')}`, PDI_LOG_LEVEL: 'silent' };
{
  const config = loadConfig(env);
  const runtime = await openRuntime({ ...config, logLevel: 'silent' }, [oralService]);
  const ctx = runtime.contexts.get('oral')!;
  await importPath(ctx, path.join(config.sharedDataDir, 'oral'));
  await runtime.close();
}

async function serve(mode: 'service' | 'bare', port: number, extraEnv: Record<string, string> = {}, bodyFile = '') {
  const child = fork(path.join(import.meta.dirname, '_oral-server.ts'), [mode, String(port), bodyFile], {
    env: { ...env, ...extraEnv },
    stdio: 'inherit',
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return child;
}

async function measure(
  label: string,
  mode: 'service' | 'bare',
  port: number,
  extraEnv: Record<string, string> = {},
  bodyFile = '',
): Promise<LoadResult & { body: string }> {
  const child = await serve(mode, port, extraEnv, bodyFile);
  try {
    const body = await (await fetch(`http://127.0.0.1:${port}${PATH}`)).text();
    const result = await runLoad(`http://127.0.0.1:${port}${PATH}`, { connections, seconds });
    console.log(
      `${label.padEnd(44)} ${result.rps.toFixed(0).padStart(7)} req/s   p50 ${result.p50Ms.toFixed(2)} ms   p99 ${result.p99Ms.toFixed(2)} ms   (${result.requests} requests, ${result.errors} errors)`,
    );
    return { ...result, body };
  } finally {
    child.kill();
  }
}

console.log(`GET ${PATH} — ${connections} keep-alive connections, ${seconds} s each, Node ${process.version}, ${os.cpus().length} CPUs`);
const cached = await measure('Service A (response cache on, default)', 'service', 18101);
const bodyFile = path.join(dir, 'body.json');
fs.writeFileSync(bodyFile, cached.body);
const uncached = await measure('Service A (response cache off)', 'service', 18102, { PDI_RESPONSE_CACHE_ENTRIES: '0' });
const bare = await measure('bare Fastify route, same bytes (baseline)', 'bare', 18103, {}, bodyFile);
if (uncached.body !== cached.body) throw new Error('cached and uncached bodies differ');
console.log(
  `body: ${Buffer.byteLength(cached.body)} bytes, ${JSON.parse(cached.body).data.length} records of ${JSON.parse(cached.body).pagination.total_results}`,
);
console.log(
  `ratio service/bare: ${(cached.rps / bare.rps).toFixed(2)} with the response cache (target ≥ 0.5), ${(uncached.rps / bare.rps).toFixed(2)} without`,
);
fs.rmSync(dir, { recursive: true, force: true });
