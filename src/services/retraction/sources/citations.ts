// Citation sources: OpenCitations-style rows (`citing, cited, creation`, as CSV or JSON; identifiers plain
// DOIs, `doi:…`, or OpenCitations' space-separated `omid:… doi:… pmid:…` lists) and OpenAlex works
// (`id, doi, publication_date, referenced_works`). Both become CitationEdge values: who cites, when, and the
// DOI of the cited work, which is how a citation finds its retracted paper.
import path from 'node:path';
import { cleanDoi, doiKey, parsePartialDate } from './fields.ts';
import type { PartialDate } from './fields.ts';
import { jsonElements } from './json-stream.ts';

export interface CitationEdge {
  /** Stable identity of the citing work: `doi:<lower-case doi>`, else the source's own id. */
  citingKey: string;
  citingDoi: string | null;
  date: PartialDate | null;
  /** Comparison form of the cited work's DOI. */
  citedDoiKey: string;
}

/** An identifier cell: a DOI in any of its written forms, or the first identifier of the list. */
export function parseIdentifier(text: string | undefined | null): { doi: string | null; key: string | null } {
  const value = (text ?? '').trim();
  if (value === '') return { doi: null, key: null };
  const tokens = value.split(/\s+/);
  for (const token of tokens) {
    const doi = cleanDoi(token);
    if (doi) return { doi, key: `doi:${doiKey(doi)}` };
  }
  const whole = cleanDoi(value);
  if (whole) return { doi: whole, key: `doi:${doiKey(whole)}` };
  return { doi: null, key: tokens[0].toLowerCase() };
}

export type EdgeResult = { edge: CitationEdge } | { skip: CitationSkip };

export type CitationSkip =
  'citing work has no identifier' | 'cited work missing' | 'cited work has no DOI' | 'unreadable citing date' | 'not a citation record';

/**
 * Rows the dataset does not keep although they were read (tally.exclude): a cited work without a DOI cannot be
 * a paper of the database. The other reasons are rows that could not be read (tally.skip, the guard's 5%).
 */
export const EXCLUDED_CITATION_SKIPS: ReadonlySet<CitationSkip> = new Set<CitationSkip>(['cited work has no DOI']);

/** One OpenCitations-style record (`creation` is the citing work's publication date). */
export function openCitationsEdge(citing: string | undefined, cited: string | undefined, creation: string | undefined): EdgeResult {
  const from = parseIdentifier(citing);
  if (!from.key) return { skip: 'citing work has no identifier' };
  const to = parseIdentifier(cited);
  if (!to.key) return { skip: 'cited work missing' };
  if (!to.doi) return { skip: 'cited work has no DOI' };
  const date = parsePartialDate(creation);
  if (date === null && (creation ?? '').trim() !== '') return { skip: 'unreadable citing date' };
  return { edge: { citingKey: from.key, citingDoi: from.doi, date, citedDoiKey: doiKey(to.doi) } };
}

export interface OpenAlexWork {
  /** Short OpenAlex id, e.g. "W2741809807". */
  id: string;
  doi: string | null;
  date: PartialDate | null;
  referencedWorks: string[];
}

/** "https://openalex.org/W123" or "W123" → "W123". */
function openAlexId(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /(?:^|\/)([WwAaSsIi]\d+)$/.exec(value.trim());
  return m ? m[1].toUpperCase() : null;
}

export function openAlexWork(value: unknown): OpenAlexWork | null {
  if (value === null || typeof value !== 'object') return null;
  const work = value as Record<string, unknown>;
  const id = openAlexId(work.id);
  if (!id) return null;
  const refs = Array.isArray(work.referenced_works) ? work.referenced_works.map(openAlexId).filter((r): r is string => r !== null) : [];
  return {
    id,
    doi: typeof work.doi === 'string' ? cleanDoi(work.doi) : null,
    date: parsePartialDate(typeof work.publication_date === 'string' ? work.publication_date : null),
    referencedWorks: refs,
  };
}

export type CitationFormat = 'opencitations-csv' | 'opencitations-json' | 'openalex-json';

/** By extension, and for JSON by the first element's fields. */
export async function detectCitationFormat(file: string): Promise<CitationFormat> {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.csv') return 'opencitations-csv';
  if (ext !== '.json' && ext !== '.jsonl' && ext !== '.ndjson')
    throw new Error(`${file}: citation files are .csv, .json, .jsonl or .ndjson`);
  for await (const first of jsonElements(file)) {
    const record = (first ?? {}) as Record<string, unknown>;
    if ('referenced_works' in record) return 'openalex-json';
    if ('citing' in record && 'cited' in record) return 'opencitations-json';
    throw new Error(`${file}: JSON elements have neither referenced_works (OpenAlex) nor citing and cited (OpenCitations)`);
  }
  throw new Error(`${file}: no JSON elements`);
}
