// holdTickObject keeps one of process.nextTick's tick objects alive (why: gc.ts). What it holds must be a tick object;
// if Node changes what executionAsyncResource() returns in a tick, the hold no longer keeps those maps, and this says so.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { heldTickObject, holdTickObject } from './gc.ts';

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
