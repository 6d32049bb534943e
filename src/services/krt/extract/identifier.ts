// IDENTIFIER cells and mentions: split into catalog numbers, RRIDs, accessions, URLs and other notes, and
// written back in the contract's normal form, "Cat# G8795; RRID:AB_1078991" (catalog numbers first, then
// other identifiers as written, RRIDs last). The same parse gives the comparison keys used by the knowledge
// base and the evaluation, so "Cat #ab290", "ab290" and "AB-290" are one catalog number.
//
// Identifiers are facts: only labels and separators between items are normalised. An RRID is an `rrid` part
// only when it is written exactly in its registry's shape (letter case aside); one written broken ("RRID: A
// B_2127 260", "RRID:SCR_0030 70", "RRID: ab28364") is an `unresolved-rrid` part that keeps what was written,
// with the form it would have if only its spaces and separators were fixed (`repair`). Nothing here shortens,
// pads or completes an identifier; whether a repair is right is decided with the whole corpus
// (rrid/knowledge-base.ts).

import { parseRrid } from '../rrid/registry.ts';
import { accessionKey, findAccessions } from './accessions.ts';

type IdentifierPartKind = 'catalog' | 'rrid' | 'unresolved-rrid' | 'accession' | 'url' | 'none' | 'other';

export interface IdentifierPart {
  kind: IdentifierPartKind;
  /**
   * The identifier proper: catalog number, RRID as written in its canonical shape (no "RRID:"), a broken RRID as
   * written (no "RRID:", whitespace runs as one space), accession, URL, or the text.
   */
  value: string;
  /** Repository or label written with a catalog/stock number ("JAX", "BDSC", "ATCC"); '' for Cat#. */
  label: string;
  /** The URL an accession was written as, kept for display. */
  url?: string;
  /** unresolved-rrid: the canonical form with only spaces, separators and letter case fixed, when there is one. */
  repair?: string;
}

/** An RRID written exactly in a registry's shape (up to letter case): its canonical spelling, else null. */
export function verbatimRrid(written: string): string | null {
  return parseRrid(written).normalized;
}

// A token after "RRID:" that may continue a broken identifier ("260" of "A B_2127 260", "B_2127" of "A B_2127").
const FRAGMENT = /^(?:[A-Za-z]{0,3}[_:-]?\d[\w:.-]*|[A-Za-z][_:-][\w:.-]*\d[\w:.-]*|[A-Za-z]{1,2})$/;

// RRIDs written without the "RRID:" label, specific enough to recognise in an identifier cell.
const BARE_RRID =
  /\b(AB_\d{4,10}|SCR_\d{6}|CVCL_[A-Z0-9]{4}|Addgene_\d{3,7}|BDSC_\d{1,6}|IMSR_[A-Z]{2,6}:[\w.-]+|MMRRC_\d{6}-[A-Z]{2,5}|Fly[Bb]ase_FBst\d{7}|ZFIN_ZDB-[A-Z]{3,5}-\d{6}-\d+|RGD_\d{5,8}|WB-STRAIN:\w+|DGRC_\d{1,6}|MGI:\d{4,8})\b/g;
