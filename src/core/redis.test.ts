// Loading ioredis must leave String.prototype with fast properties: ioredis 6 defines a class that extends String,
// which on its own puts String.prototype's properties in a dictionary and stops V8 from inlining `charCodeAt` and the
// other String methods in the whole process (src/core/redis.ts says why and how connectRedis undoes it). Each check
// runs in a fresh process with --allow-natives-syntax, where %HasFastProperties reads the state; the speed it gives
// is measured by bench/redis-string-prototype.ts, never here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REDIS_URL, skipUnlessAvailable } from '../../test/support/databases.ts';
import { redisProblem } from '../../test/support/redis.ts';

const redisModule = pathToFileURL(path.join(import.meta.dirname, 'redis.ts')).href;

/** Runs `body` (a module, with natives syntax) in a fresh Node process and returns what it printed, parsed. */
function inFreshProcess(body: string): Record<string, boolean> {
  const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', body], {
    encoding: 'utf8',
    cwd: path.join(import.meta.dirname, '..', '..'),
    env: { ...process.env, NODE_OPTIONS: '' },
    timeout: 60_000,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, boolean>;
}

const FAST = 'const fast = () => %HasFastProperties(String.prototype);';

const gate = skipUnlessAvailable(await redisProblem());

describe('String.prototype after ioredis is loaded', () => {
  it('is slowed by importing ioredis alone (what connectRedis undoes)', () => {
    const seen = inFreshProcess(`${FAST}
      const before = fast();
      await import('ioredis');
      console.log(JSON.stringify({ before, after: fast() }));`);
    assert.deepEqual(seen, { before: true, after: false }, 'if V8 no longer does this, restoreFastStringPrototype in redis.ts can go');
  });

  it('keeps fast properties through connectRedis, even when another class extends String afterwards', () => {
    const seen = inFreshProcess(`${FAST}
      const { connectRedis } = await import(${JSON.stringify(redisModule)});
      const client = await connectRedis('redis://127.0.0.1:1', { warn() {}, info() {} });
      client.disconnect();
      const afterConnect = fast();
      class Another extends String {}
      globalThis.kept = [new Another('x'), Object.create(String.prototype)];
      console.log(JSON.stringify({ afterConnect, afterAnother: fast() }));`);
    assert.deepEqual(seen, { afterConnect: true, afterAnother: true });
  });

  it('keeps fast properties while talking to Redis (RESP3 replies, a verbatim string among them)', { skip: gate.skip }, () => {
    if (gate.problem) throw new Error(gate.problem);
    const seen = inFreshProcess(`${FAST}
      const { connectRedis } = await import(${JSON.stringify(redisModule)});
      const limits = { commandTimeoutMs: 10000, circuitFailures: 3, circuitRetryMs: 5000 };
      const client = await connectRedis(${JSON.stringify(REDIS_URL)}, { warn() {}, info() {} }, limits);
      await new Promise((ready) => client.once('ready', ready)); // no offline queue: wait for the connection
      await client.ping();
      const info = await client.info('server'); // a verbatim string under RESP3 (ioredis answers it as text)
      client.disconnect();
      console.log(JSON.stringify({ answered: info.includes('redis_version'), fast: fast() }));`);
    assert.deepEqual(seen, { answered: true, fast: true });
  });
});
