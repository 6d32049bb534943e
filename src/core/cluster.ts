// `serve --workers n`: a primary process forks n workers (node:cluster), each serving every service on the shared
// ports (the primary accepts connections and hands them round-robin to the workers). The primary serves nothing: it
// relays data-version news between workers, holds the rate-limit counters of every worker (cluster-limits.ts),
// restarts a worker that dies, and on SIGTERM or SIGINT asks every worker to stop gracefully and exits when the last
// one has (0 if all stopped cleanly). It loads no service code (the workers' side is cluster-worker.ts), so it stays
// small. One worker is a primary and one worker too: the worker gets the supervision and the V8 flags below;
// `--workers 0` serves in the one process, for tests and debugging.
//
// SQLite runs in WAL mode (src/core/db/database.ts): the workers read concurrently while one writer imports; only one
// worker (the first) runs the sync schedule, so imports stay one at a time, and the others hear of a new data version
// from the primary at once instead of at their next re-read.
import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { LimitCounters, serveLimits } from './cluster-limits.ts';

/**
 * V8's young generation (semi-space) of a worker, in MiB. Node 24 lets it grow to two semi-spaces of 64 MiB under
 * load: with real data and a load of distinct URLs a worker's heap held 128 MiB of young generation for 1–2 MiB at
 * rest. Flags given on the command line or in NODE_OPTIONS win.
 */
export const WORKER_SEMI_SPACE_MB = 16;

/**
 * The V8 flags a worker starts with, each unless the command line or NODE_OPTIONS sets it: the semi-space bound
 * above, and no memory reducer. V8's memory reducer runs memory-reducing full collections once a process with a
 * large heap goes quiet (a server between loads, or after starting). After one, every `process.nextTick` of Node's
 * HTTP internals costs several times as much, for good, and cache hits answer markedly fewer requests a
 * second (one such collection forced at start-up does the same). Why: a memory-reducing collection keeps no map that has no live object, so the maps of nextTick's tick
 * object (a literal with computed symbol keys) die when no tick is queued; the literal's feedback slots, finding their
 * map cleared, turn megamorphic for good, and each tick object is then built by a runtime call
 * (`Runtime_DefineKeyedOwnPropertyInLiteral`, which then dominates a nextTick loop's profile). Its gain is memory
 * at rest, after loading demo data in-process. A worker loads none (the prepare worker
 * does) and still collects once after starting (gc.ts, an ordinary collection). The primary and a one-process server
 * (`--workers 0`) keep the reducer: the primary serves nothing, and the one process loads demo data itself.
 */
const WORKER_V8_FLAGS: Array<{ flag: string; set: RegExp }> = [
  { flag: `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`, set: /--max[-_]semi[-_]space[-_]size/ },
  { flag: '--no-memory-reducer', set: /--(no[-_])?memory[-_]reducer/ },
];

/** The V8 flags a worker starts with: this process's, and each of WORKER_V8_FLAGS that neither they nor NODE_OPTIONS set. */
export function workerExecArgv(execArgv: readonly string[], nodeOptions = process.env.NODE_OPTIONS ?? ''): string[] {
  const given = [...execArgv, nodeOptions];
  return [...execArgv, ...WORKER_V8_FLAGS.filter(({ set }) => !given.some((flag) => set.test(flag))).map(({ flag }) => flag)];
}

/** A worker whose process ended within this time of its start did not start: the primary stops instead of retrying. */
const STARTUP_MS = 15_000;

export type ClusterMessage = { pdi: 'data-version'; service: string } | { pdi: 'stop' };

export function isClusterMessage(value: unknown): value is ClusterMessage {
  return typeof value === 'object' && value !== null && typeof (value as { pdi?: unknown }).pdi === 'string';
}

/** `--workers` (or PDI_WORKERS): a whole number (0: serve in this process), or absent for one per core. */
export function workerCount(raw: string | undefined): number {
  const text = raw?.trim();
  if (text === undefined || text === '') return os.availableParallelism();
  if (!/^\d+$/.test(text)) throw new Error(`--workers must be a whole number (0 serves in this process), got "${raw}"`);
  return Number(text);
}

/**
 * What this process is: `prepare` migrates and loads demo data, then ends; `sync` serves and runs the sync schedule;
 * `serve` serves; null is not a worker (the primary, or the only process of `--workers 0`).
 */
export type WorkerRole = 'prepare' | 'sync' | 'serve';

