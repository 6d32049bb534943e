// A worker's side of the rate-limit counters the primary holds (cluster-limits.ts): a @fastify/rate-limit store, and
// the count a cache hit answered by the listener makes (DirectHits), both asking the primary. The counts of one turn
// of the event loop go in one message. Like the Redis store, a primary that does not answer is bounded: each message
// waits at most PDI_RATE_LIMIT_PRIMARY_TIMEOUT_MS, the request is then let through (fail open), and after repeated
// failures a circuit stops asking for a while.
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { LimitsAnswer, LimitsRequest } from '../cluster-limits.ts';
import { isLimitsMessage } from '../cluster-limits.ts';
import type { RedisLimits } from '../config.ts';
import { RedisCircuit } from '../redis.ts';

type StoreCallback = Parameters<FastifyRateLimitStore['incr']>[1];
type RouteInfo = Parameters<FastifyRateLimitStore['child']>[0];

export interface Counted {
  current: number;
  ttl: number;
  /** False when the count was asked only within the limit and would have exceeded it (nothing counted). */
  counted: boolean;
}

/** The IPC channel to the primary: `process` in a cluster worker; a test passes its own. */
export interface Channel {
  send?(message: LimitsRequest): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  readonly connected?: boolean;
}

interface Log {
  warn(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
}

type Done = (error: Error | null, result?: Counted) => void;

/** One worker's connection to the primary's counters, shared by every group of every service in the process. */
export class PrimaryCounters {
  private readonly channel: Channel;
  readonly circuit: RedisCircuit;
  private nextId = 1;
  private ops: Array<string | number> = [];
  private callbacks: Done[] = [];
  private scheduled = false;
  private readonly waiting = new Map<number, { callbacks: Done[]; timer: NodeJS.Timeout | undefined }>();

  constructor(limits: RedisLimits, log: Log, channel: Channel = process) {
    this.channel = channel;
    this.circuit = new RedisCircuit(limits, log, 'the primary (rate-limit counters)');
    channel.on('message', (message) => {
      if (isLimitsMessage(message) && 'results' in message) this.settle(message);
    });
  }

  /** Counts one request of `client` in `namespace`; with `onlyWithin`, only if the count stays within `max`. */
  count(namespace: string, client: string, windowMs: number, max: number, onlyWithin: boolean, done: Done): void {
    if (!this.circuit.allow()) {
      done(new Error('the primary is not answering: not asked'));
      return;
    }
    this.ops.push(namespace, client, windowMs, max, onlyWithin ? 1 : 0);
    this.callbacks.push(done);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.scheduled = false;
    const id = this.nextId++;
    const ops = this.ops;
    const callbacks = this.callbacks;
    this.ops = [];
    this.callbacks = [];
    if (this.channel.send === undefined || this.channel.connected === false) {
      this.fail(callbacks, new Error('no primary to ask'));
      return;
    }
    const timeoutMs = this.circuit.limits.commandTimeoutMs;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            if (!this.waiting.delete(id)) return;
            this.fail(callbacks, new Error(`the primary did not answer within ${timeoutMs} ms`));
          }, timeoutMs)
        : undefined;
    this.waiting.set(id, { callbacks, timer });
    try {
      this.channel.send({ pdi: 'limits', id, ops });
    } catch (error) {
      this.waiting.delete(id);
      clearTimeout(timer);
      this.fail(callbacks, error instanceof Error ? error : new Error(String(error)));
    }
  }

  private fail(callbacks: Done[], error: Error): void {
    this.circuit.failure(error);
    for (const done of callbacks) done(error);
  }

  private settle(answer: LimitsAnswer): void {
    const pending = this.waiting.get(answer.id);
    if (pending === undefined) return; // answered after its time: the requests were let through already
    this.waiting.delete(answer.id);
    clearTimeout(pending.timer);
    this.circuit.success();
    pending.callbacks.forEach((done, i) => {
      const r = answer.results;
      if (r.length < 3 * (i + 1)) done(new Error('the primary answered fewer counts than asked'));
      else done(null, { current: r[3 * i], ttl: r[3 * i + 1], counted: r[3 * i + 2] === 1 });
    });
  }
}

let shared: PrimaryCounters | undefined;

/** This worker's connection to the primary's counters (one per process). */
export function primaryCounters(limits: RedisLimits, log: Log): PrimaryCounters {
  return (shared ??= new PrimaryCounters(limits, log));
}

/** A @fastify/rate-limit store whose counters are the primary's, under `namespace`. */
export class PrimaryStore implements FastifyRateLimitStore {
  private readonly counters: PrimaryCounters;
  readonly namespace: string;

  constructor(counters: PrimaryCounters, namespace: string) {
    this.counters = counters;
    this.namespace = namespace;
  }

  incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
    this.counters.count(this.namespace, key, timeWindow, max, false, (error, result) =>
      error ? callback(error) : callback(null, { current: result!.current, ttl: result!.ttl }),
    );
  }

  /** Counts only if the count stays within `max` (a cache hit answered by the listener; the plugin answers the rest). */
  incrWithin(key: string, timeWindow: number, max: number, done: Done): void {
    this.counters.count(this.namespace, key, timeWindow, max, true, done);
  }

  child(routeOptions: RouteInfo): FastifyRateLimitStore {
    // A route with its own limit counts on its own, as the plugin's stores do.
    const route = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo;
    return new PrimaryStore(this.counters, `${this.namespace}${route?.method ?? ''} ${route?.url ?? ''}:`);
  }
}
