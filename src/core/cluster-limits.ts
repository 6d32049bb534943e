// Rate-limit counters held by the primary of `serve --workers n`, so that a group's limit holds per client whatever
// the number of workers (each worker counting on its own let n times the limit through). The workers ask over the
// cluster's IPC channel (http/primary-store.ts is their side), several counts to a message. Fixed windows, counted
// exactly as @fastify/rate-limit's in-memory store counts; each namespace (a service's group) keeps its most recently
// counted 5,000 clients, as that store does. Loaded by the primary: it imports no service and no framework code.
import type { Worker } from 'node:cluster';

/** Clients kept per namespace, least recently counted first out (@fastify/rate-limit's LocalStore keeps 5,000). */
const CLIENTS_PER_NAMESPACE = 5000;

/**
 * A worker's request: `ops` is a flat list of five values per count: namespace, client, window (ms), max, and 1 to
 * count only when the count stays within max (a cache hit answered by the listener), 0 to count always (the plugin).
 */
export interface LimitsRequest {
  pdi: 'limits';
  id: number;
  ops: Array<string | number>;
}

/** The primary's answer: three values per count, in order: the count, the window's remaining ms, 1 if counted. */
export interface LimitsAnswer {
  pdi: 'limits';
  id: number;
  results: number[];
}

interface Entry {
  current: number;
  startMs: number;
}

export class LimitCounters {
  private readonly namespaces = new Map<string, Map<string, Entry>>();
  private readonly perNamespace: number;

  constructor(perNamespace = CLIENTS_PER_NAMESPACE) {
    this.perNamespace = perNamespace;
  }

  /** Counts one request of `client`; returns [count, remaining ms of the window, 1 if counted else 0]. */
  count(
    namespace: string,
    client: string,
    windowMs: number,
    max: number,
    onlyWithin: boolean,
    nowMs = Date.now(),
  ): [number, number, number] {
    let clients = this.namespaces.get(namespace);
    if (clients === undefined) this.namespaces.set(namespace, (clients = new Map()));
    let entry = clients.get(client);
    if (entry !== undefined && entry.startMs + windowMs <= nowMs) entry = undefined; // the window has passed
    const current = entry?.current ?? 0;
    const startMs = entry?.startMs ?? nowMs;
    const ttl = windowMs - (nowMs - startMs);
    if (onlyWithin && current + 1 > max) return [current, ttl, 0];
    // Most recently counted last: delete and set again moves the client to the end of the map's order.
    clients.delete(client);
    clients.set(client, { current: current + 1, startMs });
    if (clients.size > this.perNamespace) clients.delete(clients.keys().next().value!);
    return [current + 1, ttl, 1];
  }

  /** Answers one request from a worker. */
  answer(request: LimitsRequest, nowMs = Date.now()): LimitsAnswer {
    const { ops } = request;
    const results: number[] = [];
    for (let i = 0; i + 4 < ops.length; i += 5) {
      const [namespace, client, windowMs, max, onlyWithin] = [ops[i], ops[i + 1], ops[i + 2], ops[i + 3], ops[i + 4]];
      // A malformed count (never sent by this code) is answered as not counted rather than crashing the primary.
      if (typeof namespace !== 'string' || typeof client !== 'string' || typeof windowMs !== 'number' || typeof max !== 'number') {
        results.push(0, 0, 0);
        continue;
      }
      results.push(...this.count(namespace, client, windowMs, max, onlyWithin === 1, nowMs));
    }
    return { pdi: 'limits', id: request.id, results };
  }
}

export function isLimitsMessage(value: unknown): value is LimitsRequest | LimitsAnswer {
  return typeof value === 'object' && value !== null && (value as { pdi?: unknown }).pdi === 'limits';
}

/** In the primary: answer a worker's counts from `counters` (one set for every worker). */
export function serveLimits(worker: Worker, counters: LimitCounters): void {
  worker.on('message', (message: unknown) => {
    if (!isLimitsMessage(message) || !('ops' in message) || !Array.isArray(message.ops)) return;
    if (worker.isConnected()) worker.send(counters.answer(message));
  });
}
