// The counters the primary holds for its workers (cluster-limits.ts) and a worker's side of them (primary-store.ts),
// over a channel the test plays: fixed windows counted as @fastify/rate-limit's in-memory store counts, a count only
// within the limit for cache hits, the counts of one event-loop turn in one message, and a primary that does not
// answer costs a bounded wait, then a circuit stops asking it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LimitCounters } from '../cluster-limits.ts';
import type { LimitsAnswer, LimitsRequest } from '../cluster-limits.ts';
import { PrimaryCounters, PrimaryStore } from './primary-store.ts';
import { countInPrimary } from './rate-limit.ts';
import type { Channel, Counted } from './primary-store.ts';

const quiet = { warn: () => {}, info: () => {} };

describe('LimitCounters', () => {
  it('counts fixed windows per namespace and client, as the in-memory store does', () => {
    const counters = new LimitCounters();
    assert.deepEqual(counters.count('e:export:', 'a', 60_000, 2, false, 1000), [1, 60_000, 1]);
    assert.deepEqual(counters.count('e:export:', 'a', 60_000, 2, false, 11_000), [2, 50_000, 1]);
    assert.deepEqual(counters.count('e:export:', 'a', 60_000, 2, false, 21_000), [3, 40_000, 1], 'the plugin counts past the limit');
    assert.deepEqual(counters.count('e:export:', 'b', 60_000, 2, false, 21_000), [1, 60_000, 1], 'another client');
    assert.deepEqual(counters.count('e:general:', 'a', 60_000, 2, false, 21_000), [1, 60_000, 1], 'another group');
    assert.deepEqual(counters.count('e:export:', 'a', 60_000, 2, false, 61_000), [1, 60_000, 1], 'a new window');
  });

  it('counts a cache hit only within the limit', () => {
    const counters = new LimitCounters();
    assert.deepEqual(counters.count('n', 'a', 1000, 2, true, 0), [1, 1000, 1]);
    assert.deepEqual(counters.count('n', 'a', 1000, 2, true, 10), [2, 990, 1]);
    assert.deepEqual(counters.count('n', 'a', 1000, 2, true, 20), [2, 980, 0], 'at the limit: not counted');
    assert.deepEqual(counters.count('n', 'a', 1000, 2, false, 30), [3, 970, 1]);
  });

  it('keeps the most recently counted clients of a namespace, up to its bound', () => {
    const counters = new LimitCounters(2);
    counters.count('n', 'a', 1000, 5, false, 0);
    counters.count('n', 'b', 1000, 5, false, 0);
    counters.count('n', 'a', 1000, 5, false, 1);
    counters.count('n', 'c', 1000, 5, false, 2); // b, least recently counted, goes
    assert.deepEqual(counters.count('n', 'a', 1000, 5, false, 3)[0], 3);
    assert.deepEqual(counters.count('n', 'b', 1000, 5, false, 3)[0], 1);
  });

  it('answers a request of several counts, and a malformed count as not counted', () => {
    const counters = new LimitCounters();
    const answer = counters.answer({ pdi: 'limits', id: 7, ops: ['n', 'a', 1000, 1, 1, 'n', 'a', 1000, 1, 1, 3, 'a', 1000, 1, 1] }, 0);
    assert.deepEqual(answer, { pdi: 'limits', id: 7, results: [1, 1000, 1, 1, 1000, 0, 0, 0, 0] });
  });
});

/** A channel to a primary played by the test: answers from real counters, or holds the messages unanswered. */
function fakePrimary(answering: boolean) {
  const listeners: Array<(message: unknown) => void> = [];
  const sent: LimitsRequest[] = [];
  const counters = new LimitCounters();
  const channel: Channel = {
    connected: true,
    send(message: LimitsRequest) {
      sent.push(message);
      if (answering) setImmediate(() => listeners.forEach((l) => l(counters.answer(message) satisfies LimitsAnswer)));
      return true;
    },
    on(_event, listener) {
      listeners.push(listener);
    },
  };
  return { channel, sent };
}

const limits = (commandTimeoutMs: number) => ({ commandTimeoutMs, circuitFailures: 2, circuitRetryMs: 60_000 });

describe('PrimaryCounters', () => {
  it("sends one turn's counts in one message and calls each back with its own count", async () => {
    const primary = fakePrimary(true);
    const counters = new PrimaryCounters(limits(1000), quiet, primary.channel);
    const store = new PrimaryStore(counters, 'e:export:');
    const results = await Promise.all(
      [0, 1, 2].map(
        () => new Promise<Counted>((resolve, reject) => store.incrWithin('127.0.0.1', 60_000, 2, (e, r) => (e ? reject(e) : resolve(r!)))),
      ),
    );
    assert.equal(primary.sent.length, 1);
    assert.deepEqual(
      results.map((r) => [r.current, r.counted]),
      [
        [1, true],
        [2, true],
        [2, false],
      ],
    );
    const plugin = await new Promise<{ current: number; ttl: number }>((resolve, reject) =>
      store.incr('127.0.0.1', (e, r) => (e ? reject(e) : resolve(r!)), 60_000, 2),
    );
    assert.equal(plugin.current, 3, "the plugin's count goes past the limit (its 429)");
    assert.equal(primary.sent.length, 2);
  });

  it('gives up on a primary that does not answer within the bound, then stops asking it (the circuit)', async () => {
    const primary = fakePrimary(false);
    const counters = new PrimaryCounters(limits(30), quiet, primary.channel);
    const ask = () =>
      new Promise<{ error: Error | null; ms: number }>((resolve) => {
        const started = performance.now();
        counters.count('n', 'a', 1000, 5, false, (error) => resolve({ error, ms: performance.now() - started }));
      });
    for (let i = 0; i < 2; i++) {
      const { error, ms } = await ask();
      assert.match(error!.message, /the primary did not answer within 30 ms/);
      assert.ok(ms < 1000, `waited ${ms} ms`);
    }
    const { error, ms } = await ask();
    assert.match(error!.message, /not answering: not asked/);
    assert.ok(ms < 5, `waited ${ms} ms`);
    assert.equal(primary.sent.length, 2, 'the open circuit sent nothing');
  });

  it('fails at once without a primary to ask', async () => {
    const counters = new PrimaryCounters(limits(1000), quiet, { connected: false, send: () => true, on: () => {} });
    const error = await new Promise<Error | null>((resolve) => counters.count('n', 'a', 1000, 5, false, resolve));
    assert.match(error!.message, /no primary to ask/);
  });
});

describe('countInPrimary (a cache hit answered by the listener)', () => {
  it("gives the plugin's headers when counted, null at the limit, and 'failed' (let through) when the primary is silent", async () => {
    const primary = fakePrimary(true);
    const limit = { max: 1, windowMs: 60_000, primary: new PrimaryStore(new PrimaryCounters(limits(1000), quiet, primary.channel), 'n') };
    const hit = () => new Promise<string[] | null | 'failed'>((resolve) => countInPrimary(limit, '127.0.0.1', resolve));
    assert.deepEqual(await hit(), ['x-ratelimit-limit', '1', 'x-ratelimit-remaining', '0', 'x-ratelimit-reset', '60']);
    assert.equal(await hit(), null);
    const silent = { ...limit, primary: new PrimaryStore(new PrimaryCounters(limits(20), quiet, fakePrimary(false).channel), 'n') };
    const started = performance.now();
    assert.equal(await new Promise((resolve) => countInPrimary(silent, '127.0.0.1', resolve)), 'failed');
    assert.ok(performance.now() - started < 1000);
  });
});
