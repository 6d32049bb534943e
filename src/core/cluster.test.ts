// `serve --workers n` as a real process tree: the primary forks its workers, they answer on the shared port, and a
// SIGTERM to the primary stops every worker gracefully (exit 0, no worker left behind). SQLite only: the cluster
// does not depend on the database kind.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WORKER_SEMI_SPACE_MB, relayDataVersions, workerCount, workerExecArgv } from './cluster.ts';
import { request, startServer } from '../../test/support/server-process.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('workerCount', () => {
  it('takes a whole number (0: this process), and one per core when absent', () => {
    assert.equal(workerCount('3'), 3);
    assert.equal(workerCount('0'), 0);
    assert.equal(workerCount(undefined), os.availableParallelism());
    assert.equal(workerCount(' '), os.availableParallelism());
    for (const bad of ['-1', '1.5', 'two', '1e2'])
      assert.throws(() => workerCount(bad), /--workers must be a whole number \(0 serves in this process\)/);
  });
});

describe('workerExecArgv', () => {
  it('adds the semi-space bound and turns the memory reducer off, each unless the command line or NODE_OPTIONS set it', () => {
    const semi = `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`;
    assert.deepEqual(workerExecArgv(['--expose-gc'], ''), ['--expose-gc', semi, '--no-memory-reducer']);
    assert.deepEqual(workerExecArgv(['--max-semi-space-size=64'], ''), ['--max-semi-space-size=64', '--no-memory-reducer']);
    assert.deepEqual(workerExecArgv([], '--max_semi_space_size=32'), ['--no-memory-reducer']);
    assert.deepEqual(workerExecArgv(['--memory-reducer'], ''), ['--memory-reducer', semi]);
    assert.deepEqual(workerExecArgv(['--no_memory_reducer'], '--max-semi-space-size=8'), ['--no_memory_reducer']);
  });
});

describe('data-version news across workers', () => {
  it('reaches every other worker (through the primary), not the one that sent it', async () => {
    cluster.setupPrimary({ exec: path.join(import.meta.dirname, 'cluster.test-worker.ts'), execArgv: [], silent: false });
    const workers: Worker[] = [cluster.fork(), cluster.fork(), cluster.fork()];
    const heard: number[] = [];
    try {
      await Promise.all(
        workers.map(
          (worker, i) =>
            new Promise<void>((resolve) => {
              relayDataVersions(worker);
              worker.on('message', (message: { test?: string }) => {
                if (message.test === 'ready') resolve();
                if (message.test === 'forgot') heard.push(i);
              });
            }),
        ),
      );
      workers[0].send({ test: 'invalidate' });
      for (let i = 0; i < 200 && heard.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 200)); // time for a wrong echo to the sender to show
      assert.deepEqual(heard.sort(), [1, 2]);
    } finally {
      for (const worker of workers) worker.process.kill('SIGKILL');
    }
  });
});

describe('serve with workers', { skip: process.platform !== 'linux' ? 'reads /proc' : undefined }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-cluster-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const port = 20_000 + (process.pid % 5000);

  it('serves from two workers on one port and stops them all on SIGTERM', async () => {
    const server = await startServer({
      args: ['oral', '--workers', '2', '--no-demo', '--port', `oral=${port}`],
      // debug: every worker says it listens (at info only one says the service is ready).
      env: { PDI_DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`, PDI_DATA_DIR: dir, PDI_LOG_LEVEL: 'debug' },
      port,
      readyPath: '/openapi.json',
    });
    try {
      const primary = server.child.pid!;
      let workers: number[] = [];
      for (let i = 0; i < 600 && workers.length < 2; i++) {
        workers = childrenOf(primary);
        if (workers.length < 2) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(workers.length, 2, 'two workers (the prepare worker has ended)');
      for (const pid of workers)
        assert.ok(
          ['--no-memory-reducer', `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`].every((flag) =>
            fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(flag),
          ),
          `worker ${pid} starts with the bounded young generation and no memory reducer`,
        );
      // Both workers listen before the port is shared out to them; wait until each has said so.
      for (let i = 0; i < 600 && (server.output().match(/listening/g) ?? []).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
      const answers = await Promise.all(Array.from({ length: 20 }, () => request({ port, path: '/openapi.json' })));
      assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));

      server.child.kill('SIGTERM');
      const code = await server.exited;
      assert.equal(code, 0, server.output());
      for (const pid of workers) assert.equal(alive(pid), false, `worker ${pid} has ended`);
      assert.match(server.output(), /asked by the primary/);
    } finally {
      await server.stop();
    }
  });

  it('runs one worker under a primary with --workers 1 (the worker gets the flags; the primary loads no service)', async () => {
    const server = await startServer({
      args: ['oral', '--workers', '1', '--no-demo', '--port', `oral=${port + 1}`],
      env: { PDI_DATABASE_URL: `sqlite:${path.join(dir, 'one.sqlite')}`, PDI_DATA_DIR: dir, PDI_LOG_LEVEL: 'info' },
      port: port + 1,
      readyPath: '/openapi.json',
    });
    try {
      const primary = server.child.pid!;
      const workers = childrenOf(primary);
      assert.equal(workers.length, 1, 'one worker (the prepare worker has ended)');
      const argv = fs.readFileSync(`/proc/${workers[0]}/cmdline`, 'utf8').split('\0');
      assert.ok(argv.includes('--no-memory-reducer'), argv.join(' '));
      // The primary holds no service: its resident memory is well below the worker's.
      const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
      assert.ok(rssKb(primary) < rssKb(workers[0]), `primary ${rssKb(primary)} kB, worker ${rssKb(workers[0])} kB`);
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0, server.output());
      assert.equal(alive(workers[0]), false);
    } finally {
      await server.stop();
    }
  });

  it('refuses a --workers that is not a whole number', () => {
    const result = spawnSync(process.execPath, [path.join(ROOT, 'src/cli.ts'), 'serve', 'oral', '--workers', '-1', '--no-demo'], {
      cwd: ROOT,
      env: { ...process.env, PDI_DATABASE_URL: `sqlite:${path.join(dir, 'other.sqlite')}`, PDI_DATA_DIR: dir },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /--workers must be a whole number \(0 serves in this process\), got "-1"/);
  });

  it('refuses a --port without service=port or with an empty port (not a random port)', () => {
    for (const [spec, message] of [
      ['oral', /--port takes service=port \(e\.g\. --port oral=9001\), got "oral"/],
      ['oral=', /--port oral= must be a port number \(0–65535\), got ""/],
      ['oral= ', /must be a port number/],
    ] as const) {
      const result = spawnSync(process.execPath, [path.join(ROOT, 'src/cli.ts'), 'serve', '--port', spec, '--no-demo', 'oral'], {
        cwd: ROOT,
        env: { ...process.env, PDI_DATABASE_URL: `sqlite:${path.join(dir, 'other.sqlite')}`, PDI_DATA_DIR: dir, PDI_WORKERS: '0' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.notEqual(result.status, 0, spec);
      assert.match(result.stderr, message, spec);
    }
  });
});
