// Garbage collection on demand, for the moments a process knows it has just made much garbage.
import v8 from 'node:v8';
import vm from 'node:vm';
import { executionAsyncResource } from 'node:async_hooks';

/**
 * One full garbage collection, now, after work that left much garbage: starting (migrations, building in-memory
 * indexes, compiling schemas) leaves V8's heap three times the size of what stays alive, and C's in-memory search
 * drops large temporary buffers when its load ends (in a worker, shortly after the start). Workers run without
 * V8's memory reducer (cluster.ts), so an idle worker collects nothing and would keep that garbage until some later
 * load. Node exposes `gc` only behind a flag, which
 * can be set at run time.
 *
 * The collection is V8's last-resort one (collections until one frees nothing, compacting; a pause paid once): an ordinary
 * one frees the garbage but V8 keeps the pages it held in a pool for the heap's next growth, and only a
 * memory-reducing collection returns them. C's load, overlapping a starting worker's other work, promotes many of
 * its temporaries to the old generation, and the pooled pages would stay in the worker's RSS for good
 * (`--trace-gc` shows them as "pooled"). Such a
 * collection keeps no map without a live object; `holdTickObject` (below) keeps the one map whose loss costs every
 * request.
 */
export function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/** Work waiting for the start-up collection of a serving process that is starting (null: none is). */
let waitingForStart: Array<() => void> | null = null;

/** Called by `serve` before it builds its apps: work given to `afterStartupCollection` now waits for the collection. */
export function serverStarting(): void {
  waitingForStart ??= [];
}

/** The serving process's start-up collection (once every app listens), then the work that waited for it. */
export function collectStartupGarbage(): void {
  collectGarbage();
  const waiting = waitingForStart ?? [];
  waitingForStart = null;
  for (const work of waiting) work();
}

/**
 * Background work that allocates much (C's index load) to begin once the serving process has listened and run its
 * start-up collection, or now where no server is starting (tests, commands). Begun while the other apps were still
 * being built, C's load had its chunks of rows promoted by the young generation's collections (the builds allocate
 * fast), so V8's heap and the worker's peak RSS grew well beyond what the same load begun after reaches.
 */
export function afterStartupCollection(work: () => void): void {
  if (waitingForStart) waitingForStart.push(work);
  else work();
}

let heldTick: object | undefined;

/**
 * Keeps one of `process.nextTick`'s tick objects alive for the life of the process, so that the maps its literal
 * builds never die. A memory-reducing collection (V8's memory reducer, or a last-resort one near the heap limit)
 * keeps no map without a live object, and an ordinary one keeps such a map for two collections only; once the tick
 * object's maps die while no tick is queued, the literal's feedback slots (computed symbol keys) find their map
 * cleared and turn megamorphic for good, and every `process.nextTick` (several per HTTP request in Node's internals)
 * builds its object through a runtime call: 270–330 ns for the call alone instead of 60–70. One live tick
 * object keeps them: 70–100 ns after the same collection; in a one-process server that the reducer had collected,
 * E's and C's cache hits then cost what they cost in one started without it. In a tick's callback,
 * `executionAsyncResource()` is that tick's object.
 */
export function holdTickObject(): Promise<void> {
  return new Promise((resolve) =>
    process.nextTick(() => {
      heldTick ??= executionAsyncResource();
      resolve();
    }),
  );
}

/** The tick object `holdTickObject` keeps, if it has run. */
export function heldTickObject(): object | undefined {
  return heldTick;
}
