// Export writers shared by the services (B: KRT table exports; E: streamed paper exports). Each writer is an
// async generator of Buffer chunks (pull-based, so a slow client slows the database cursor down) with a
// `…Readable` twin for `reply.send()`. No framework code here: routes set the headers below and pipe.

export { csvChunks, csvReadable } from './csv.ts';
export { jsonReadable } from './json.ts';
export { xlsxReadable } from './xlsx.ts';
export { cellText, guardFormula } from './cells.ts';

export type ExportFormat = 'json' | 'csv' | 'xlsx';

export const EXPORT_CONTENT_TYPES: Readonly<Record<ExportFormat, string>> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

// RFC 5987 attr-char is ALPHA / DIGIT / "!#$&+-.^_`|~"; encodeURIComponent also leaves ' ( ) * bare.
function encodeExtValue(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/**
 * `Content-Disposition` for a download (RFC 6266): `attachment; filename="<ascii>"`, plus
 * `filename*=UTF-8''<percent-encoded>` when the name is not plain printable ASCII. The ASCII fallback drops
 * diacritics and replaces what remains non-ASCII, quotes, backslashes and '%' with '_'; path separators and
 * control characters are replaced in both forms, so a name can never point at a directory.
 */
export function attachmentDisposition(filename: string): string {
  let name = filename
    .toWellFormed()
    .replace(/[\x00-\x1F\x7F/\\]/g, '_')
    .trim();
  if (name === '' || name === '.' || name === '..') name = 'download';
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7E]/g, '_')
    .replace(/["%]/g, '_');
  const disposition = `attachment; filename="${ascii}"`;
  return ascii === name ? disposition : `${disposition}; filename*=UTF-8''${encodeExtValue(name)}`;
}
