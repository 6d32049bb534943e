// `npm run bench -- caching [--rounds 40]`: the UTF-8 encoding of a buffered answer in finishCaching
// (core/http/caching.ts), utf8Bytes against the Buffer.from it replaces (the baseline), on C's search answers as its
// demo data gives them (`limit=100`, in English and in French: UTF-16 strings, with ’ and dashes), on the French
// answer's first 1,024 characters (the shortest utf8Bytes transcodes), and on the English answer with its non-ASCII
// characters replaced (a one-byte string, which must not get slower). Each call gets a fresh string built by
// concatenation as a serialiser builds one (the flattening is part of the cost). The two are timed on the same strings
// in alternating order, round after round; printed: the median time a call, the median of the rounds' ratios
// (new ÷ baseline) with its 95% distribution-free interval (order statistics of the median).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { utf8Bytes } from '../src/core/http/caching.ts';
import { openDatabase } from '../src/core/db/database.ts';
import { migrateToLatest } from '../src/core/db/migrations.ts';
import { findService } from '../src/services/registry.ts';
import { buildTestApp, testContext } from '../test/support/app.ts';

const roundsArgument = process.argv.indexOf('--rounds');
const ROUNDS = roundsArgument > 0 ? Number(process.argv[roundsArgument + 1]) : 40;
/** Calls a round times, each way. */
const CALLS = 40;
/** Characters a concatenated piece: what a serialiser appends at a time (a key, a value, punctuation). */
const PIECE = 24;

/** The baseline: what finishCaching did, Buffer.from and a copy when the bytes sit in the shared pool. */
function baseline(text: string): Buffer {
  const buffer = Buffer.from(text);
  if (buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.length) return buffer;
  const copy = Buffer.allocUnsafeSlow(buffer.length);
  buffer.copy(copy);
  return copy;
}

async function answers(): Promise<Array<{ label: string; text: string }>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-bench-caching-'));
  const service = findService('grants');
  const db = openDatabase(`sqlite:${path.join(dir, 'grants.sqlite')}`);
  try {
    await migrateToLatest(db.kysely, service.migrations);
    const ctx = testContext(service, db, { dataDir: path.join(dir, 'data'), responseCacheEntries: 0 });
    await service.loadDemo(ctx, {});
    const app = await buildTestApp(service, ctx);
    try {
      const get = async (query: string) => (await app.inject(`/api/api/search/?${query}`)).body;
      const english = await get('q=health&limit=100');
      const french = await get(`q=${encodeURIComponent('santé')}&limit=100&lang=fr`);
      return [
        { label: 'q=health (English)', text: english },
        { label: 'q=santé&lang=fr', text: french },
        { label: 'q=health&lang=fr', text: await get('q=health&limit=100&lang=fr') },
        // At the shortest length utf8Bytes transcodes: the detour's fixed cost against a short encoding.
        { label: 'q=santé, 1,024 chars', text: french.slice(0, 1024) },
        // Through latin1 bytes: a one-byte string, as V8 holds an all-ASCII answer.
        { label: 'English, ASCII only', text: Buffer.from(english.replace(/[^\0-\x7f]/g, '?'), 'latin1').toString('latin1') },
      ];
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Fresh copies of `text`, each a concatenation of short pieces. */
function concatenated(text: string, copies: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += PIECE) pieces.push(text.slice(i, i + PIECE));
  return Array.from({ length: copies }, () => {
    let out = '';
    for (const piece of pieces) out += piece;
    return out;
  });
}

function timeCalls(encode: (text: string) => Buffer, texts: string[]): number {
  const started = process.hrtime.bigint();
  let bytes = 0;
  for (const text of texts) bytes += encode(text).length;
  const micros = Number(process.hrtime.bigint() - started) / 1000 / texts.length;
  if (bytes === 0) throw new Error('nothing encoded');
  return micros;
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)];

/** The 95% interval of a median from order statistics: ranks k and n + 1 − k with P(Binomial(n, ½) < k) ≤ 2.5%. */
function medianInterval(xs: number[]): [number, number] {
  const n = xs.length;
  let k = 0;
  let cumulative = 0;
  let term = 0.5 ** n; // P(X = 0)
  while (cumulative + term <= 0.025) {
    cumulative += term;
    term = (term * (n - k)) / (k + 1);
    k++;
  }
  const s = sorted(xs);
  return k === 0 ? [s[0], s[n - 1]] : [s[k - 1], s[n - k]];
}

const cases = await answers();
for (const { label, text } of cases)
  if (!utf8Bytes(text).equals(Buffer.from(text))) throw new Error(`${label}: utf8Bytes differs from Buffer.from`);
console.log(`${ROUNDS} rounds of ${CALLS} calls each way, Node ${process.version}`);
for (const { label, text } of cases) {
  const base: number[] = [];
  const next: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const forBase = concatenated(text, CALLS);
    const forNext = concatenated(text, CALLS);
    if (round % 2 === 0) {
      base.push(timeCalls(baseline, forBase));
      next.push(timeCalls(utf8Bytes, forNext));
    } else {
      next.push(timeCalls(utf8Bytes, forNext));
      base.push(timeCalls(baseline, forBase));
    }
  }
  const ratios = base.map((b, i) => next[i] / b);
  const [low, high] = medianInterval(ratios);
  console.log(
    `${label.padEnd(22)} ${String(text.length).padStart(7)} chars  Buffer.from ${median(base).toFixed(1)} µs, utf8Bytes ` +
      `${median(next).toFixed(1)} µs a call; utf8Bytes ÷ Buffer.from ${median(ratios).toFixed(3)} (95% ${low.toFixed(3)}–${high.toFixed(3)})`,
  );
}
