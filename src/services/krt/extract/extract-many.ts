// Extracts many papers in parallel worker threads (or in this thread), with progress reports. Results come back
// in the order of the input; a file that fails (unreadable, malformed XML) gives an error entry, not a crash.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { extractFile, type ExtractionMode, type FileExtraction } from './extract-article.ts';
import type { WorkerReply, WorkerRequest } from './extract-worker.ts';

export type ManyResult = { file: string; ok: true; extraction: FileExtraction } | { file: string; ok: false; error: string };

export interface ExtractManyOptions {
  /** Worker threads; 0 or 1 runs in the calling thread. Default: available parallelism, at most the file count. */
  workers?: number;
  mode?: ExtractionMode;
  /** Called after each file, in completion order. */
  onProgress?: (done: number, total: number, result: ManyResult) => void;
}

export async function extractMany(files: readonly string[], options: ExtractManyOptions = {}): Promise<ManyResult[]> {
  const mode = options.mode ?? 'auto';
  const total = files.length;
  const results: ManyResult[] = new Array(total);
  let done = 0;
  const finish = (seq: number, result: ManyResult) => {
    results[seq] = result;
    done++;
    options.onProgress?.(done, total, result);
  };
  const workers = Math.max(0, Math.min(options.workers ?? availableParallelism(), total));

  if (workers <= 1) {
    for (let seq = 0; seq < total; seq++) {
      try {
        finish(seq, { file: files[seq], ok: true, extraction: extractFile(files[seq], { mode }) });
      } catch (err) {
        finish(seq, { file: files[seq], ok: false, error: err instanceof Error ? err.message : String(err) });
      }
      // Let timers and I/O run between papers (progress bars, signals).
      if (seq % 16 === 15) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return results;
  }

  let next = 0;
  await new Promise<void>((resolve, reject) => {
    let live = 0;
    const start = () => {
      const worker = new Worker(new URL('./extract-worker.ts', import.meta.url));
      live++;
      let current = -1;
      const feed = () => {
        if (next >= total) {
          current = -1;
          void worker.terminate();
          return;
        }
        current = next++;
        const request: WorkerRequest = { seq: current, file: files[current], mode };
        worker.postMessage(request);
      };
      worker.on('message', (reply: WorkerReply) => {
        finish(
          reply.seq,
          reply.ok
            ? { file: files[reply.seq], ok: true, extraction: reply.result }
            : { file: files[reply.seq], ok: false, error: reply.error },
        );
        feed();
      });
      worker.on('error', (err) => {
        // The worker died (e.g. out of memory on one paper): record that paper, carry on with a new worker.
        if (current >= 0 && results[current] === undefined)
          finish(current, { file: files[current], ok: false, error: `worker failed: ${err.message}` });
        current = -1;
      });
      worker.on('exit', () => {
        live--;
        if (next < total && live < workers) {
          try {
            start();
          } catch (err) {
            reject(err as Error);
            return;
          }
        }
        if (live === 0) resolve();
      });
      feed();
    };
    for (let i = 0; i < workers; i++) start();
  });
  return results;
}
