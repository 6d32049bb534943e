// Garbage collection on demand, for the moments a process knows it has just made much garbage.
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * One full garbage collection once a server is up: starting (migrations, building in-memory indexes, compiling
 * schemas) leaves V8's heap three times the size of what stays alive, and V8 gives that back only under pressure; a
 * collection now returns it, so each worker's RSS at rest is what it holds. Node exposes `gc` only behind a flag,
 * which can be set at run time.
 */
export function collectStartupGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}
