// Why the key resources table served (the rows the row-inclusion model keeps, with the fills of the rule) differs
// from the authors' table, identifier by identifier, on the scored papers (the `cv` section of `npm run bench -- krt`,
// bench/_krt-cv.ts). Each wrong identifier (in the table served, not in the authors' tables) and each missed one
// (in the authors' tables and written somewhere in the training papers, so inside the ceiling, but not in the table
// served) gets one cause, the first that applies in the order listed below; counts and shares are over all of them.
// A row the authors list is theirs whatever type the text gave it: "a kind the authors' table does not list" and
// "a row they do not list" are said of the rows the matching pairs with none of theirs.
//
// Rows are paired with the authors' rows by the benchmark's one-to-one matching (evaluation.ts matchRows) of every
// row the text gives (the table and its further mentions) against the authors' rows, the pairing the row-inclusion
// model's labels use. Identifiers are compared as the benchmark compares them (identifierComparisonKey).

import { formatEstimate, matchRows, pooledEstimate } from '../src/services/krt/extract/evaluation.ts';
import type { KrtRow } from '../src/services/krt/extract/krt-row.ts';
import { vendorKey } from '../src/services/krt/extract/vendors.ts';
import { identifierComparisonKey } from '../src/services/krt/extract/learned/fill-training.ts';
import { identifierParts } from './_krt-cv-ceiling.ts';

/** One scored paper: every row the text gives, which are served, the authors' rows and the candidates listed. */
export interface ErrorPaper {
  paper: string;
  /** Whether the authors' table is a whole STAR or eLife key resources table (else tables of one kind or a few). */
  krtLayout: boolean;
  /** Every row the text gives, with the fills of the rule written (the order of the extraction). */
  rows: readonly KrtRow[];
  /** Per row: in the key resources table served (else a further mention). */
  inTable: readonly boolean[];
  gold: readonly KrtRow[];
  /** The authors' identifiers, and those of them written in a training paper (comparison keys). */
  goldIds: ReadonlySet<string>;
  ceilingIds: ReadonlySet<string>;
  /** The identifier candidates of the rows' empty cells (row index, value as written). */
  candidates: readonly { row: number; value: string }[];
}

type Kind = 'rrid' | 'catalog';

/** A row's RRIDs and catalog numbers as comparison keys (three characters or more), with their kind. */
function keysOf(row: KrtRow): Map<string, Kind> {
  const out = new Map<string, Kind>();
  for (const p of identifierParts(row)) if (!out.has(p.key)) out.set(p.key, p.kind);
  return out;
}

/** One identifier is the other with something cut off or added at an end ("HPA066330-100uL" and "HPA066330"). */
function partialOf(key: string, others: Iterable<string>): boolean {
  for (const other of others) {
    const [short, long] = key.length <= other.length ? [key, other] : [other, key];
    if (short.length >= 5 && short !== long && (long.startsWith(short) || long.endsWith(short))) return true;
  }
  return false;
}

export const WRONG_CAUSES = [
  'malformed or partial: a prefix or suffix of an authors’ identifier of the paper, or it of one',
  'row the authors do not list, of a kind their table does not list at all',
  'row the authors list with another identifier: they give none (URL, version, N/A, empty)',
  'row the authors list with another identifier: RRID where they give a catalog number only, or the reverse',
  'row the authors list with another identifier: a catalog number of another supplier',
  'row the authors list with another identifier: another of the same kind (same or unnamed supplier)',
  'row the authors do not list, though they list its kind',
] as const;

export const MISSED_CAUSES = [
  'no row extracted for the resource',
  'row extracted, with the identifier, but left to the further mentions',
  'row extracted, without the identifier, and left to the further mentions',
  'row in the table, no identifier and no candidate: its cell empty',
  'row in the table, no identifier and no candidate: its cell holds another of that kind',
  'row in the table, the identifier among its candidates but not filled (below the threshold)',
] as const;

type WrongCause = (typeof WRONG_CAUSES)[number];
type MissedCause = (typeof MISSED_CAUSES)[number];

