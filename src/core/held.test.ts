// HeldPerVersion: one load for many callers, a reload when the version changes, and a load that an import overtook
// is read again.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HeldPerVersion } from './held.ts';
import type { DataVersionWatcher } from './service.ts';

/** The stored version, and a watcher that sees it (no caching: enough for these cases). */
function store(initial: string) {
  const state = { version: initial };
  const watcher = { current: async () => state.version } as unknown as DataVersionWatcher;
  return { state, watcher };
}

describe('HeldPerVersion', () => {
  it('loads once for concurrent callers and holds the value until the version changes', async () => {
    const { state, watcher } = store('v1');
    let reads = 0;
    const held = new HeldPerVersion(watcher, { read: async (v) => `${v}#${++reads}`, storedVersion: async () => state.version });
    assert.deepEqual(await Promise.all([held.current(), held.current(), held.current()]), ['v1#1', 'v1#1', 'v1#1']);
    assert.equal(await held.current(), 'v1#1');
    state.version = 'v2';
    assert.equal(await held.current(), 'v2#2');
    assert.equal(held.now, 'v2#2');
  });

  it('reads again when an import commits during a load, and holds the last after maxAttempts', async () => {
    const { state, watcher } = store('v1');
    let reads = 0;
    const held = new HeldPerVersion(watcher, {
      read: async (v) => {
        reads++;
        if (reads === 1) state.version = 'v2'; // an import commits while the first read runs
        return `${v}#${reads}`;
      },
      storedVersion: async () => state.version,
    });
    assert.equal(await held.current(), 'v2#2');

    let churn = 0;
    // the watcher sees the version the last load began with; the store moves on at every look
    const busy = new HeldPerVersion(store('x5').watcher, {
      read: async (v) => v ?? '',
      storedVersion: async () => `x${++churn}`, // a new version on every look: never settles
      maxAttempts: 3,
    });
    assert.equal(await busy.current(), 'x5');
    assert.equal(churn, 6, 'three loads, each reading the version before and after');
    assert.equal(busy.now, 'x5', 'the last load is held');
  });

  it('calls afterHeld once per load, when the new value is held and the one before it no longer is', async () => {
    const { state, watcher } = store('v1');
    const seen: Array<string | null> = [];
    const held: HeldPerVersion<string> = new HeldPerVersion(watcher, {
      read: async (v) => `value of ${v}`,
      storedVersion: async () => state.version,
      afterHeld: () => seen.push(held.now),
    });
    await Promise.all([held.current(), held.current()]);
    await held.current();
    assert.deepEqual(seen, ['value of v1']);
    state.version = 'v2';
    await held.current();
    assert.deepEqual(seen, ['value of v1', 'value of v2']);
  });
});
