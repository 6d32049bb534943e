import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXPORT_CONTENT_TYPES, attachmentDisposition, cellText, guardFormula } from './index.ts';

/** Reads `filename*=UTF-8''…` back the way a browser does. */
function extendedName(header: string): string | undefined {
  const match = /filename\*=UTF-8''([^;]*)/.exec(header);
  return match ? decodeURIComponent(match[1]) : undefined;
}

test('plain ASCII names: only the quoted filename, exactly as the contracts show', () => {
  assert.equal(attachmentDisposition('krt_abc123.csv'), 'attachment; filename="krt_abc123.csv"');
  assert.equal(attachmentDisposition('retracted_papers_2024-01-02.xlsx'), 'attachment; filename="retracted_papers_2024-01-02.xlsx"');
});

test('non-ASCII names: ASCII fallback plus RFC 5987 filename*', () => {
  const header = attachmentDisposition('résumé 漢字 (1).json');
  assert.equal(header, `attachment; filename="resume __ (1).json"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E6%BC%A2%E5%AD%97%20%281%29.json`);
  assert.equal(extendedName(header), 'résumé 漢字 (1).json');
  // Every byte of the header is printable ASCII, as HTTP header values must be.
  assert.match(header, /^[\x20-\x7E]+$/);
});

test('quotes, backslashes, percent signs, path separators and controls cannot escape the parameter', () => {
  const header = attachmentDisposition('../a"b\\c%41\r\nSet-Cookie: x=1.csv');
  assert.match(header, /^[\x20-\x7E]+$/, 'no CR/LF header injection');
  const fallback = /filename="([^"]*)"/.exec(header)![1];
  assert.ok(!/["\\/%]/.test(fallback), `fallback ${fallback}`);
  const extended = extendedName(header)!;
  assert.ok(!extended.includes('/') && !extended.includes('\\'), 'no path in the extended name either');
  assert.equal(extended, '.._a"b_c%41__Set-Cookie: x=1.csv');
  assert.equal(attachmentDisposition(''), 'attachment; filename="download"');
  assert.equal(attachmentDisposition('..'), 'attachment; filename="download"');
  // A lone surrogate cannot be percent-encoded as UTF-8; it becomes U+FFFD instead of throwing.
  assert.equal(extendedName(attachmentDisposition('a\uD800.csv')), 'a\uFFFD.csv');
});

test('content types', () => {
  assert.equal(EXPORT_CONTENT_TYPES.csv, 'text/csv; charset=utf-8');
  assert.equal(EXPORT_CONTENT_TYPES.json, 'application/json; charset=utf-8');
  assert.equal(EXPORT_CONTENT_TYPES.xlsx, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
});

test('cell text and formula guard building blocks', () => {
  assert.equal(guardFormula('=1'), "'=1");
  assert.equal(guardFormula('a=1'), 'a=1');
  assert.equal(guardFormula(''), '');
  assert.equal(cellText(undefined), '');
  assert.equal(cellText(Symbol('s')), '');
  assert.equal(cellText([1, null, 'x', [true]]), '1; ; x; true');
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  assert.equal(cellText(circular), '[object Object]', 'unserialisable objects fall back to String()');
});
