import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseSourceJson, storableText } from './source-text.ts';

test('storableText reads NUL as U+FFFD and leaves other text as it is', () => {
  assert.equal(storableText('a\u0000b\u0000'), 'a\uFFFDb\uFFFD');
  const plain = 'plain é 🌲';
  assert.equal(storableText(plain), plain);
});

test('parseSourceJson reads the escape \\u0000 and a raw NUL as U+FFFD, and an escaped backslash before u0000 as text', () => {
  assert.deepEqual(parseSourceJson('{"a":"x\\u0000y","b":["\\u0000"]}'), { a: 'x\uFFFDy', b: ['\uFFFD'] });
  assert.deepEqual(parseSourceJson('{"a":"x\u0000y"}'), { a: 'x\uFFFDy' });
  // `\\u0000` is a backslash and the letters u0000; `\\\u0000` a backslash and a NUL
  assert.deepEqual(parseSourceJson('["\\\\u0000", "\\\\\\u0000"]'), ['\\u0000', '\\\uFFFD']);
  assert.throws(() => parseSourceJson('{"a":'), SyntaxError);
  assert.throws(() => parseSourceJson('{"a":', 'feed.json'), { name: 'SyntaxError', message: /^feed\.json is not valid JSON: / });
});

test('parseSourceJson equals JSON.parse on any JSON text, but for NUL read as U+FFFD', () => {
  const nulAsReplacement = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replaceAll('\u0000', '\uFFFD');
    if (Array.isArray(value)) return value.map(nulAsReplacement);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [nulAsReplacement(k), nulAsReplacement(v)]));
    return value;
  };
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 3, stringUnit: fc.constantFrom('a', '\\', 'u', '0', '\u0000', '"', 'é') }), (value) => {
      assert.deepEqual(parseSourceJson(JSON.stringify(value)), nulAsReplacement(JSON.parse(JSON.stringify(value))));
    }),
    { seed: 20261121, numRuns: 500 },
  );
});
