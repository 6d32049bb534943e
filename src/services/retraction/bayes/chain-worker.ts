// Worker thread entry: runs one chain per message and sends the draws back as transferred buffers.
import { parentPort } from 'node:worker_threads';
import { chainRandom, PROGRESS_EVERY, type ChainJob, type ChainReply } from './chains.ts';
import { runNutsChain } from './nuts.ts';
import { buildTarget } from './targets.ts';

if (!parentPort) throw new Error('chain-worker.ts must run in a worker thread');
const port = parentPort;

port.on('message', (job: ChainJob) => {
  try {
    const target = buildTarget(job.spec);
    const listener = job.reportProgress
      ? (completed: number, total: number) => {
          if (completed % PROGRESS_EVERY === 0 || completed === total) {
            const progress: ChainReply = { type: 'progress', chain: job.chain, completed, total };
            port.postMessage(progress);
          }
        }
      : undefined;
    const output = runNutsChain(target, job.settings, chainRandom(job.seed, job.chain), job.init ?? undefined, listener);
    const reply: ChainReply = { type: 'done', chain: job.chain, output };
    const buffers = [
      output.samples,
      output.logDensity,
      output.acceptStat,
      output.treeDepth,
      output.leapfrogSteps,
      output.divergent,
      output.energy,
      output.inverseMetric,
    ].map((a) => a.buffer as ArrayBuffer);
    port.postMessage(reply, buffers);
  } catch (error) {
    const reply: ChainReply = { type: 'error', chain: job.chain, error: error instanceof Error ? error.message : String(error) };
    port.postMessage(reply);
  }
});