export function workerRole(): WorkerRole | null {
  if (!cluster.isWorker) return null;
  const role = process.env.PDI_WORKER_ROLE;
  return role === 'prepare' || role === 'sync' ? role : 'serve';
}

/**
 * How many workers serve beside this one's siblings (the primary's `--workers`); 1 outside a cluster. With a single
 * serving worker, state every worker must share (rate-limit counters) can stay in that worker: no one else counts.
 */
export function servingWorkers(): number {
  if (!cluster.isWorker) return 1;
  const n = Number(process.env.PDI_SERVING_WORKERS);
  return Number.isInteger(n) && n > 0 ? n : 2; // unknown: assume others count too
}

/**
 * The primary: forks one `prepare` worker (migrations, demo data) and, once it has ended, `workers` serving processes
 * running this same command, and supervises them until a signal stops them; the process exits when they have
 * stopped. The primary itself never opens the database, so it stays small.
 */
export function runPrimary(options: { workers: number; log: FastifyBaseLogger; stopTimeoutMs: number }): void {
  const { log } = options;
  const started = new Map<Worker, number>();
  const roles = new Map<Worker, WorkerRole>();
  let stopping = false;
  let failed = false;
  // The rate-limit counters of every worker (when Redis does not hold them): a limit holds per client, not per worker.
  const limits = new LimitCounters();

  const fork = (role: WorkerRole) => {
    const worker = cluster.fork({ PDI_WORKER_ROLE: role, PDI_SERVING_WORKERS: String(options.workers) });
    started.set(worker, Date.now());
    roles.set(worker, role);
    relayDataVersions(worker);
    serveLimits(worker, limits);
    worker.on('exit', (code, signal) => {
      const startedAt = started.get(worker) ?? 0;
      started.delete(worker);
      if (role === 'prepare' && !stopping) {
        if (code === 0) {
          for (let i = 0; i < options.workers; i++) fork(i === 0 ? 'sync' : 'serve');
          log.info({ workers: options.workers }, `primary started ${options.workers} workers`);
        } else {
          log.error({ code, signal }, 'preparing the database failed: not serving');
          process.exit(1);
        }
        return;
      }
      if (stopping) {
        if (code !== 0) failed = true;
        if (started.size === 0) process.exit(failed ? 1 : 0);
        return;
      }
      log.error({ worker: worker.id, workerPid: worker.process.pid, code, signal }, 'worker ended unexpectedly');
      if (Date.now() - startedAt < STARTUP_MS) {
        log.error('a worker ended while starting: stopping the others');
        failed = true;
        stop('SIGTERM');
        return;
      }
      fork(role); // its replacement takes over its role (the sync schedule included)
    });
  };

  let stoppedAt = 0;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping && isEcho(stoppedAt)) return;
    if (stopping) {
      log.warn({ signal }, 'second signal: killing the workers without waiting');
      for (const worker of started.keys()) worker.process.kill('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    stoppedAt = Date.now();
    log.info({ signal, workers: started.size }, 'shutting down: asking every worker to finish its requests and stop');
    if (started.size === 0) process.exit(failed ? 1 : 0);
    for (const worker of started.keys()) {
      // The prepare worker has no stop handler: a SIGTERM ends it, its import rolled back.
      if (roles.get(worker) === 'prepare' || !worker.isConnected()) worker.process.kill('SIGTERM');
      else worker.send({ pdi: 'stop' } satisfies ClusterMessage);
    }
    setTimeout(() => {
      log.error({ workers: started.size }, 'workers still running after the grace period: killing them');
      for (const worker of started.keys()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, options.stopTimeoutMs).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  cluster.setupPrimary({ execArgv: workerExecArgv(process.execArgv) });
  fork('prepare');
}

/**
 * Under `npm start` a terminal's Ctrl-C reaches the server twice: from the terminal (to the whole process group) and
 * forwarded by npm. A signal this soon after the first is that echo, not a second request to stop at once.
 */
const ECHO_MS = 1000;

export function isEcho(firstAt: number, now = Date.now()): boolean {
  return now - firstAt < ECHO_MS;
}

/** In the primary: pass a worker's data-version news on to every other worker. */
export function relayDataVersions(worker: Worker): void {
  worker.on('message', (message: unknown) => {
    if (!isClusterMessage(message) || message.pdi !== 'data-version') return;
    for (const other of Object.values(cluster.workers ?? {})) if (other && other !== worker && other.isConnected()) other.send(message);
  });
}
