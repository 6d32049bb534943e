// Rate limits shared through Redis: two app instances on one Redis spend one budget per client; with Redis
// unreachable the service keeps answering (fails open). Every run uses its own Redis key namespace. Outside
// CI the Redis part is skipped when the server is down; in CI it fails.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { REDIS_URL, describeEachDatabase, skipUnlessAvailable } from '../../../test/support/databases.ts';
import { redisProblem } from '../../../test/support/redis.ts';
import { buildTestApp, testContext } from '../../../test/support/app.ts';
import { connectRedis } from '../../core/redis.ts';
import { loadConfig } from '../../core/config.ts';
import type { ServiceApp } from '../../core/service.ts';
import { retractionService } from './service.ts';
import { importRetractionWatch } from './import.ts';
import { RATE_LIMITS } from './routes/index.ts';
import { simpleRow, tempDir, writeRwCsv } from '../../../test/support/retraction/fixtures.ts';

const redisGate = skipUnlessAvailable(await redisProblem());
const silentLog = { warn() {}, info() {} };
const testConfig = loadConfig({ PDI_DATABASE_URL: '' });

describeEachDatabase(
  'retraction rate limits across instances',
  (t) => {
    let dir: string;
    before(async () => {
      dir = tempDir('ratelimit');
      await importRetractionWatch(
        t.db,
        writeRwCsv(
          path.join(dir, 'rw.csv'),
          [1, 2, 3].map((i) => simpleRow(i)),
        ),
      );
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('shares one export budget between two instances on the same Redis', { skip: redisGate.skip }, async () => {
      if (redisGate.problem) throw new Error(redisGate.problem);
      // A key namespace of this run only, so that parallel or repeated runs never share counters.
      const namespace = `pdi-test-${process.pid}-${randomBytes(4).toString('hex')}:`;
      const redisA = new Redis(REDIS_URL, { keyPrefix: namespace });
      const redisB = new Redis(REDIS_URL, { keyPrefix: namespace });
      const admin = new Redis(REDIS_URL);
      // Connected before the first request, and each command's bound generous: the limiter lets a request through
      // uncounted when Redis does not answer within it (50 ms by default, which a loaded machine can exceed); this
      // test checks the counting, test/redis-hang.test.ts the bound.
      await Promise.all([redisA.ping(), redisB.ping()]);
      const overrides = { dataDir: dir, redisLimits: { ...testConfig.redisLimits, commandTimeoutMs: 10_000 } };
      const apps: ServiceApp[] = [];
      try {
        apps.push(await buildTestApp(retractionService, testContext(retractionService, t.db, overrides, redisA)));
        apps.push(await buildTestApp(retractionService, testContext(retractionService, t.db, overrides, redisB)));
        const statuses: number[] = [];
        const remaining: string[] = [];
        for (let i = 0; i <= RATE_LIMITS.export; i++) {
          const res = await apps[i % 2].inject({ url: '/api/export/?format=csv&limit=1', remoteAddress: '198.51.100.7' });
          statuses.push(res.statusCode);
          remaining.push(String(res.headers['x-ratelimit-remaining']));
          if (res.statusCode === 429) assert.ok(Number(res.headers['retry-after']) > 0);
        }
        assert.deepEqual(
          statuses,
          [...Array(RATE_LIMITS.export).fill(200), 429],
          'the 11th export, whichever instance answers it, is refused',
        );
        assert.deepEqual(remaining.slice(0, 3), ['9', '8', '7'], 'both instances count down one budget');
        // The counter lives under this run's namespace (KEYS patterns are not prefixed by ioredis).
        assert.deepEqual(await admin.keys(`${namespace}*`), [`${namespace}pdi:rl:retraction:export:198.51.100.7`]);
        // Another client has its own budget on both instances.
        assert.equal((await apps[1].inject({ url: '/api/export/?format=csv&limit=1', remoteAddress: '198.51.100.8' })).statusCode, 200);
      } finally {
        for (const app of apps) await app.close();
        const keys = await admin.keys(`${namespace}*`);
        if (keys.length) await admin.del(...keys);
        redisA.disconnect();
        redisB.disconnect();
        admin.disconnect();
      }
    });

    it('keeps answering when Redis is unreachable (fails open)', async () => {
      // Port 1: nothing listens there; commands fail fast (no offline queue).
      const down = await connectRedis('redis://127.0.0.1:1', silentLog);
      const app = await buildTestApp(retractionService, testContext(retractionService, t.db, { dataDir: dir }, down));
      try {
        const statuses: number[] = [];
        for (let i = 0; i < RATE_LIMITS.export + 3; i++)
          statuses.push((await app.inject({ url: '/api/export/?format=csv&limit=1', remoteAddress: '198.51.100.9' })).statusCode);
        assert.deepEqual(statuses, Array(RATE_LIMITS.export + 3).fill(200));
        const res = await app.inject({ url: '/api/paper/1/citations/', remoteAddress: '198.51.100.9' });
        assert.equal(res.statusCode, 200);
      } finally {
        await app.close();
        down.disconnect();
      }
    });
  },
  { migrations: retractionService.migrations },
);
