// Decoding of source text whose encoding is not declared (oral's Cochrane files, grants CSV cells). UTF-8 is
// tried first (strictly); text that is not valid UTF-8 falls back to Windows-1252.
//
// Some Cochrane files are mixed: mostly UTF-8 ("aerosol‐generating" as E2 80 90) with a few single
// Windows-1252 bytes ("5 µm" as B5, "4–8 years" as 96). Decoding the whole file as Windows-1252 would turn
// every UTF-8 character of such a file into mojibake ("aerosolâ€\u0090generating"), so the fallback works
// per character: each well-formed UTF-8 sequence is decoded as UTF-8 and each byte that is not part of one
// as Windows-1252. A file with no well-formed multi-byte sequence at all is therefore plain Windows-1252.
// Two remnants of damaged UTF-8 are repaired in mixed files, where the surrounding text shows what they were:
// a lone C2 before a space is what remains of a no-break space (C2 A0) whose second byte became a space, and
// is dropped rather than shown as "Â"; a lone 90, which Windows-1252 leaves undefined, is the last byte of the
// hyphen U+2010 (E2 80 90) such files use throughout ("age\x90matched" beside "age‐matched") and is read as
// "‐". Any other byte Windows-1252 leaves undefined becomes U+FFFD.

import { storableText } from './source-text.ts';

export type TextEncodingUsed = 'utf-8' | 'windows-1252' | 'utf-8+windows-1252';

export interface DecodedText {
  text: string;
  encoding: TextEncodingUsed;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const UTF8 = new TextDecoder('utf-8');
const WINDOWS_1252 = new TextDecoder('windows-1252');

let windows1252Table: string[] | null = null;
function windows1252Char(byte: number): string {
  // WHATWG's windows-1252 maps the five bytes Windows-1252 leaves undefined to C1 controls; show them as U+FFFD.
  windows1252Table ??= Array.from({ length: 256 }, (_, b) => {
    const char = WINDOWS_1252.decode(Uint8Array.of(b));
    return /[\u0080-\u009f]/.test(char) ? '\ufffd' : char;
  });
  return windows1252Table[byte];
}

/** Length of the well-formed UTF-8 sequence that starts at `i` (RFC 3629, no overlongs or surrogates), or 0. */
export function utf8SequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i];
  if (b0 < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < bytes.length && bytes[i + k] >= lo && bytes[i + k] <= hi;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const lo = b0 === 0xe0 ? 0xa0 : 0x80;
    const hi = b0 === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const lo = b0 === 0xf0 ? 0x90 : 0x80;
    const hi = b0 === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

export function decodeText(bytes: Uint8Array): DecodedText {
  try {
    return { text: STRICT_UTF8.decode(bytes), encoding: 'utf-8' };
  } catch {
    // not valid UTF-8: fall through to the Windows-1252 fallback
  }
  let multiByteSequences = 0;
  for (let i = 0; i < bytes.length;) {
    const length = utf8SequenceLength(bytes, i);
    if (length > 1) multiByteSequences++;
    i += Math.max(length, 1);
  }
  if (multiByteSequences === 0) return { text: WINDOWS_1252.decode(bytes), encoding: 'windows-1252' };

  const parts: string[] = [];
  let runStart = 0;
  let i = 0;
  while (i < bytes.length) {
    const length = utf8SequenceLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    if (runStart < i) parts.push(UTF8.decode(bytes.subarray(runStart, i)));
    const lostNoBreakSpace = bytes[i] === 0xc2 && bytes[i + 1] === 0x20;
    if (!lostNoBreakSpace) parts.push(bytes[i] === 0x90 ? '\u2010' : windows1252Char(bytes[i]));
    i += 1;
    runStart = i;
  }
  if (runStart < bytes.length) parts.push(UTF8.decode(bytes.subarray(runStart)));
  const text = parts.join('');
  return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, encoding: 'utf-8+windows-1252' };
}

// Cells that need more than returning: a byte above 127, or a NUL.
const NEEDS_DECODING = /[\x00\x80-\xff]/;

/**
 * A CSV cell parsed from bytes read as Latin-1 (one character a byte: the CSV's own characters are ASCII, and
 * no byte of a multi-byte UTF-8 character is, so the cells are cut as from the decoded text) → its text: UTF-8,
 * bytes that are not UTF-8 as Windows-1252 ("Montréal" from E9, not "Montr\uFFFDal": a file saved by a
 * spreadsheet program), NUL as U+FFFD (storableText). ASCII cells, nearly all, are returned as they are.
 */
export function decodeByteCell(cell: string): string {
  if (!NEEDS_DECODING.test(cell)) return cell;
  const bytes = Buffer.from(cell, 'latin1');
  const text = bytes.toString('utf8');
  // U+FFFD marks a byte that is not UTF-8 (or a U+FFFD of the file, which the strict decoding keeps)
  return storableText(text.includes('\uFFFD') ? decodeText(bytes).text : text);
}
