// Worker thread for extractMany(): extracts the files it is sent, one at a time, and posts each result back.

import { parentPort } from 'node:worker_threads';
import { extractFile, type ExtractionMode } from './extract-article.ts';

export interface WorkerRequest {
  seq: number;
  file: string;
  mode: ExtractionMode;
}
export type WorkerReply = { seq: number; ok: true; result: ReturnType<typeof extractFile> } | { seq: number; ok: false; error: string };

if (!parentPort) throw new Error('extract-worker.ts must run as a worker thread');
const port = parentPort;
port.on('message', (request: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    reply = { seq: request.seq, ok: true, result: extractFile(request.file, { mode: request.mode }) };
  } catch (err) {
    reply = { seq: request.seq, ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply);
});
