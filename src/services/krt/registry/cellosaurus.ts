// Reader of Cellosaurus' flat file (cellosaurus.txt, https://ftp.expasy.org/databases/cellosaurus/cellosaurus.txt;
// its format is described in the file's own header and in the Cellosaurus user manual): a header (the release as
// " Version: 49.0" and " Last update: …"), then entries of lines "XX   value" with a two-letter line code, each
// entry ending with a line "//". Line codes: ID name, AC primary accession (the RRID, CVCL_xxxx), AS secondary
// accessions, SY synonyms ("; "-separated), DR cross-references ("ATCC; CCL-2"), RX references, WW web pages, CC
// comments, ST STR profile, DI diseases, OX species ("NCBI_TaxID=9606; ! Homo sapiens (Human)"), HI/OI hierarchy,
// SX sex, AG age, CA category, DT dates. Only what identifies a cell line is kept (ID, AC, AS, SY, DR of cell banks,
// OX, CA). Streamed line by line: the full file has about 160,000 entries.
import fs from 'node:fs';
import readline from 'node:readline';
import { TruncatedSourceError } from '../../../core/import.ts';
import { storableText } from '../../../core/source-text.ts';
import type { RegistryRecord } from './records.ts';

const ACCESSION = /^CVCL_[A-Z0-9]{4}$/;
const LINE = /^([A-Z]{2}) {3}(.*)$/;

// Cross-reference databases of Cellosaurus that are cell banks or suppliers (a DR line of theirs gives a catalog
// number to order the line from); the others (CLO, EFO, PubMed, DepMap, Wikidata …) are not where to get it.
const SUPPLIERS = new Set([
  'ATCC',
  'BCRC',
  'BCRJ',
  'CBA',
  'CCLV',
  'CCRID',
  'CCTCC',
  'CLS',
  'Coriell',
  'DSMZ',
  'EBiSC',
  'ECACC',
  'ICLC',
  'IZSLER',
  'JCRB',
  'KCB',
  'KCLB',
  'Lonza',
  'Millipore',
  'NCBI_Iran',
  'NCCS',
  'NIHhESC',
  'RCB',
  'TKG',
  'WiCell',
  'Ximbio',
  'Abcam',
  'AddexBio',
]);

interface CellosaurusItem {
  /** The file's line on which the entry starts. */
  line: number;
  record: RegistryRecord | null;
  /** Why the entry could not be read (a reason to count, free of entry-specific text). */
  problem: string | null;
}

export interface CellosaurusFile {
  /** The release from the header (" Version: 49.0"), or null when the header does not say. */
  release: string | null;
  lastUpdate: string | null;
  items: AsyncGenerator<CellosaurusItem, void, undefined>;
}

/** Whether the start of a file looks like Cellosaurus' flat file (a line "ID   …" followed by "AC   CVCL_…"). */
export function looksLikeCellosaurus(head: string): boolean {
  return /^ID {3}\S.*\r?\n(?:[A-Z]{2} {3}.*\r?\n)*?AC {3}CVCL_/m.test(head);
}

/** Opens the file and reads its header; the generator yields its entries in order. */
export async function openCellosaurus(file: string): Promise<CellosaurusFile> {
  const lines = readline
    .createInterface({ input: fs.createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity })
    [Symbol.asyncIterator]();
  let lineNumber = 0;
  let release: string | null = null;
  let lastUpdate: string | null = null;
  let first: string | null = null;
  // The header: every line before the first entry.
  for (;;) {
    const next = await lines.next();
    if (next.done) break;
    lineNumber++;
    const text = next.value;
    if (text.startsWith('ID   ')) {
      first = text;
      break;
    }
    release ??= /^\s*Version:\s*(\S+)/.exec(text)?.[1] ?? null;
    lastUpdate ??= /^\s*Last update:\s*(.+?)\s*$/.exec(text)?.[1] ?? null;
  }
  if (first === null) throw new Error(`${file}: not a Cellosaurus flat file (no entry starts with a line "ID   <name>")`);

  async function* items(): AsyncGenerator<CellosaurusItem, void, undefined> {
    let entry: string[] = [first!];
    let start = lineNumber;
    for (;;) {
      const next = await lines.next();
      if (next.done) break;
      lineNumber++;
      const text = storableText(next.value.replace(/\s+$/, ''));
      if (text === '//') {
        yield readEntry(entry, start);
        entry = [];
        continue;
      }
      if (text === '') continue;
      if (entry.length === 0) start = lineNumber;
      else if (text.startsWith('ID   ')) {
        // A new entry while one is open: the open one lost its terminator.
        yield { line: start, record: null, problem: 'entry not ended by "//"' };
        entry = [];
        start = lineNumber;
      }
      entry.push(text);
    }
    if (entry.length > 0)
      throw new TruncatedSourceError(file, `line ${start}: the last entry (${entry[0].slice(0, 60)}) is not ended by "//"`);
  }
  return { release, lastUpdate, items: items() };
}

function readEntry(lines: readonly string[], line: number): CellosaurusItem {
  const fail = (problem: string): CellosaurusItem => ({ line, record: null, problem });
  let name: string | null = null;
  let accession: string | null = null;
  const secondary: string[] = [];
  const synonyms: string[] = [];
  const species: string[] = [];
  const suppliers: { vendor: string; catalog: string }[] = [];
  let category: string | undefined;
  for (const text of lines) {
    const m = LINE.exec(text);
    if (!m) return fail('line without a line code');
    const [, code, value] = m;
    const v = value.trim();
    switch (code) {
      case 'ID':
        if (name !== null) return fail('entry with two ID lines');
        name = v;
        break;
      case 'AC':
        if (accession !== null) return fail('entry with two AC lines');
        accession = v;
        break;
      case 'AS':
        for (const a of v.split(';')) if (a.trim()) secondary.push(a.trim());
        break;
      case 'SY':
        for (const s of v.split(';')) if (s.trim()) synonyms.push(s.trim());
        break;
      case 'DR': {
        const [db, ref] = v.split(';').map((x) => x.trim());
        if (db && ref && SUPPLIERS.has(db)) suppliers.push({ vendor: db, catalog: ref });
        break;
      }
      case 'OX': {
        const s = /!\s*(.+)$/.exec(v)?.[1]?.trim();
        if (s && !species.includes(s)) species.push(s);
        break;
      }
      case 'CA':
        category = v;
        break;
      default:
        break;
    }
  }
  if (!name) return fail('entry without a name (ID)');
  if (!accession) return fail('entry without an accession (AC)');
  if (!ACCESSION.test(accession)) return fail('accession (AC) not of the form CVCL_xxxx');
  const first = suppliers.find((s) => s.vendor === 'ATCC') ?? suppliers[0];
  return {
    line,
    problem: null,
    record: {
      registry: 'cellosaurus',
      identifier: accession,
      name,
      synonyms,
      vendor: first?.vendor ?? null,
      catalog: first?.catalog ?? null,
      species: species.length ? species.join('; ') : null,
      detail: {
        ...(secondary.length ? { secondary: secondary.filter((a) => ACCESSION.test(a)) } : {}),
        ...(suppliers.length ? { suppliers } : {}),
        ...(category ? { category } : {}),
      },
    },
  };
}