const RRID_LABEL = /\bRRID\s*[:#]?\s*/gi;

const NONE = /^(n\/?a\.?|none|not applicable|not available|na|nd|n\.a\.|[-–—]+|\/|unknown)$/i;
const CATALOG_LABEL =
  /^(?:cat(?:alog(?:ue)?)?\.?\s*(?:#|nos?\.?|nr\.?|numbers?|num\.?|code|id)?|product\s*(?:code|number|no\.?|#|id)|prod\.?\s*#|order\s*(?:no\.?|number|#)|item\s*(?:no\.?|number|#)|art(?:icle)?\.?\s*(?:no\.?|#)|ref(?:erence)?\.?\s*(?:no\.?|#)|part\s*(?:no\.?|number|#)|#)\s*[:#.]?\s*/i;
// Stock and repository numbers: written with the repository's name; kept with it.
const REPOSITORY_LABELS: readonly [RegExp, string][] = [
  [/^(?:the\s+)?jackson\s+lab(?:oratory|s)?|^jax(?:\s*mice)?/i, 'JAX'],
  [/^bloomington(?:\s+drosophila\s+stock\s+center)?|^bdsc/i, 'BDSC'],
  [/^vienna\s+drosophila\s+resource\s+cent(?:er|re)|^vdrc/i, 'VDRC'],
  [/^kyoto(?:\s+dggr)?|^dggr/i, 'DGGR'],
  [/^atcc/i, 'ATCC'],
  [/^dshb/i, 'DSHB'],
  [/^dgrc/i, 'DGRC'],
  [/^cgc/i, 'CGC'],
  [/^zirc/i, 'ZIRC'],
  [/^nig/i, 'NIG'],
  [/^emma/i, 'EMMA'],
  [/^mmrrc/i, 'MMRRC'],
  [/^riken(?:\s+brc)?/i, 'RIKEN BRC'],
  [/^ecacc/i, 'ECACC'],
  [/^dsmz/i, 'DSMZ'],
  [/^addgene(?:\s+plasmid)?/i, 'Addgene'],
  [/^coriell/i, 'Coriell'],
  [/^nxr/i, 'NXR'],
  // Databases and registries whose numbers are identifiers in their own right, never catalog numbers.
  [/^mgi(?=[\s:#]|$)/i, 'MGI'],
  [/^zfin(?:\s+id)?(?=[\s:#]|$)/i, 'ZFIN'],
  [/^ncbi(?:\s+(?:gene|taxonomy|taxon|nucleotide|protein|refseq|genbank))?(?:\s+id)?(?=[\s:#]|$)/i, 'NCBI'],
  [/^ensembl(?=[\s:#]|$)/i, 'Ensembl'],
  [/^uniprot(?:kb)?(?=[\s:#]|$)/i, 'UniProt'],
  [/^flybase(?=[\s:#]|$)/i, 'FlyBase'],
  [/^wormbase(?=[\s:#]|$)/i, 'WormBase'],
  [/^rgd(?=[\s:#]|$)/i, 'RGD'],
  [/^imsr(?=[\s:#]|$)/i, 'IMSR'],
  [/^komp(?=[\s:#]|$)/i, 'KOMP'],
  [/^(?:nbrp|yrc)(?=[\s:#]|$)/i, 'NBRP'],
  [/^cellosaurus(?=[\s:#]|$)/i, 'Cellosaurus'],
  [/^(?:strain|stock|line|plasmid)/i, ''],
];
const OTHER_LABEL =
  /^(lot|batch|cas(?:\s*(?:no\.?|number|#))?|pmid|pmcid|doi|version|ver\.|v\.|clone|conc(?:entration)?|dilution|uniprot|ensembl|ncbi\s+gene|gene\s*id|taxid|ec)\b/i;
// Database identifiers that are accessions in all but name.
const DATABASE_ID = /\b(FB(?:al|ba|bt|gn|st|ti|tp|sn|tc|rf|ab)\d{7}|ZDB-[A-Z]{3,5}-\d{6}-\d+|WBStrain\d{8}|MGI:\d{4,8})\b/g;

export interface ParseIdentifierOptions {
  /** Whether a lone code ("ab290", "15140-122") counts as a catalog number (true in identifier columns). */
  bareCodesAreCatalog?: boolean;
  /**
   * The row's SOURCE: a lone number from a stock centre or database (The Jackson Laboratory, Addgene, ATCC,
   * Bloomington, MGI, ZFIN, NCBI …) is that centre's identifier ("JAX: 000664"), not a catalog number.
   */
  source?: string;
}

/** The stock centre or database a SOURCE names, as the label its numbers are written with; null for a supplier. */
function repositoryLabelOfSource(source: string | undefined): string | null {
  const text = source?.trim() ?? '';
  if (!text) return null;
  if (/jackson\s+lab|JAX/i.test(text) && !/immuno/i.test(text)) return 'JAX';
  for (const [re, label] of REPOSITORY_LABELS) if (label && re.test(text)) return label;
  if (/bloomington/i.test(text)) return 'BDSC';
  if (/vienna\s+drosophila/i.test(text)) return 'VDRC';
  return null;
}

interface Span {
  start: number;
  end: number;
  part: IdentifierPart;
}

/** Splits an identifier text into typed parts, in the order written. */
export function parseIdentifierText(text: string, options: ParseIdentifierOptions = {}): IdentifierPart[] {
  const bare = options.bareCodesAreCatalog ?? true;
  const sourceLabel = repositoryLabelOfSource(options.source);
  let work = text.replace(/\s+/g, ' ').trim();
  if (!work) return [];
  const spans: Span[] = [];
  const blank = (start: number, end: number) => {
    work = work.slice(0, start) + ';'.padEnd(end - start, ' ') + work.slice(end);
  };

  // 1. RRIDs after an "RRID" label. One token in its registry's shape is the RRID as written. Otherwise up to three
  //    tokens that read as one broken identifier ("AB 2340770", "A B_2127 260") are kept together, as written.
  RRID_LABEL.lastIndex = 0;
  for (let m = RRID_LABEL.exec(work); m; m = RRID_LABEL.exec(work)) {
    const after = m.index + m[0].length;
    const tokens =
      work
        .slice(after)
        .match(/^[^\s;,()\[\]]+(?: [^\s;,()\[\]]+){0,2}/)?.[0]
        .split(' ') ?? [];
    const clean = (t: string) => t.replace(/[.:]+$/, '');
    const first = tokens[0] ? clean(tokens[0]) : '';
    const exact = first ? verbatimRrid(first) : null;
    if (exact) {
      const end = after + first.length;
      spans.push({ start: m.index, end, part: { kind: 'rrid', value: exact, label: '' } });
      blank(m.index, end);
      continue;
    }
    // The longest run of fragments whose spaces and separators, fixed, give a well-formed identifier.
    let taken = 0;
    let repair: string | undefined;
    for (let n = 1; n <= tokens.length; n++) {
      if (n > 1 && !FRAGMENT.test(clean(tokens[n - 1]))) break;
      const joined = tokens.slice(0, n).map(clean).join(' ');
      const parsed = parseRrid(joined);
      const fixed = parsed.normalized ?? parsed.corrected;
      if (fixed) {
        taken = n;
        repair = fixed;
      }
    }
    if (taken === 0) taken = 1;
    const written = tokens
      .slice(0, taken)
      .map((t, i) => (i === taken - 1 ? clean(t) : t))
      .join(' ');
    const end = after + written.length;
    if (written) {
      // Labelled as an RRID but not written as one ("RRID: AB 2340770", "RRID: 44609G", "RRID:AB_"): kept as
      // written, never as a catalog number.
      const part: IdentifierPart = repair
        ? { kind: 'unresolved-rrid', value: written, label: '', repair }
        : { kind: 'unresolved-rrid', value: written, label: '' };
      spans.push({ start: m.index, end, part });
    }
    blank(m.index, Math.max(end, m.index + 1));
  }
  // 2. Bare RRIDs.
  BARE_RRID.lastIndex = 0;
  for (let m = BARE_RRID.exec(work); m; m = BARE_RRID.exec(work)) {
    const rrid = verbatimRrid(m[1]);
    if (!rrid) continue;
    spans.push({ start: m.index, end: m.index + m[0].length, part: { kind: 'rrid', value: rrid, label: '' } });
    blank(m.index, m.index + m[0].length);
  }
  // 3. URLs with a scheme or www (an accession inside a URL is recorded as the accession); bare domains
  //    ("vector.fmi.ch") come after the accessions, so that a DOI such as 10.17504/protocols.io.x stays whole.
  const takeUrls = (re: RegExp) => {
    for (let m = re.exec(work); m; m = re.exec(work)) {
      const url = m[0];
      const inner = findAccessions(url)[0];
      spans.push({
        start: m.index,
        end: m.index + url.length,
        part: inner ? { kind: 'accession', value: inner.accession, label: inner.repository, url } : { kind: 'url', value: url, label: '' },
      });
      blank(m.index, m.index + url.length);
    }
  };
  takeUrls(/\b(?:https?:\/\/|www\.)[^\s;,]+[^\s;,.)]/gi);
  // 4. Accessions and database ids, with a repository label written just before them ("GEO: ", "FLYB:").
  const withLabel = (start: number) => {
    const label = /(?:^|[\s;(])([A-Za-z][A-Za-z .-]{0,24}?)\s*[:#]\s*$/.exec(work.slice(0, start));
    return label ? start - (label[0].length - (/^[\s;(]/.test(label[0]) ? 1 : 0)) : start;
  };
  for (const found of findAccessions(work)) {
    const start = withLabel(found.index);
    spans.push({ start, end: found.index + found.length, part: { kind: 'accession', value: found.accession, label: found.repository } });
    blank(start, found.index + found.length);
  }
  DATABASE_ID.lastIndex = 0;
  for (let m = DATABASE_ID.exec(work); m; m = DATABASE_ID.exec(work)) {
    const start = withLabel(m.index);
    spans.push({ start, end: m.index + m[0].length, part: { kind: 'accession', value: m[1], label: databaseOf(m[1]) } });
    blank(start, m.index + m[0].length);
  }
  takeUrls(/(?<![\w.\/])[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:org|com|net|edu|io|ch|de|uk|gov|fr|jp)(?:\/[^\s;,]*[^\s;,.)])?/gi);
  // 5. What is left: segments split at ';', ', ', and before labels that start a new item.
  const rest = work.replace(
    /\b(?=cat(?:alog(?:ue)?)?\.?\s*(?:#|no\b|number)|lot\s*[#:]|cas\s*(?:no\.?|number)?\s*[:#]|product\s*(?:code|number|no))/gi,
    ';',
  );
  let offset = 0;
  for (const raw of splitOutsideParentheses(rest)) {
    const start = work.indexOf(raw, offset);
    offset = start >= 0 ? start + raw.length : offset;
    const segment = raw
      .trim()
      .replace(/^[\s,.:]+|[\s,]+$/g, '')
      .trim();
    if (!segment) continue;
    let part = classifySegment(segment, bare);
    // A lone number in the row of a stock centre or database is that centre's identifier (written as-is).
    // ("#12260" or "Plasmid #12260" in Addgene's row is Addgene 12260; "Cat# 12260" written so stays a catalog number.)
    if (
      part?.kind === 'catalog' &&
      part.label === '' &&
      sourceLabel &&
      /^(?:(?:strain|stock|line|plasmid)\s*)?(?:#|no\.?|number)?\s*[:#]?\s*$/i.test(segment.slice(0, segment.length - part.value.length))
    )
      part = { ...part, label: sourceLabel };
    if (part) spans.push({ start: Math.max(0, start), end: Math.max(0, start) + raw.length, part });
  }
  spans.sort((a, b) => a.start - b.start);
  return spans.map((s) => s.part);
}

/**
 * Splits `text` at the characters where `isSeparator(i, part)` holds (`part`: what the current part holds so
 * far), never inside parentheses or brackets. Separators are dropped; parts are kept as they are.
 */
export function splitOutsideBrackets(text: string, isSeparator: (i: number, part: string) => boolean): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    if (depth === 0 && isSeparator(i, current)) {
      out.push(current);
      current = '';
    } else current += c;
  }
  out.push(current);
  return out;
}

/** Splits at ';', ', ' and ' | ' but not inside parentheses or brackets. */
function splitOutsideParentheses(text: string): string[] {
  return splitOutsideBrackets(text, (i) => {
    const c = text[i];
    return c === ';' || (c === ',' && /\s/.test(text[i + 1] ?? '')) || (c === '|' && text[i - 1] === ' ');
  });
}

function databaseOf(id: string): string {
  if (id.startsWith('FB')) return 'FlyBase';
  if (id.startsWith('ZDB')) return 'ZFIN';
  if (id.startsWith('WBStrain')) return 'WormBase';
  return 'MGI';
}

function looksLikeCode(token: string): boolean {
  if (token.length < 3 || token.length > 32) return false;
  if (!/\d/.test(token)) return false;
  if (!/^[A-Za-z0-9][A-Za-z0-9._\/+-]*[A-Za-z0-9]$/.test(token)) return false;
  if (/^v?\d+(\.\d+){1,3}$/i.test(token)) return false; // a version number
  if (/^(19|20)\d\d$/.test(token)) return false; // a year
  if (/^\d+(\.\d+)?(%|mm|nm|um|µm|ml|µl|ul|mg|µg|ug|ng|kda|x)$/i.test(token)) return false; // a quantity
  return true;
}

function classifySegment(segment: string, bare: boolean): IdentifierPart | null {
  if (NONE.test(segment)) return { kind: 'none', value: 'N/A', label: '' };
  const cat = CATALOG_LABEL.exec(segment);
  if (cat && cat[0].length > 0 && cat[0].length < segment.length) {
    const value = firstCode(segment.slice(cat[0].length));
    if (value) return { kind: 'catalog', value, label: '' };
  }
  if (OTHER_LABEL.test(segment)) return { kind: 'other', value: segment, label: '' };
  for (const [re, label] of REPOSITORY_LABELS) {
    const m = re.exec(segment);
    if (!m) continue;
    const after = segment.slice(m[0].length).replace(/^\s*(?:stock|strain|cat(?:alog)?\.?)?\s*(?:#|no\.?|number|id)?\s*[:#.]?\s*/i, '');
    const value = firstCode(after);
    if (value) return { kind: 'catalog', value, label };
  }
  const tokens = segment.split(' ');
  if (bare && tokens.length === 1 && looksLikeCode(tokens[0])) return { kind: 'catalog', value: tokens[0], label: '' };
  // "9706S" preceded by a vendor-like word: "Sigma T9026", "Abcam ab290".
  if (bare && tokens.length === 2 && /^[A-Z][A-Za-z&.-]+$/.test(tokens[0]) && looksLikeCode(tokens[1])) {
    return { kind: 'catalog', value: tokens[1], label: '' };
  }
  return { kind: 'other', value: segment, label: '' };
}

/** The first code-like token of a text ("3808L (lot 5)" → "3808L"); '' when there is none. */
function firstCode(text: string): string {
  const trimmed = text.trim().replace(/^[#:]\s*/, '');
  const token = trimmed.split(/[\s(]/)[0].replace(/[.,;:]+$/, '');
  if (!token) return '';
  // Allow short codes after an explicit label ("Cat# 7", "#L5"), but require a digit.
  if (/\d/.test(token)) return token;
  return '';
}

/** Writes parts back as one IDENTIFIER string: catalog numbers, then the others as written, RRIDs last. */
export function formatIdentifier(parts: readonly IdentifierPart[]): string {
  const out: string[] = [];
  const seen = new Set<string>();
  const push = (text: string) => {
    if (!seen.has(text)) {
      seen.add(text);
      out.push(text);
    }
  };
  for (const p of parts) if (p.kind === 'catalog') push(p.label ? `${p.label}: ${p.value}` : `Cat# ${p.value}`);
  for (const p of parts) {
    if (p.kind === 'accession' && p.url) push(p.url);
    else if (p.kind === 'accession')
      push(p.label && !p.value.toUpperCase().includes(p.label.toUpperCase()) ? `${p.label}: ${p.value}` : p.value);
    else if (p.kind === 'url' || p.kind === 'other') push(p.value);
  }
  for (const p of parts) if (p.kind === 'rrid' || p.kind === 'unresolved-rrid') push(`RRID:${p.value}`);
  if (out.length === 0 && parts.some((p) => p.kind === 'none')) out.push('N/A');
  return out.join('; ');
}

export function normalizeIdentifier(text: string, options: ParseIdentifierOptions = {}): string {
  return formatIdentifier(parseIdentifierText(text, options));
}

/** Comparison key of a catalog number: upper case, letters and digits only ("Cat #A-11039" ~ "a11039"). */
export function catalogKey(catalog: string): string {
  // A pack size after a dash is not part of the product: "E7023-500ML", "HPA066330-100UL", "HT15-1KT", "F7503-4L".
  // Litres only in the bottle sizes suppliers sell: "250-31L" (PeproTech) and "CL-1000L" are products, not 31 or 1000 L.
  const product = catalog.replace(/-(?:\d+\s*(?:[µμu]L|mL|mg|[µμu]g|g|KT|RXN|EA|PAK|PK|TST|T)|(?:1|2|4|5|10|20)\s*L)$/i, '');
  return product.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

// Stock centres whose RRID is their stock number with a prefix (RRID:Addgene_12260 is Addgene plasmid 12260,
// RRID:IMSR_JAX:000664 is JAX stock 000664, RRID:BDSC_5137 is Bloomington stock 5137): one resource, however
// it is written, gets one key.
const STOCK_OF_RRID: readonly [RegExp, string, (n: string) => string][] = [
  [/^Addgene_(\d+)/, 'ADDGENE', (n) => String(Number(n))],
  [/^IMSR_JAX:(\d+)$/, 'JAX', (n) => n.padStart(6, '0')],
  [/^BDSC_(\d+)$/, 'BDSC', (n) => String(Number(n))],
];
const STOCK_OF_LABEL: Record<string, [string, (n: string) => string]> = {
  Addgene: ['ADDGENE', (n) => String(Number(n))],
  JAX: ['JAX', (n) => n.padStart(6, '0')],
  BDSC: ['BDSC', (n) => String(Number(n))],
};

export interface KeyOptions extends ParseIdentifierOptions {
  /** The row's SOURCE: a bare catalog number from Addgene, JAX or Bloomington is that centre's stock number. */
  source?: string;
}

function stockLabelOfSource(source: string | undefined): string | null {
  if (!source) return null;
  if (/\baddgene\b/i.test(source)) return 'Addgene';
  if (/\bjackson\s+lab|\bJAX\b/i.test(source) && !/immuno/i.test(source)) return 'JAX';
  if (/\bbloomington\b|\bBDSC\b/i.test(source)) return 'BDSC';
  return null;
}

/**
 * Keys of the identifiers in an IDENTIFIER text: `RRID:…`, `CAT:…`, `ACC:…`, and `STOCK:<centre>:<number>` for
 * Addgene, JAX and Bloomington stocks written either as RRIDs or as stock numbers. URLs and notes are not keys.
 * These keys compare identifiers; they are never shown as identifiers.
 */
export function identifierKeys(text: string, options: KeyOptions = {}): Set<string> {
  const keys = new Set<string>();
  const sourceLabel = stockLabelOfSource(options.source);
  for (const part of parseIdentifierText(text, options)) {
    // For comparing tables only: a broken RRID and the same one written correctly are one identifier.
    const rrid = part.kind === 'rrid' ? part.value : part.kind === 'unresolved-rrid' ? part.repair : undefined;
    if (rrid) {
      const stock = STOCK_OF_RRID.map(([re, centre, norm]) => {
        const m = re.exec(rrid);
        return m ? `STOCK:${centre}:${norm(m[1])}` : null;
      }).find(Boolean);
      keys.add(stock ?? `RRID:${rrid}`);
    } else if (part.kind === 'unresolved-rrid') {
      keys.add(`RRID?:${part.value.toUpperCase().replace(/\s+/g, '')}`);
    } else if (part.kind === 'catalog') {
      const stockLabel = STOCK_OF_LABEL[part.label] ?? (part.label === '' && sourceLabel ? STOCK_OF_LABEL[sourceLabel] : undefined);
      const digits = /^\d+/.exec(part.value)?.[0];
      if (stockLabel && digits) {
        keys.add(`STOCK:${stockLabel[0]}:${stockLabel[1](digits)}`);
        continue;
      }
      const key = catalogKey(part.value);
      if (key.length >= 2) keys.add(`CAT:${key}`);
    } else if (part.kind === 'accession') keys.add(`ACC:${accessionKey(part.value)}`);
  }
  return keys;
}
