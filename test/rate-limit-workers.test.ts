// Rate limits under `serve --workers 2` without Redis: the primary holds the counters, so a group's limit holds per
// client whatever the number of workers (each worker counting on its own let twice the limit through). Under
// `--workers 1` the only serving worker counts in its own memory, and the limits hold the same. E's export
// group (10 a minute) lets exactly 10 of 20 requests from one client through, the requests spread over both workers;
// in the analytics group (50 a minute), cache hits the listener answers itself (DirectHits) and requests Fastify
// answers count in the same counters. SQLite only: the counters do not depend on the database kind.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request, startServer } from './support/server-process.ts';
import type { Answer, ServerProcess } from './support/server-process.ts';

for (const workers of [2, 1])
  describe(
    `rate limits with ${workers} worker(s)`,
    { skip: process.platform !== 'linux' ? 'the cluster shares ports on Linux' : undefined },
    () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-limits-'));
      const port = (workers === 1 ? 61_000 : 21_000) + (process.pid % 4000); // 61,000+: above the ephemeral range
      let server: ServerProcess;
      let log = '';

      before(async () => {
        server = await startServer({
          args: ['retraction', '--workers', String(workers), '--port', `retraction=${port}`],
          env: {
            PDI_DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`,
            PDI_DATA_DIR: dir,
            // Completion lines (debug) say which answers the listener gave itself ("cache":"direct"); each worker says it
            // listens at debug too.
            PDI_LOG_LEVEL: 'debug',
            PDI_LOG_FORMAT: 'json',
            // A loaded test machine must not make the primary's answers late: a late answer lets the request through.
            PDI_RATE_LIMIT_PRIMARY_TIMEOUT_MS: '10000',
          },
          port,
          readyPath: '/openapi.json',
          timeoutMs: 300_000,
        });
        server.child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
        // Both workers listen before the port is shared out to them.
        const listening = () => (server.output().match(/listening on http/g) ?? []).length;
        for (let i = 0; i < 600 && listening() < workers; i++) await new Promise((r) => setTimeout(r, 100));
        assert.equal(listening(), workers, server.output());
      });
      after(async () => {
        await server?.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      });

      // Each request on its own connection: the primary hands connections to the workers in turn.
      const get = (url: string) => request({ port, path: url });
      const statuses = (answers: Answer[]) => answers.map((a) => a.status);

      it("lets exactly E's export limit (10 a minute) through from one client, over every worker", async () => {
        const answers: Answer[] = [];
        for (let i = 0; i < 20; i++) answers.push(await get('/api/export/?format=json&limit=1'));
        assert.deepEqual(statuses(answers), [...Array<number>(10).fill(200), ...Array<number>(10).fill(429)], answers.at(-1)!.body);
        // One counter: the remaining count goes down by one a request, whichever worker answers.
        assert.deepEqual(
          answers.slice(0, 10).map((a) => a.headers['x-ratelimit-remaining']),
          ['9', '8', '7', '6', '5', '4', '3', '2', '1', '0'],
        );
        assert.match(JSON.parse(answers[10].body).error, /rate limit exceeded for export: 10 requests per 60 seconds/);
      });

      it('counts cache hits answered by the listener in the same counters as the requests Fastify answers', async () => {
        const hits = () => (log.match(/"cache":"direct"/g) ?? []).length;
        const cached = '/api/post-retraction-analytics/';
        const answers: Answer[] = [];
        // Alternating a cached address (a hit in each worker once both have it) with addresses no one asked before
        // (answered by Fastify, through the plugin's hook), 60 requests in the group of 50.
        for (let i = 0; i < 60; i++) answers.push(await get(i % 2 === 0 ? cached : `${cached}?journal=j${i}`));
        const allowed = answers.filter((a) => a.status === 200).length;
        assert.equal(allowed, 50, String(statuses(answers)));
        assert.deepEqual(
          statuses(answers).slice(50),
          Array<number>(10).fill(429),
          'the 51st request and every one after it is refused, on either path',
        );
        // The workers' completion lines reach this process through a pipe, after the answers: wait for them a little.
        for (let i = 0; i < 50 && hits() < 20; i++) await new Promise((r) => setTimeout(r, 100));
        assert.ok(hits() >= 20, `the listener answered ${hits()} hits itself`);
      });
    },
  );
