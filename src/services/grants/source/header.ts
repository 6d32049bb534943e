// The header row of a grants CSV, read ahead of an import (to tell a generated file by its marker column
// before the import starts).
import { closeSync, openSync, readSync } from 'node:fs';
import { Readable } from 'node:stream';
import Papa from 'papaparse';

/** Bytes read ahead for the header row (the federal header is about 1 KB). */
const HEADER_PEEK_BYTES = 1 << 18;

/**
 * The header row's cells, read ahead of the import (to tell a generated file by its marker column before the
 * import starts). A stream is read up to its first line break and given back with those bytes in front.
 */
export async function peekHeader(input: string | Readable): Promise<{ header: string[]; input: string | Readable }> {
  let head: Buffer;
  let rest: string | Readable = input;
  if (typeof input === 'string') {
    const fd = openSync(input, 'r');
    try {
      const buffer = Buffer.alloc(HEADER_PEEK_BYTES);
      head = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0));
    } finally {
      closeSync(fd);
    }
  } else {
    const chunks: Buffer[] = [];
    let length = 0;
    const iterator: AsyncIterator<Buffer | string> = input[Symbol.asyncIterator]();
    let done = false;
    while (length < HEADER_PEEK_BYTES && !chunks.some((c) => c.includes(0x0a))) {
      const next = await iterator.next();
      if (next.done) {
        done = true;
        break;
      }
      const chunk = typeof next.value === 'string' ? Buffer.from(next.value, 'utf8') : next.value;
      chunks.push(chunk);
      length += chunk.length;
    }
    head = Buffer.concat(chunks);
    rest = Readable.from(
      (async function* () {
        yield head;
        if (done) return;
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
      })(),
      { objectMode: false },
    );
  }
  const text = head.toString('utf8');
  const firstRow = Papa.parse<string[]>(text, { delimiter: ',', preview: 1 }).data[0] ?? [];
  return { header: firstRow, input: rest };
}
