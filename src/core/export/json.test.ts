import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonChunks, jsonReadable } from './json.ts';
import type { JsonDocumentOptions } from './json.ts';
import { TRICKY_STRINGS, collect, seededRows, seededRowsAsync } from '../../../test/support/export/rows.ts';

async function jsonText<Row>(options: JsonDocumentOptions<Row>): Promise<string> {
  const bytes = await collect(jsonChunks(options));
  // Must be valid UTF-8 whatever the strings held (lone surrogates are escaped, never encoded).
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

test('tricky strings, as values and as keys, parse back exactly', async () => {
  const rows = TRICKY_STRINGS.map((s, i) => ({ i, s, [s]: s }));
  const text = await jsonText({ head: { title: 'quote " and \u2028' }, arrayKey: 'papers', rows });
  const parsed = JSON.parse(text);
  assert.deepEqual(parsed, { title: 'quote " and \u2028', papers: rows });
  // Lone surrogates survive as escapes rather than being replaced.
  assert.ok(text.includes('\\ud800') && text.includes('\\udc00'));
  assert.ok(parsed.papers.some((r: { s: string }) => r.s === 'lone high \uD800 surrogate'));
});

test('output is exactly JSON.stringify of the whole document, compact and pretty', async () => {
  const head = { title: 'KRT', session_id: 'abc', skipped: undefined, nested: { a: [1, { b: null }], e: {}, f: [] } };
  const rows = [{ x: 1, y: ['a', { z: 'deep\nline' }] }, { x: -2.5, y: [] }, 'scalar', null];
  const tail = { analytics: { total: 4, by_year: { '2020': 1 } } };
  const whole = { ...head, rows, ...tail };
  for (const pretty of [false, true, 4] as const) {
    const indent = pretty === true ? 2 : pretty === false ? 0 : pretty;
    const text = await jsonText({ head, arrayKey: 'rows', rows, tail: () => tail, pretty });
    assert.equal(text, JSON.stringify(whole, null, indent), `pretty=${pretty}`);
  }
  // Empty array, no head, no tail.
  for (const pretty of [false, true]) {
    assert.equal(await jsonText({ arrayKey: 'rows', rows: [], pretty }), JSON.stringify({ rows: [] }, null, pretty ? 2 : 0));
  }
  // Values JSON cannot hold become null inside the array, as JSON.stringify does.
  assert.equal(await jsonText({ arrayKey: 'r', rows: [undefined, () => 1] }), '{"r":[null,null]}');
});

test('tail fields are computed after the rows went by', async () => {
  let total = 0;
  async function* rows(): AsyncGenerator<{ n: number }> {
    for (let n = 1; n <= 100; n++) {
      total += n;
      yield { n };
    }
  }
  const text = await jsonText({ arrayKey: 'papers', rows: rows(), tail: async ({ rowCount }) => ({ analytics: { rowCount, total } }) });
  const parsed = JSON.parse(text);
  assert.equal(parsed.papers.length, 100);
  assert.deepEqual(parsed.analytics, { rowCount: 100, total: 5050 });
});

test('duplicate keys are refused instead of producing ambiguous JSON', async () => {
  await assert.rejects(jsonText({ head: { papers: 1 }, arrayKey: 'papers', rows: [] }), /array key/);
  await assert.rejects(jsonText({ head: { a: 1 }, arrayKey: 'papers', rows: [], tail: () => ({ a: 2 }) }), /duplicate key "a"/);
  await assert.rejects(jsonText({ arrayKey: 'papers', rows: [], tail: () => ({ papers: 2 }) }), /duplicate key "papers"/);
});

test('10,000 rows x 16 columns streamed from an async source', async () => {
  const chunks: Buffer[] = [];
  for await (const chunk of jsonReadable({
    head: { format: 'json' },
    arrayKey: 'papers',
    rows: seededRowsAsync(10_000, 'json-10k'),
    tail: ({ rowCount }) => ({ count: rowCount }),
  })) {
    chunks.push(chunk as Buffer);
  }
  assert.ok(chunks.length > 10, `output arrives in many chunks (${chunks.length})`);
  const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  assert.equal(parsed.count, 10_000);
  assert.equal(parsed.papers.length, 10_000);
  assert.deepEqual(parsed.papers, JSON.parse(JSON.stringify([...seededRows(10_000, 'json-10k')])));
});
