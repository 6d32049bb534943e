// Telling a source file that was cut short from one that is merely malformed. A cut file must be refused as a
// whole (importing its first part would delete what the rest held); the check looks at the file's structure
// only: a JSON document whose brackets or last string never close, a CSV whose last record ends inside a quoted
// field or has fewer cells than the header. A file cut exactly at the end of a record cannot be told from a
// shorter file: the import guard's limit on deletions covers that case.
import { TruncatedSourceError } from '../../../core/import.ts';
import { parseSourceJson } from '../../../core/source-text.ts';

/** `line L, column C` of a 0-based offset (lines and columns from 1, columns in UTF-16 units). */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Where and how a JSON text ends before its document closes, or null when every bracket and string closes (or a
 * bracket closes the wrong one: then the file is malformed, not cut short).
 */
export function jsonTruncation(text: string): string | null {
  if (text.trim() === '') return 'the file is empty';
  const open: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') open.push(c);
    else if (c === '}' || c === ']') {
      if (open.pop() !== (c === '}' ? '{' : '[')) return null;
    }
  }
  const depth = open.length;
  if (!inString && depth === 0) return null;
  const end = text.trimEnd().length;
  const { line, column } = position(text, end);
  const what = inString ? 'inside a string' : `with ${depth} bracket${depth === 1 ? '' : 's'} still open`;
  return `line ${line.toLocaleString('en')}, column ${column}: the JSON document ends ${what}`;
}

/** Parses a source JSON file; a syntax error of a document that never closes is a TruncatedSourceError naming where. */
export function parseSourceJsonFile(text: string, file: string): unknown {
  try {
    return parseSourceJson(text, file);
  } catch (error) {
    const truncated = error instanceof SyntaxError ? jsonTruncation(text) : null;
    if (truncated) throw new TruncatedSourceError(file, truncated);
    throw error;
  }
}

/**
 * Where and how a CSV text (comma-separated, `"` quoting with `""` escapes, as RFC 4180 and papaparse read it)
 * ends before its last record does: inside a quoted field, or with fewer cells than the header. Null otherwise.
 */
export function csvTruncation(text: string): string | null {
  if (text.trim() === '') return 'line 1: the file is empty';
  let line = 1;
  let recordLine = 1;
  let cells = 1;
  let headerCells = 0;
  let fieldStart = true;
  let quoted = false;
  let lastRecord = { line: 1, cells: 1, blank: true };
  let recordBlank = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') i++;
        else quoted = false;
      } else if (c === '\n') line++;
      continue;
    }
    if (c === '"' && fieldStart) {
      quoted = true;
      fieldStart = false;
      recordBlank = false;
    } else if (c === ',') {
      cells++;
      fieldStart = true;
      recordBlank = false;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      if (headerCells === 0) headerCells = cells;
      if (!recordBlank) lastRecord = { line: recordLine, cells, blank: false };
      line++;
      recordLine = line;
      cells = 1;
      fieldStart = true;
      recordBlank = true;
    } else {
      fieldStart = false;
      if (c !== ' ' && c !== '\t') recordBlank = false;
    }
  }
  if (quoted) return `line ${recordLine.toLocaleString('en')}: the last record ends inside a quoted field`;
  // Text after the last line break is the last record; a file ending in a line break ends with a complete one.
  if (!recordBlank) lastRecord = { line: recordLine, cells, blank: false };
  if (headerCells === 0) return null; // the header is the only line
  if (!lastRecord.blank && lastRecord.line > 1 && lastRecord.cells < headerCells) {
    return `line ${lastRecord.line.toLocaleString('en')}: the last record has ${lastRecord.cells} of the ${headerCells} cells`;
  }
  return null;
}
