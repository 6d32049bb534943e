// holdTickObject keeps one of process.nextTick's tick objects alive (why: gc.ts). What it holds must be a tick object;
// if Node changes what executionAsyncResource() returns in a tick, the hold no longer keeps those maps, and this says so.
// collectGarbage returns the pages of freed garbage to the system, in a process without V8's memory reducer; work
// given to afterStartupCollection while a server starts waits for its start-up collection.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterStartupCollection, collectStartupGarbage, heldTickObject, holdTickObject, serverStarting } from './gc.ts';

describe('collectGarbage', () => {
  it('frees garbage of the old generation and returns its pages (RSS back near where it was) without the memory reducer', async () => {
    // 1.5 million small objects, promoted by a collection, then dropped: about 220 MB of old-generation pages,
    // which an ordinary collection frees into V8's pool and leaves in the RSS
    const script = `
      import { collectGarbage } from ${JSON.stringify(new URL('./gc.ts', import.meta.url).href)};
      const rss = () => process.memoryUsage.rss() / 1048576;
      collectGarbage();
      const before = rss();
      let kept = [];
      for (let i = 0; i < 1_500_000; i++) kept.push({ a: i, b: 's' + i, c: [i] });
      collectGarbage();
      const grown = rss();
      if (kept.length !== 1_500_000) throw new Error('lost'); // (read: else the array is dead here already)
      kept = null;
      collectGarbage();
      console.log(JSON.stringify({ before, grown, after: rss() }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--no-memory-reducer', '--input-type=module', '-e', script]);
    const { before, grown, after } = JSON.parse(stdout) as { before: number; grown: number; after: number };
    assert.ok(grown > before + 150, `the objects took ${(grown - before).toFixed(0)} MB`);
    assert.ok(after < before + 40, `RSS ${before.toFixed(0)} MB, then ${grown.toFixed(0)}, and ${after.toFixed(0)} after the collection`);
  });
});

describe('holdTickObject', () => {
  it('holds a tick object of process.nextTick (its async id symbols and callback), and the same one when called again', async () => {
    await holdTickObject();
    const held = heldTickObject();
    assert.ok(held !== undefined);
    const symbols = Object.getOwnPropertySymbols(held).map((symbol) => symbol.description);
    assert.ok(symbols.includes('async_id_symbol') && symbols.includes('trigger_async_id_symbol'), symbols.join(', '));
    assert.equal(typeof (held as { callback?: unknown }).callback, 'function');
    await holdTickObject();
    assert.equal(heldTickObject(), held);
  });
});

describe('afterStartupCollection', () => {
  it('runs work now where no server is starting; while one is, after its start-up collection, in order', () => {
    const ran: string[] = [];
    afterStartupCollection(() => ran.push('now'));
    assert.deepEqual(ran, ['now']);
    serverStarting();
    afterStartupCollection(() => ran.push('C'));
    afterStartupCollection(() => ran.push('D'));
    assert.deepEqual(ran, ['now']);
    collectStartupGarbage();
    assert.deepEqual(ran, ['now', 'C', 'D']);
    afterStartupCollection(() => ran.push('later'));
    assert.deepEqual(ran, ['now', 'C', 'D', 'later']);
  });
});
