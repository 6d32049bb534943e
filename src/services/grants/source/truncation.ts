// How a grants CSV ends: whether its last record is complete. A file cut short (a download or copy that
// stopped) ends inside its last record; the reader refuses it rather than import the rows before the cut.
import { closeSync, openSync, readSync } from 'node:fs';

/**
 * A file that ends inside its last record: a quoted field never closed, or a last line with fewer cells than
 * the header and no line break after it (a file cut short). `line` is where that record starts (1-based,
 * the header is line 1).
 */
export class GrantsCsvTruncatedError extends Error {
  readonly line: number;
  readonly reason: string;
  constructor(line: number, reason: string) {
    super(`line ${line.toLocaleString('en-CA')}: ${reason}`);
    this.name = 'GrantsCsvTruncatedError';
    this.line = line;
    this.reason = reason;
  }
}

/** What the end of a parsed text says about its last record. */
export interface TextEnd {
  /** The parser reached the end inside a quoted field. */
  unterminatedQuote: boolean;
  /** The text ends with a line break (its last record is complete). */
  endsWithLineBreak: boolean;
  /** Line breaks in the whole text (the file's are counted only when asked: a second pass over it). */
  lineBreaks: () => number;
  /** The line break the parser found ("\r\n", "\n" or "\r"). */
  linebreak: string;
}

/** Occurrences of the line break's last character ("\n" of "\r\n") in `text`. */
export function countLineBreaks(text: string, linebreak: string): number {
  const mark = linebreak.endsWith('\r') ? '\r' : '\n';
  let n = 0;
  for (let i = text.indexOf(mark); i !== -1; i = text.indexOf(mark, i + 1)) n++;
  return n;
}

/** Line breaks in a file (read in 1 MiB blocks as Latin-1: line breaks are ASCII). */
export function countFileLineBreaks(file: string, linebreak: string): number {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(1 << 20);
    let n = 0;
    for (let read; (read = readSync(fd, buffer, 0, buffer.length, null)) > 0;)
      n += countLineBreaks(buffer.toString('latin1', 0, read), linebreak);
    return n;
  } finally {
    closeSync(fd);
  }
}

/** The last `n` bytes of a file as Latin-1. */
export function fileTail(file: string, size: number, n: number): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(n, size));
    const read = readSync(fd, buffer, 0, buffer.length, size - buffer.length);
    return buffer.toString('latin1', 0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Throws GrantsCsvTruncatedError when the text ended inside its last record (`last`, its cells as parsed):
 * inside a quoted field, or on a line with fewer cells than the header and no line break after it.
 */
export function checkLastRecord(end: TextEnd, last: readonly string[] | null, headerCells: number): void {
  if (last === null) return;
  let reason: string | null = null;
  if (end.unterminatedQuote) reason = 'the file ends inside a quoted field of the last record (an unterminated quote)';
  else if (!end.endsWithLineBreak && last.length < headerCells)
    reason = `the last record has ${last.length} of the header's ${headerCells} cells and no line break after it`;
  if (reason === null) return;
  let inRecord = 0;
  for (const cell of last) inRecord += countLineBreaks(cell, end.linebreak);
  throw new GrantsCsvTruncatedError(end.lineBreaks() - inRecord + 1, reason);
}
