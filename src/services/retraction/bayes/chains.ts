// Running several chains: in worker threads (one chain per job, a pool no larger than the cores) or on
// the calling thread. Chain c always draws from new Random(seed).fork(c), so both modes give identical
// draws for the same seed.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { Random } from '../../../core/random.ts';
import { runNutsChain, type ChainOutput, type NutsSettings } from './nuts.ts';
import type { Target } from './target.ts';
import { buildTarget, transferableCopy, type TargetSpec } from './targets.ts';

export interface ChainJob {
  chain: number;
  seed: number | string;
  settings: NutsSettings;
  spec: TargetSpec;
  init: Float64Array | null;
  reportProgress: boolean;
}

export type ChainReply =
  | { type: 'done'; chain: number; output: ChainOutput }
  | { type: 'progress'; chain: number; completed: number; total: number }
  | { type: 'error'; chain: number; error: string };

/** Progress of one chain: iterations completed out of warmup + draws. */
export interface ChainProgress {
  chain: number;
  completed: number;
  total: number;
}

/** Iterations between progress reports of a chain (workers post a message each time). */
export const PROGRESS_EVERY = 25;

export interface ChainsOptions {
  chains: number;
  seed: number | string;
  settings: NutsSettings;
  parallelism: 'workers' | 'single';
  /** null = min(chains, available cores). */
  maxWorkers?: number | null;
  /** Optional initial points, one per chain (otherwise drawn by the target). */
  inits?: Float64Array[];
  /** Called every PROGRESS_EVERY iterations of each chain and when it finishes. */
  onProgress?: (progress: ChainProgress) => void;
}

export interface ChainsResult {
  chains: ChainOutput[];
  /** Wall time from the first chain's start to the last chain's end. */
  wallSeconds: number;
  workers: number;
}

export function chainRandom(seed: number | string, chain: number): Random {
  return new Random(seed).fork(chain);
}

/** All chains on this thread, for any Target (also ones a worker could not rebuild). */
export function sampleChainsInThread(makeTarget: () => Target, options: Omit<ChainsOptions, 'parallelism' | 'maxWorkers'>): ChainsResult {
  const start = performance.now();
  const chains: ChainOutput[] = [];
  const report = options.onProgress;
  for (let c = 0; c < options.chains; c++) {
    const listener = report
      ? (completed: number, total: number) => {
          if (completed % PROGRESS_EVERY === 0 || completed === total) report({ chain: c, completed, total });
        }
      : undefined;
    chains.push(runNutsChain(makeTarget(), options.settings, chainRandom(options.seed, c), options.inits?.[c], listener));
  }
  return { chains, wallSeconds: (performance.now() - start) / 1000, workers: 0 };
}

export async function sampleChains(spec: TargetSpec, options: ChainsOptions): Promise<ChainsResult> {
  if (options.parallelism === 'single') return sampleChainsInThread(() => buildTarget(spec), options);
  const poolSize = Math.max(1, Math.min(options.chains, options.maxWorkers ?? availableParallelism()));
  const start = performance.now();
  const results: ChainOutput[] = new Array(options.chains);
  const workerUrl = new URL('./chain-worker.ts', import.meta.url);
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let next = 0;
      let done = 0;
      let failed = false;
      const fail = (error: Error) => {
        if (failed) return;
        failed = true;
        reject(error);
      };
      const dispatch = (worker: Worker) => {
        if (next >= options.chains) return;
        const chain = next++;
        const { spec: copy, transfer } = transferableCopy(spec);
        let init: Float64Array | null = null;
        if (options.inits?.[chain]) {
          init = options.inits[chain].slice();
          transfer.push(init.buffer as ArrayBuffer);
        }
        const job: ChainJob = {
          chain,
          seed: options.seed,
          settings: options.settings,
          spec: copy,
          init,
          reportProgress: options.onProgress !== undefined,
        };
        worker.postMessage(job, transfer);
      };
      for (let w = 0; w < poolSize; w++) {
        const worker = new Worker(workerUrl);
        workers.push(worker);
        worker.on('message', (reply: ChainReply) => {
          if (reply.type === 'progress') {
            options.onProgress?.({ chain: reply.chain, completed: reply.completed, total: reply.total });
            return;
          }
          if (reply.type === 'error') {
            fail(new Error(`chain ${reply.chain} failed: ${reply.error}`));
            return;
          }
          results[reply.chain] = reply.output;
          done++;
          if (done === options.chains) resolve();
          else dispatch(worker);
        });
        worker.on('error', (error) => fail(error instanceof Error ? error : new Error(String(error))));
        worker.on('exit', (code) => {
          if (code !== 0 && done < options.chains) fail(new Error(`chain worker exited with code ${code}`));
        });
        dispatch(worker);
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return { chains: results, wallSeconds: (performance.now() - start) / 1000, workers: poolSize };
}
