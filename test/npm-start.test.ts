// `npm start` as a user runs it: readable lines with one ready line per service, no line per request at the default
// level, and a SIGTERM to npm stops the whole tree (npm, the primary, every worker). SQLite only: neither depends
// on the database kind.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from './support/server-process.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Every process under `pid` (children, their children, …), read from /proc. */
function descendantsOf(pid: number): number[] {
  let children: number[] = [];
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendantsOf(child)]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('npm start', { skip: process.platform !== 'linux' ? 'reads /proc' : undefined }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-npm-start-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const port = 25_000 + (process.pid % 5000);

  it('prints one readable ready line per service, no request lines, and stops with every worker on SIGTERM', async () => {
    const child = spawn('npm', ['start', '--', 'oral', 'draws', '--no-demo', '--port', `oral=${port}`, '--port', `draws=${port + 1}`], {
      cwd: ROOT,
      env: {
        ...process.env,
        PDI_DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`,
        PDI_DATA_DIR: dir,
        PDI_WORKERS: '2',
        PDI_LOG_LEVEL: 'info',
        PDI_LOG_FORMAT: 'pretty',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const tree = new Set<number>();
    try {
      // Ready once both services have said so and both serving workers run (the prepare worker has ended).
      for (let i = 0; i < 1200; i++) {
        for (const pid of descendantsOf(child.pid!)) tree.add(pid);
        if ((output.match(/ready — /g) ?? []).length >= 2 && descendantsOf(child.pid!).length >= 3) break;
        await sleep(100);
      }
      const answer = await request({ port, path: '/openapi.json' });
      assert.equal(answer.status, 200);
      await sleep(300);
      for (const pid of descendantsOf(child.pid!)) tree.add(pid);

      const lines = output.split('\n');
      const ready = lines.filter((line) => line.includes('ready — '));
      assert.deepEqual(
        ready.map((line) => line.replace(/^.*?ready — /, 'ready — ')),
        [
          `ready — oral       http://127.0.0.1:${port}/  (API docs http://127.0.0.1:${port}/docs)`,
          `ready — draws      http://127.0.0.1:${port + 1}/  (API docs http://127.0.0.1:${port + 1}/docs)`,
        ],
        output,
      );
      assert.ok(!lines.some((line) => line.trimStart().startsWith('{')), `readable lines, not JSON:\n${output}`);
      assert.doesNotMatch(output, /request completed|incoming request|Server listening at/);

      // The primary and its two workers (and the script's shell, if it stayed) under npm.
      assert.ok(tree.size >= 3, `the process tree under npm: ${[...tree].join(', ')}`);
      child.kill('SIGTERM');
      const code = await Promise.race([exited, sleep(60_000).then(() => 'still running')]);
      assert.notEqual(code, 'still running', output);
      for (let i = 0; i < 100 && [...tree].some(alive); i++) await sleep(100);
      assert.deepEqual([...tree].filter(alive), [], `every process under npm has ended:\n${output}`);
    } finally {
      for (const pid of [...tree].filter(alive)) process.kill(pid, 'SIGKILL');
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
