// One paper in, one key resources table out: the author table when the paper has one (provider `jats-table`),
// else the text extractor (provider `text-pattern`). What the importer, the CLI and the routes call.

import { readFileSync, statSync } from 'node:fs';
import { parseJats } from '../jats/article.ts';
import type { ArticleMetadata } from '../jats/metadata.ts';
import { extractAuthorTables, type TableLayout } from './author-table.ts';
import type { KrtRow } from './krt-row.ts';
import { extractFromText, TEXT_EXTRACTOR_MODEL } from './text-extractor.ts';

export const TABLE_EXTRACTOR_MODEL = 'krt-table-1';
export type ExtractionProvider = 'jats-table' | 'text-pattern';
/** auto: the author table if any, else the text; table / text: only that extractor (text skips author tables). */
export type ExtractionMode = 'auto' | 'table' | 'text';

export interface AuthorTableInfo {
  /** The table-wrap's id attribute ('' when it has none). */
  id: string;
  /** Position among the article's table-wraps (document order, 0-based). */
  index: number;
  location: string;
  layout: TableLayout;
  label: string;
  rows: number;
}

export interface PaperExtraction {
  metadata: ArticleMetadata;
  provider: ExtractionProvider;
  /** Extractor name and version, e.g. `krt-table-1`. */
  model: string;
  rows: KrtRow[];
  /** Author tables found (also in `text` mode, where they are skipped). */
  authorTables: AuthorTableInfo[];
  /** Seconds spent parsing, extracting, and in total (the session's processing_time). */
  parseSeconds: number;
  extractSeconds: number;
  processingTime: number;
}

export interface ExtractOptions {
  mode?: ExtractionMode;
  fileName?: string;
}

/** Extracts the key resources table of one JATS document. Throws XmlParseError on malformed XML. */
export function extractArticle(xml: string, options: ExtractOptions = {}): PaperExtraction {
  const mode = options.mode ?? 'auto';
  const t0 = performance.now();
  const { root, metadata } = parseJats(xml, options.fileName);
  const t1 = performance.now();
  const authored = extractAuthorTables(root);
  const authorTables: AuthorTableInfo[] = (authored?.parts ?? []).map((part) => ({
    id: part.table.id,
    index: part.table.index,
    location: part.table.location,
    layout: part.layout,
    label: part.table.label || part.table.caption.slice(0, 80),
    rows: part.rows.length,
  }));
  let provider: ExtractionProvider;
  let rows: KrtRow[];
  if (mode !== 'text' && authored) {
    provider = 'jats-table';
    rows = authored.rows;
  } else if (mode === 'table') {
    provider = 'jats-table';
    rows = [];
  } else {
    provider = 'text-pattern';
    rows = extractFromText(root, { skipTables: new Set(authored?.parts.map((p) => p.table.element) ?? []) });
  }
  const t2 = performance.now();
  return {
    metadata,
    provider,
    model: provider === 'jats-table' ? TABLE_EXTRACTOR_MODEL : TEXT_EXTRACTOR_MODEL,
    rows,
    authorTables,
    parseSeconds: (t1 - t0) / 1000,
    extractSeconds: (t2 - t1) / 1000,
    processingTime: (t2 - t0) / 1000,
  };
}

export interface FileExtraction extends PaperExtraction {
  file: string;
  fileSize: number;
}

export function extractFile(file: string, options: Omit<ExtractOptions, 'fileName'> = {}): FileExtraction {
  const xml = readFileSync(file, 'utf8');
  return { ...extractArticle(xml, { ...options, fileName: file }), file, fileSize: statSync(file).size };
}
