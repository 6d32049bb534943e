// One paper in, one key resources table out: the author table when the paper has one (provider `jats-table`),
// else the text extractor (provider `text-pattern`): the learned extractor (`krt-text-5`, extract/learned/) when
// its shipped model is present, else the rule extractor (`krt-text-1`). What the importer, the CLI and the routes
// call. Rows from text carry the sentence they came from and a calibrated confidence (`evidence`), and, when the
// row-inclusion model ships, whether the authors would list them: the rows it keeps are the key resources table, the
// others further mentions (`in_table` false), all in `rows` in the extractor's order.

import { readFileSync, statSync } from 'node:fs';
import { parseJats } from '../jats/article.ts';
import type { ArticleMetadata } from '../jats/metadata.ts';
import { extractAuthorTables, type TableLayout } from './author-table.ts';
import type { KrtRow } from './krt-row.ts';
import { extractFromText, TEXT_EXTRACTOR_MODEL as RULE_EXTRACTOR_MODEL } from './text-extractor.ts';
import { articleText } from './learned/sentences.ts';
import { includeRows } from './learned/inclusion.ts';
import { shippedExtractor, shippedInclusion, shippedModelPresent } from './learned/shipped.ts';
import { LEARNED_EXTRACTOR_MODEL } from './learned/model.ts';

/** The text extractor in use: the learned one when its model ships, else the rules. */
export const TEXT_EXTRACTOR_MODEL = shippedModelPresent() ? LEARNED_EXTRACTOR_MODEL : RULE_EXTRACTOR_MODEL;

// 2: broken RRIDs are written back as written; other table layouts. 3: a row outside a category typed by its name's head
// ("… Transcription Kit" a kit, not recombinant DNA for "cDNA").
export const TABLE_EXTRACTOR_MODEL = 'krt-table-3';
type ExtractionProvider = 'jats-table' | 'text-pattern';
/** auto: the author table if any, else the text; table / text: only that extractor (text skips author tables). */
export type ExtractionMode = 'auto' | 'table' | 'text';

interface AuthorTableInfo {
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
  /**
   * For rows from text: the sentence each came from, its calibrated confidence and whether it is in the key resources
   * table or a further mention (same order as rows; splitTable splits them).
   */
  evidence: RowEvidence[] | null;
  /** Author tables found (also in `text` mode, where they are skipped). */
  authorTables: AuthorTableInfo[];
  /** Seconds spent parsing, extracting, and in total (the session's processing_time). */
  parseSeconds: number;
  extractSeconds: number;
  processingTime: number;
}

export interface RowEvidence {
  sentence: string;
  /** Calibrated probability that the row names a resource the authors would list (extract/learned/). */
  confidence: number;
  /**
   * The row-inclusion model's probability that the authors would put the row in their key resources table
   * (extract/learned/inclusion.ts); null when no inclusion model ships or the row was stored before it was kept.
   */
  inclusion_probability: number | null;
  /** Whether the row is in the key resources table; false: a further mention, listed apart. */
  in_table: boolean;
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
  let evidence: RowEvidence[] | null = null;
  if (mode !== 'text' && authored) {
    provider = 'jats-table';
    rows = authored.rows;
  } else if (mode === 'table') {
    provider = 'jats-table';
    rows = [];
  } else {
    provider = 'text-pattern';
    const skipTables = new Set(authored?.parts.map((p) => p.table.element) ?? []);
    const learned = shippedExtractor();
    if (learned) {
      const found = learned.extract(articleText(root, skipTables));
      const inclusion = shippedInclusion();
      const included = inclusion ? includeRows(inclusion, found) : null;
      rows = found.map((f) => f.row);
      evidence = found.map((f, i) => ({
        sentence: f.sentence,
        confidence: f.confidence,
        inclusion_probability: included ? Number(included[i].probability.toFixed(4)) : null,
        in_table: included?.[i].inTable ?? true,
      }));
    } else rows = extractFromText(root, { skipTables });
  }
  const t2 = performance.now();
  return {
    metadata,
    provider,
    model: provider === 'jats-table' ? TABLE_EXTRACTOR_MODEL : TEXT_EXTRACTOR_MODEL,
    rows,
    evidence,
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

/** A row found in the text that the key resources table leaves out (the row-inclusion model's), with its evidence. */
export interface FurtherMention {
  /** Its place among every row the extractor found (the stored row's position): what promoting it names. */
  position: number;
  row: KrtRow;
  sentence: string;
  confidence: number;
  inclusion_probability: number | null;
}

/**
 * A table's rows split into the key resources table (with its evidence, same order) and the further mentions. Rows
 * without evidence, or whose evidence does not say otherwise, are in the table.
 */
export function splitTable(
  rows: readonly KrtRow[],
  evidence: readonly RowEvidence[] | null,
): { rows: KrtRow[]; evidence: RowEvidence[] | null; mentions: FurtherMention[] } {
  if (!evidence || evidence.length !== rows.length) return { rows: [...rows], evidence: evidence ? [...evidence] : null, mentions: [] };
  const table: KrtRow[] = [];
  const kept: RowEvidence[] = [];
  const mentions: FurtherMention[] = [];
  rows.forEach((row, position) => {
    const e = evidence[position];
    if (e.in_table) {
      table.push(row);
      kept.push(e);
    } else mentions.push({ position, row, sentence: e.sentence, confidence: e.confidence, inclusion_probability: e.inclusion_probability });
  });
  return { rows: table, evidence: kept, mentions };
}
