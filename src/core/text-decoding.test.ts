import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeText, utf8SequenceLength } from './text-decoding.ts';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)));

test('valid UTF-8 is decoded as UTF-8, without a byte-order mark', () => {
  assert.deepEqual(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('Behçet ≥ 1', 'utf8')])), {
    text: 'Behçet ≥ 1',
    encoding: 'utf-8',
  });
});

test('a file with no UTF-8 sequence at all is Windows-1252', () => {
  // "Stecksén", "I²", "4–8" as single Windows-1252 bytes.
  assert.deepEqual(decodeText(bytes('Stecks', [0xe9], 'n; I', [0xb2], '; 4', [0x96], '8')), {
    text: 'Stecksén; I²; 4–8',
    encoding: 'windows-1252',
  });
});

test('a mixed file keeps its UTF-8 characters and reads stray bytes as Windows-1252', () => {
  const mixed = bytes('aerosol', [0xe2, 0x80, 0x90], 'generating; 5 ', [0xb5], 'm; environment ', [0x96], 'operator; ', [0xc2, 0xb5], 'm');
  assert.deepEqual(decodeText(mixed), { text: 'aerosol‐generating; 5 µm; environment –operator; µm', encoding: 'utf-8+windows-1252' });
  // Decoding such a file wholesale as Windows-1252 would garble its UTF-8 part: the reason for the per-byte fallback.
  assert.match(new TextDecoder('windows-1252').decode(mixed), /â€/);
});

test('in a mixed file, a lone C2 before a space (a damaged no-break space) is dropped', () => {
  assert.equal(decodeText(bytes('risk', [0xc2], ' of', [0xc2], ' bias ', [0xe2, 0x80, 0x93], ' ', [0x96])).text, 'risk of bias – –');
});

test('in a mixed file, a stray 90 is the rest of a UTF-8 hyphen; other undefined bytes are U+FFFD', () => {
  assert.equal(
    decodeText(bytes('follow', [0xe2, 0x80, 0x90], 'up; age', [0x90], 'matched; ', [0x8d])).text,
    'follow‐up; age‐matched; \uFFFD',
  );
});

test('UTF-8 sequence lengths follow RFC 3629 (no overlongs, surrogates or code points above U+10FFFF)', () => {
  const len = (...b: number[]) => utf8SequenceLength(Uint8Array.from(b), 0);
  assert.equal(len(0x41), 1);
  assert.equal(len(0xc3, 0xa4), 2);
  assert.equal(len(0xc0, 0x80), 0); // overlong
  assert.equal(len(0xe2, 0x80, 0x93), 3);
  assert.equal(len(0xe0, 0x80, 0x80), 0); // overlong
  assert.equal(len(0xed, 0xa0, 0x80), 0); // surrogate
  assert.equal(len(0xf0, 0x9f, 0x87, 0xac), 4);
  assert.equal(len(0xf4, 0x90, 0x80, 0x80), 0); // above U+10FFFF
  assert.equal(len(0xe2, 0x80), 0); // truncated
  assert.equal(len(0xb5), 0);
});
