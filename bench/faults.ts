// The fault run, measured on this machine. `serve oral` runs as a real process on a PostgreSQL server of
// its own (initdb on another port, never the shared one on 5432) under a light load of four clients, and:
//   1. the PostgreSQL server is stopped in immediate mode N times (1.5 s down, then started again): does the
//      process crash, what does it answer while the database is gone, how long after the database is ready
//      until the first 200;
//   2. the pool's backends are terminated (pg_terminate_backend) every 250 ms for `--rounds` rounds: crashes and
//      the answers meanwhile;
//   3. a client sends headers and part of a body that never finishes: time until the server closes it
//      (default timeouts of the tree under test);
//   4. SIGTERM with such a client connected: time until the process exits.
//   5. `pdi sync draws` against a hostile source server (PDI_SYNC_DEADLINE=10s, SQLite in a temporary folder):
//      a body trickled one byte every 2 s (how long the sync runs, capped at `--cap-sync` s); the next sync after
//      a kill -9 of such a run (does it start, or fail "already running"); a resumed download answered with a 206
//      of another version of the file (is the file imported whole, or spliced from two versions).
// `--only <postgres|slow|sync>` runs one part. `--root <dir>` runs another tree's `src/cli.ts` (e.g. the commit before the fixes, extracted with `git archive`
// and node_modules symlinked) so that the same measurements give the "before" figures. Waits are capped
// (`--cap-slow`, `--cap-exit` seconds) so that a tree that never closes still ends the run.
//   npm run bench -- faults [--trials 8] [--rounds 20] [--root dir] [--cap-slow 90] [--cap-exit 60] [--cap-sync 40]
//                           [--only postgres|slow|sync]
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PrivatePostgres, freePort, privatePostgresProblem } from '../test/support/private-postgres.ts';
import { request } from '../test/support/server-process.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1]! : fallback;
};
const TRIALS = Number(option('trials', '8'));
const ROUNDS = Number(option('rounds', '20'));
const ROOT = path.resolve(option('root', path.resolve(import.meta.dirname, '..')));
const CAP_SLOW_MS = Number(option('cap-slow', '90')) * 1000;
const CAP_EXIT_MS = Number(option('cap-exit', '60')) * 1000;
const CAP_SYNC_MS = Number(option('cap-sync', '40')) * 1000;
const ONLY = option('only', 'all');
if (!['all', 'postgres', 'slow', 'sync'].includes(ONLY)) {
  console.error(`--only must be postgres, slow or sync, got "${ONLY}"`);
  process.exit(1);
}
const WORDS = ['fluoride', 'caries', 'sealant', 'children', 'xylitol', 'varnish'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const problem = ONLY === 'all' || ONLY === 'postgres' ? privatePostgresProblem() : null;
if (problem) {
  console.error(`a private PostgreSQL server is needed: ${problem}`);
  process.exit(1);
}
if (!fs.existsSync(path.join(ROOT, 'src/cli.ts'))) {
  console.error(`no src/cli.ts under ${ROOT}`);
  process.exit(1);
}

interface Served {
  child: ChildProcess;
  port: number;
  exited: Promise<number | string>;
  hasExited(): boolean;
  output(): string;
}

/** `serve oral` of the tree under test; resolves once `readyPath` answers 200. */
async function serve(env: Record<string, string>, readyPath: string, extraArgs: string[] = []): Promise<Served> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'src/cli.ts'), 'serve', 'oral', '--port', `oral=${port}`, ...extraArgs], {
    cwd: ROOT,
    env: {
      ...process.env,
      PDI_LOG_LEVEL: 'warn',
      // One process: with workers, a crashed worker is replaced and the primary lives on, hiding the crash counted here.
      PDI_WORKERS: '0',
      PDI_SHARED_DATA: process.env.PDI_SHARED_DATA ?? path.resolve(import.meta.dirname, '../../shared/data'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let done = false;
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => {
      done = true;
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  const served: Served = { child, port, exited, hasExited: () => done, output: () => output };
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (done) throw new Error(`the server exited while starting:\n${output}`);
    const res = await request({ port, path: readyPath }).catch(() => null);
    if (res?.status === 200) return served;
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not answer ${readyPath} in time:\n${output}`);
}

async function kill(served: Served): Promise<void> {
  if (!served.hasExited()) served.child.kill('SIGKILL');
  await served.exited;
}

interface Sample {
  at: number;
  status: number | 'connection error';
  json503: boolean;
}

const tally = (list: Sample[]): string => {
  const counts = new Map<string, number>();
  for (const s of list) counts.set(String(s.status), (counts.get(String(s.status)) ?? 0) + 1);
  return [...counts].map(([k, v]) => `${k}×${v}`).join(' ') || 'none';
};

const ms = (x: number) => `${Math.round(x)} ms`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

// ---- 1 and 2: PostgreSQL faults under load ----
async function postgresFaults(): Promise<void> {
  const pgs = await PrivatePostgres.start();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-bench-faults-'));
  const env = {
    PDI_DATABASE_URL: pgs.url,
    PDI_DATA_DIR: dataDir,
    PDI_RESPONSE_CACHE_ENTRIES: '0',
    PDI_RESPONSE_CACHE_BYTES: '0',
    PDI_LOG_LEVEL: 'fatal',
  };
  const readyPath = '/api/stats/';
  let server = await serve(env, readyPath);
  let port = server.port;
  let samples: Sample[] = [];
  let loading = true;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const workers = [1, 2, 3, 4].map(async (seed) => {
    for (let i = seed; loading; i += 7) {
      // guidelines are searched in SQL: every request queries (A's recommendations are held in memory)
      const p = `/api/guidelines/?q=${WORDS[i % WORDS.length]}&page=${1 + (i % 3)}&limit=5`;
      const res = await request({ port, path: p, agent, timeoutMs: 10_000 }).catch(() => null);
      let json503 = false;
      if (res?.status === 503) {
        try {
          json503 = (JSON.parse(res.body) as { success?: unknown }).success === false;
        } catch {
          json503 = false;
        }
      }
      samples.push({ at: performance.now(), status: res?.status ?? 'connection error', json503 });
      if (!res || res.status !== 200) await sleep(20);
    }
  });
  /** After a crash: a new process (the database must be up), so the next trial starts alike. */
  const restartIfCrashed = async (): Promise<boolean> => {
    if (!server.hasExited()) return false;
    server = await serve(env, readyPath);
    port = server.port;
    return true;
  };

  try {
    console.log(`\n1. PostgreSQL stopped in immediate mode, ${TRIALS} trials (down 1.5 s, then started again), 4 clients`);
    console.log('trial  crashed  answers while down                 first 200 after ready  answers after ready');
    let crashes = 0;
    const recoveries: number[] = [];
    let down503 = 0;
    let downOther = 0;
    for (let trial = 1; trial <= TRIALS; trial++) {
      await sleep(500);
      samples = [];
      await pgs.stop('immediate');
      const goneAt = performance.now();
      await sleep(1500);
      const restartAt = performance.now();
      await pgs.startServer();
      const readyAt = performance.now();
      let recoveredAt: number | null = null;
      for (let wait = 0; wait < 200 && recoveredAt === null && !server.hasExited(); wait++) {
        await sleep(50);
        recoveredAt = samples.find((s) => s.at > readyAt && s.status === 200)?.at ?? null;
      }
      await sleep(300);
      const crashed = server.hasExited();
      const gone = samples.filter((s) => s.at > goneAt && s.at < restartAt);
      down503 += gone.filter((s) => s.status === 503 && s.json503).length;
      downOther += gone.filter((s) => !(s.status === 503 && s.json503)).length;
      if (crashed) crashes++;
      if (recoveredAt !== null && !crashed) recoveries.push(recoveredAt - readyAt);
      const afterReady = samples.filter((s) => s.at > readyAt);
      console.log(
        `${String(trial).padStart(5)}  ${(crashed ? 'yes' : 'no').padEnd(7)}  ${tally(gone).padEnd(33)}  ${(recoveredAt !== null && !crashed ? ms(recoveredAt - readyAt) : '—').padEnd(21)}  ${tally(afterReady)}`,
      );
      if (await restartIfCrashed()) console.log('       (the process had exited: started again for the next trial)');
    }
    console.log(
      `crashes: ${crashes} of ${TRIALS}; answers while down: ${down503} JSON 503, ${downOther} other; ` +
        `recovery after the database was ready: median ${recoveries.length ? ms(median(recoveries)) : '—'}, ` +
        `range ${recoveries.length ? `${ms(Math.min(...recoveries))}–${ms(Math.max(...recoveries))}` : '—'} (${recoveries.length} trials without a crash)`,
    );

    console.log(`\n2. pg_terminate_backend of every client backend every 250 ms, ${ROUNDS} rounds, 4 clients`);
    await sleep(500);
    samples = [];
    let killed = 0;
    let loopCrashes = 0;
    for (let round = 0; round < ROUNDS; round++) {
      await sleep(250);
      killed += await pgs.terminateBackends();
      if (server.hasExited()) {
        loopCrashes++;
        await restartIfCrashed();
      }
    }
    await sleep(500);
    if (server.hasExited()) {
      loopCrashes++;
      await restartIfCrashed();
    }
    const answered = samples.filter((s) => s.status !== 'connection error').length;
    const ok = samples.filter((s) => s.status === 200).length;
    console.log(
      `backends terminated: ${killed}; process crashes: ${loopCrashes}; answers: ${tally(samples)} ` +
        `(${answered ? ((100 * ok) / samples.length).toFixed(1) : '0'}% of requests answered 200)`,
    );
  } finally {
    loading = false;
    await Promise.all(workers);
    agent.destroy();
    await kill(server);
    await pgs.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- 3 and 4: slow clients ----
/** A raw connection that sends headers and 5 of 100 body bytes, then nothing; resolves when the server closes it. */
async function stalledClient(port: number): Promise<{ socket: net.Socket; closed: Promise<number>; received: () => string }> {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now())));
  socket.write('POST /openapi.json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
  return { socket, closed, received: () => received };
}

async function slowClients(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-bench-slow-'));
  // The tree's own defaults: no PDI_*_TIMEOUT_MS or PDI_SHUTDOWN_GRACE_MS set.
  const env = { PDI_DATA_DIR: dataDir, PDI_DATABASE_URL: '', PDI_LOG_LEVEL: 'warn' };
  const servers: Served[] = [];
  try {
    const a = await serve(env, '/openapi.json', ['--no-demo']);
    servers.push(a);
    const b = await serve(env, '/openapi.json', ['--no-demo']);
    servers.push(b);
    console.log(
      `\n3 and 4. a client whose body never finishes (default timeouts; waits capped at ${CAP_SLOW_MS / 1000} s and ${CAP_EXIT_MS / 1000} s)`,
    );
    const measureSlow = async () => {
      const client = await stalledClient(a.port);
      const start = performance.now();
      const end = await Promise.race([client.closed, sleep(CAP_SLOW_MS).then(() => null)]);
      client.socket.destroy();
      const status = /^HTTP\/1\.1 (\d+)/.exec(client.received())?.[1] ?? 'nothing';
      return end === null ? `still open after ${CAP_SLOW_MS / 1000} s (cap)` : `closed after ${ms(end - start)}, answer: ${status}`;
    };
    const measureExit = async () => {
      const client = await stalledClient(b.port);
      await sleep(300);
      const start = performance.now();
      b.child.kill('SIGTERM');
      const code = await Promise.race([b.exited, sleep(CAP_EXIT_MS).then(() => null)]);
      const end = performance.now();
      client.socket.destroy();
      return code === null
        ? `still running ${CAP_EXIT_MS / 1000} s after SIGTERM (cap)`
        : `exited ${ms(end - start)} after SIGTERM, code ${code}`;
    };
    const [slow, exit] = await Promise.all([measureSlow(), measureExit()]);
    console.log(`stalled body, server running:      ${slow}`);
    console.log(`SIGTERM with a stalled client:     ${exit}`);
  } finally {
    for (const s of servers) await kill(s);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- 5: sync against a hostile source ----
const FEED = path.resolve(import.meta.dirname, '../../shared/data/draws/ee_rounds_123_en.2025-12-17.json');
const SYNC_DEADLINE = '10s';

interface SyncRun {
  child: ChildProcess;
  done: Promise<{ code: number | string; output: string; ms: number }>;
}

/** `pdi sync draws --source url` of the tree under test, on the SQLite database of `dataDir`. */
function syncDraws(dataDir: string, url: string): SyncRun {
  const start = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'src/cli.ts'), 'sync', 'draws', '--source', url], {
    cwd: ROOT,
    env: {
      ...process.env,
      PDI_DATA_DIR: dataDir,
      PDI_DATABASE_URL: '',
      PDI_LOG_LEVEL: 'warn',
      PDI_SYNC_DEADLINE: SYNC_DEADLINE,
      PDI_SYNC_RETRIES: '2',
      PDI_DRAWS_AS_OF: '2025-12-17',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const done = new Promise<{ code: number | string; output: string; ms: number }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code: code ?? signal ?? 'unknown', output, ms: performance.now() - start })),
  );
  return { child, done };
}

/** The last line a sync printed about the file, shortened. */
const said = (output: string) =>
  (
    output
      .trim()
      .split('\n')
      .filter((l) => /draws|error|running/i.test(l))
      .at(-1) ??
    output.trim().split('\n').at(-1) ??
    ''
  ).slice(0, 220);

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function hostile(handler: Handler): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = http.createServer(handler);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/ee_rounds_123_en.json`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** One byte every 2 s, with the feed's full length announced. */
const trickle =
  (body: Buffer): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    let at = 0;
    const timer = setInterval(() => {
      if (res.destroyed || at >= body.length) return clearInterval(timer);
      res.write(body.subarray(at, ++at));
    }, 2000);
    res.on('close', () => clearInterval(timer));
  };

async function syncFaults(): Promise<void> {
  if (!fs.existsSync(FEED)) {
    console.log(`\n5. sync faults: skipped (no ${FEED})`);
    return;
  }
  const feed = fs.readFileSync(FEED);
  console.log(`\n5. pdi sync draws against a hostile source (PDI_SYNC_DEADLINE=${SYNC_DEADLINE}, runs capped at ${CAP_SYNC_MS / 1000} s)`);
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-bench-sync-'));
    dirs.push(dir);
    return dir;
  };
  const capped = async (run: SyncRun) => {
    const result = await Promise.race([run.done, sleep(CAP_SYNC_MS).then(() => null)]);
    if (result === null) {
      run.child.kill('SIGKILL');
      await run.done;
      return `still running after ${CAP_SYNC_MS / 1000} s (cap; killed)`;
    }
    return `ended after ${ms(result.ms)}, exit ${result.code}: ${said(result.output)}`;
  };
  try {
    // a. the trickle
    const slow = await hostile(trickle(feed));
    console.log(`trickle, 1 byte every 2 s:         ${await capped(syncDraws(dataDir(), slow.url))}`);

    // b. kill -9 during the trickle, then sync again from a good server
    const good = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': feed.length });
      res.end(feed);
    });
    let asked: () => void = () => {};
    const downloading = new Promise<void>((resolve) => (asked = resolve));
    const held = await hostile((req, res) => {
      asked();
      trickle(feed)(req, res);
    });
    const dir = dataDir();
    const first = syncDraws(dir, held.url);
    // Killed once its download is under way: the lease is taken before the first request.
    await Promise.race([downloading, sleep(CAP_SYNC_MS)]);
    await sleep(500);
    first.child.kill('SIGKILL');
    await first.done;
    const next: string[] = [];
    for (let i = 0; i < 3; i++) {
      const run = await syncDraws(dir, good.url).done;
      next.push(/already running/.test(run.output) ? 'already running' : run.code === 0 ? 'synced' : `exit ${run.code}`);
    }
    console.log(`3 syncs after kill -9 of a sync:   ${next.join(', ')}`);
    await slow.close();
    await held.close();

    // c. a 206 of another version
    // Version B: the first and the last round's CRS one point different (same length), so that a file spliced at a
    // third is neither version.
    const text = feed.toString('utf8');
    const bumpCrs = (t: string, at: number) => {
      const digit = t.indexOf('"', at + '"drawCRS": "'.length) - 1;
      return t.slice(0, digit) + (t[digit] === '9' ? '8' : String(Number(t[digit]) + 1)) + t.slice(digit + 1);
    };
    const twice = Buffer.from(bumpCrs(bumpCrs(text, text.indexOf('"drawCRS": "')), text.lastIndexOf('"drawCRS": "')));
    const shaOf = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    let served = 0;
    const splicer = await hostile((req, res) => {
      served++;
      const range = /^bytes=(\d+)-$/.exec(String(req.headers.range ?? ''));
      if (!range && served > 1) {
        // Asked for from the first byte again: version B whole.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': twice.length, etag: '"B"', 'accept-ranges': 'bytes' });
        res.end(twice);
        return;
      }
      if (!range) {
        // Version A, cut after a third.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': feed.length, etag: '"A"', 'accept-ranges': 'bytes' });
        res.write(feed.subarray(0, Math.floor(feed.length / 3)), () => setTimeout(() => res.socket?.destroy(), 20));
        return;
      }
      // The rest of version B, whatever If-Range said.
      const start = Number(range[1]);
      res.writeHead(206, {
        'content-type': 'application/json',
        'content-length': twice.length - start,
        'content-range': `bytes ${start}-${twice.length - 1}/${twice.length}`,
        etag: '"B"',
        'accept-ranges': 'bytes',
      });
      res.end(twice.subarray(start));
    });
    const spliceRun = await syncDraws(dataDir(), splicer.url).done;
    const sha = /sha256 ([0-9a-f]{12})/.exec(spliceRun.output)?.[1];
    const what =
      sha === undefined
        ? `not imported (${said(spliceRun.output)})`
        : sha === shaOf(twice).slice(0, 12)
          ? 'version B imported whole'
          : sha === shaOf(feed).slice(0, 12)
            ? 'version A imported whole'
            : 'a file spliced from two versions was imported';
    console.log(`206 of another version (If-Range): ${what}; ${served} requests`);
    await splicer.close();
    await good.close();
  } finally {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

const started = performance.now();
console.log(
  `fault run of ${ROOT} (${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')})`,
);
if (ONLY === 'all' || ONLY === 'postgres') await postgresFaults();
if (ONLY === 'all' || ONLY === 'slow') await slowClients();
if (ONLY === 'all' || ONLY === 'sync') await syncFaults();
console.log(
  `\nwhole run: ${(Math.round(performance.now() - started) / 1000).toFixed(1)} s; load average now ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