/** The cause of each wrong identifier of the table served, one per identifier of a paper (its first row). */
export function wrongIdentifierCauses(p: ErrorPaper): { key: string; cause: WrongCause }[] {
  const matchOf = new Map(matchRows(p.rows, p.gold).map((m) => [m.predicted, m.gold]));
  const listedKinds = new Set(p.gold.map((row) => row['RESOURCE TYPE']));
  const seen = new Set<string>();
  const out: { key: string; cause: WrongCause }[] = [];
  p.rows.forEach((row, i) => {
    if (!p.inTable[i]) return;
    for (const [key, kind] of keysOf(row)) {
      if (seen.has(key)) continue;
      seen.add(key);
      if (p.goldIds.has(key)) continue;
      const g = matchOf.get(i);
      let cause: WrongCause;
      if (partialOf(key, p.goldIds)) cause = WRONG_CAUSES[0];
      else if (g === undefined) cause = listedKinds.has(row['RESOURCE TYPE']) ? WRONG_CAUSES[6] : WRONG_CAUSES[1];
      else {
        const goldKeys = keysOf(p.gold[g]);
        const ofKind = [...goldKeys.values()].includes(kind);
        const vendors = [row.SOURCE, p.gold[g].SOURCE].map((s) => (s.trim() ? vendorKey(s) : ''));
        if (goldKeys.size === 0) cause = WRONG_CAUSES[2];
        else if (!ofKind) cause = WRONG_CAUSES[3];
        else if (kind === 'catalog' && vendors[0] && vendors[1] && vendors[0] !== vendors[1]) cause = WRONG_CAUSES[4];
        else cause = WRONG_CAUSES[5];
      }
      out.push({ key, cause });
    }
  });
  return out;
}

/** The cause of each identifier of the authors' tables inside the ceiling that the table served does not carry. */
export function missedIdentifierCauses(p: ErrorPaper): { key: string; cause: MissedCause }[] {
  const rowKeys = p.rows.map(keysOf);
  const served = new Set(rowKeys.flatMap((keys, i) => (p.inTable[i] ? [...keys.keys()] : [])));
  const matchOf = new Map(matchRows(p.rows, p.gold).map((m) => [m.gold, m.predicted]));
  const out: { key: string; cause: MissedCause }[] = [];
  for (const key of p.ceilingIds) {
    if (served.has(key) || !p.goldIds.has(key)) continue;
    const g = p.gold.findIndex((row) => keysOf(row).has(key));
    const kind = g < 0 ? undefined : keysOf(p.gold[g]).get(key);
    const i = g < 0 ? undefined : matchOf.get(g);
    let cause: MissedCause;
    if (rowKeys.some((keys) => keys.has(key))) cause = MISSED_CAUSES[1];
    else if (i === undefined) cause = MISSED_CAUSES[0];
    else if (!p.inTable[i]) cause = MISSED_CAUSES[2];
    else if (p.candidates.some((c) => c.row === i && identifierComparisonKey(c.value) === key)) cause = MISSED_CAUSES[5];
    else if ([...rowKeys[i].values()].includes(kind ?? 'catalog')) cause = MISSED_CAUSES[4];
    else cause = MISSED_CAUSES[3];
    out.push({ key, cause });
  }
  return out;
}

/** The two tables of causes (counts, shares of the total, and the share with its 95% interval over papers). */
export function servedErrorLines(papers: readonly ErrorPaper[]): string[] {
  const table = <C extends string>(title: string, causes: readonly C[], of: (p: ErrorPaper) => { cause: C }[]): string[] => {
    const items = papers.flatMap((p) => of(p).map((x) => ({ paper: p.paper, krtLayout: p.krtLayout, cause: x.cause })));
    const lines = [`${title}: ${items.length}`];
    for (const cause of causes) {
      const n = items.filter((x) => x.cause === cause).length;
      const share = pooledEstimate(items.map((x) => ({ paper: x.paper, hit: x.cause === cause })));
      const papersWith = new Set(items.filter((x) => x.cause === cause).map((x) => x.paper)).size;
      const onKrt = items.filter((x) => x.cause === cause && x.krtLayout).length;
      lines.push(
        `  ${String(n).padStart(5)}  ${formatEstimate(share)}  (${papersWith} papers; ${onKrt} of them on STAR/eLife tables)  ${cause}`,
      );
    }
    return lines;
  };
  return [
    'error analysis of the key resources table served (each identifier once per paper, the first cause that applies; share of the total with its 95% interval over papers):',
    ...table("  wrong identifiers (in the table served, not in the authors' tables)", WRONG_CAUSES, wrongIdentifierCauses),
    ...table(
      "  missed identifiers inside the ceiling (in the authors' tables and written in a training paper, not in the table served)",
      MISSED_CAUSES,
      missedIdentifierCauses,
    ),
  ];
}
