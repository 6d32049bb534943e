// Cross-validation by paper of the tables built from text, against the authors' own key resources tables (the `cv`
// section of `npm run bench -- krt`).
//
// Papers: every corpus paper with an author table (any layout). A fixed held-out set, never looked at while tuning:
// the papers whose SHA-256 of the lower-cased DOI starts with a hex digit 0, 1 or 2 (3/16 of them). The others are
// split into 5 folds by paper (seeded). For each fold: the knowledge base is every other corpus paper's table as the
// importer builds it (author tables; the text extractor's rows elsewhere) without the fold's papers and without the
// held-out papers, calibrated as at import; the learned text extractor is trained on the other folds' STAR/eLife
// author-table papers; each fold paper's author tables are cut out of its text before extraction. With `heldOut`,
// the held-out papers are scored once, with every other paper as training.
//
// Fills and candidates: for each test paper's text-built table, what the base proposes for its empty identifier cells
// (rrid/fill-proposals.ts, two per kind: the candidates served; the first of each kind is the fill). The fill model
// (rrid/fill-model.ts) that scores a fold's proposals is fitted and calibrated as the shipped one is
// (extract/learned/fill-training.ts) on the other folds' proposals only (for the held-out papers: on every tuning
// fold's), so its probabilities, their reliability table and the precision of the fills are out of sample. Fills are
// scored against the authors' whole tables (the issue's measure), candidates against the matched authors' row.
//
// Scores, with 95% percentile-bootstrap intervals over papers:
// - identifiers: RRIDs and catalog numbers of the text-built table against those of the authors' table, compared
//   after removing spaces, case and separators ("RRID:AB_2127260" = "ab2127260"), pooled over papers; the ceiling
//   is the share of the authors' identifiers written anywhere in the training papers' text (as a token), the
//   knowledge-base ceiling the share that the fold's base attests as an identifier (bench/_krt-cv-ceiling.ts), both
//   split by how the identifier is written; the same again on the papers with a STAR/eLife table only;
// - name-only suggestions: every RRID of a test paper's table asked for by its resource name alone;
// - rows: macro precision and recall of the text-built rows against the authors' rows (evaluation.ts matching).
// - row inclusion: the same rows and identifiers on the rows the inclusion model (extract/learned/inclusion.ts)
//   keeps, fitted on the other groups' papers, and its precision–recall curve (rowInclusionLines);
// - why the table served is wrong or misses identifiers, by cause (bench/_krt-cv-errors.ts).

import fs from 'node:fs';
import { parseXml, textOf } from '../src/services/krt/jats/tree.ts';
import {
  formatEstimate,
  macroEstimate,
  pooledEstimate,
  scorePaper,
  matchRows,
  type Counts,
  type Estimate,
} from '../src/services/krt/extract/evaluation.ts';
import { Random } from '../src/core/random.ts';
import { parseIdentifierText } from '../src/services/krt/extract/identifier.ts';
import type { KrtRow } from '../src/services/krt/extract/krt-row.ts';
import {
  authorTablePaper,
  CV_FOLDS,
  foldExtractor,
  readRowsCache,
  trainFoldExtractor,
  tuningFolds,
  writeRowsCache,
  type AuthorTablePaper,
  type RowsCache,
} from '../src/services/krt/extract/learned/inclusion-training.ts';
import type { ManyResult } from '../src/services/krt/extract/index.ts';
import { RridKnowledgeBase, cleanResourceName, reliability, suggestRrids, type Reliability } from '../src/services/krt/rrid/index.ts';
import { fillProposals, type FillProposal } from '../src/services/krt/rrid/fill-proposals.ts';
import {
  candidateLabels,
  corpusContribution,
  identifierComparisonKey,
  identifierKeys,
  withoutPapers,
} from '../src/services/krt/extract/learned/fill-training.ts';
import {
  fitInclusion,
  inclusionLabels,
  inclusionProbabilities,
  servedRows,
  type InclusionRow,
} from '../src/services/krt/extract/learned/inclusion.ts';
import {
  writeFills,
  chooseFillThresholds,
  fillClass,
  passesThreshold,
  FILL_MIN_FILLS,
  FILL_PRECISION,
  CANDIDATE_FLOOR,
  CANDIDATES_PER_KIND,
  calibratedFillProbability,
  fitCalibratedFillModel,
  type FillThresholds,
} from '../src/services/krt/rrid/fill-model.ts';

import { missedIdentifierCauses, servedErrorLines, wrongIdentifierCauses, type ErrorPaper } from './_krt-cv-errors.ts';
import { attestedIdentifiers, ceilingFormLines, identifierParts } from './_krt-cv-ceiling.ts';

type CvPaper = AuthorTablePaper;

/** RRIDs and catalog numbers of a table, as comparison keys (of the rows of the given types only, when given). */
function identifiersOf(rows: readonly KrtRow[], types?: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const row of rows) if (!types || types.has(row['RESOURCE TYPE'])) for (const p of identifierParts(row)) out.add(p.key);
  return out;
}

export interface CvResult {
  papers: number;
  lines: string[];
  /** Each scored paper's text-built table (before fills) and the authors' table, for a closer look. */
  tables: { paper: string; krtLayout: boolean; predicted: KrtRow[]; confidence: number[]; gold: KrtRow[] }[];
  /** Each scored paper's rows as the row-inclusion model sees them (rowInclusionLines). */
  inclusion: CvInclusionPaper[];
}

export interface CvOptions {
  heldOut: boolean;
  /** Fill identifiers from the knowledge base (the production step); false measures the extractor alone. */
  fill: boolean;
  log?: (line: string) => void;
  /** A JSON file of every fold's text-built tables: read when it exists (the extractor is not trained again), else written. */
  rowsCache?: string;
  /** A JSON file the fill proposals and name-only queries are written to, for a closer look. */
  dump?: string;
}

/**
 * Name-only right first by the kind of RRID asked about (its prefix: SCR software, CVCL cell lines, AB antibodies, …):
 * papers agree on a tool's or a cell line's RRID and disagree on an antibody's, so the share of each kind among the
 * queries moves the overall figure.
 */
function nameOnlyByKind(answerable: readonly { paper: string; rrid: string; answered: boolean; right: boolean }[]): string[] {
  const byKind = new Map<string, Hits>();
  for (const s of answerable) {
    const kind = s.rrid.replace(/[_:].*$/, '');
    byKind.set(kind, [...(byKind.get(kind) ?? []), { paper: s.paper, hit: s.answered && s.right }]);
  }
  return [
    `  right first by kind of RRID: ${[...byKind]
      .sort((a, b) => b[1].length - a[1].length)
      .map(([kind, hits]) => `${kind} ${hits.filter((h) => h.hit).length} of ${hits.length} ${formatEstimate(pooledEstimate(hits))}`)
      .join('; ')}`,
  ];
}

/** A test paper: its identifiers, the text-built table and what the base proposes for its empty cells. */
interface TestedPaper {
  paper: string;
  group: number;
  scored: boolean;
  gold: Set<string>;
  ceiling: Set<string>;
  /** The authors' identifiers the fold's knowledge base attests as identifiers (attestedIdentifiers). */
  attested: Set<string>;
  predicted: KrtRow[];
  confidence: number[];
  features: (readonly string[])[];
  /** The fills: the first proposal of each kind per row. */
  proposals: FillProposal[];
  /** Per proposal, the other identifiers the fold's base links with it (linkedIdentifiers). */
  linked: string[][];
  /** The candidates served (CANDIDATES_PER_KIND per kind, the fills among them) and their labels (fill-training.ts). */
  candidates: FillProposal[];
  candidateLabels: (boolean | null)[];
}

type Hits = { paper: string; hit: boolean }[];
/** Which proposals are written into their cells (the fill rule). */
type FillRule = (t: TestedPaper, proposal: FillProposal) => boolean;
/** The scores of the tables with some fills written. */
interface AtThreshold {
  idRecall: Hits;
  idPrecision: Hits;
  idPrecisionListedKinds: Hits;
  fillPrecision: Hits;
  ceiling: Hits;
  attested: Hits;
  rowCounts: Counts[];
}

/**
 * Fills served by class (fill-model.ts fillClass): each scored group's thresholds are chosen on the other groups'
 * proposals, scored by models that did not see their papers (an inner cross-validation over those groups), then
 * applied to the group's probabilities (its model fitted on all the other groups).
 */
function perClassFills(
  tested: readonly TestedPaper[],
  probabilities: ReadonlyMap<FillProposal, number>,
  label: (t: TestedPaper, proposal: FillProposal) => boolean,
  atThreshold: (keep: (t: TestedPaper, proposal: FillProposal) => boolean) => AtThreshold,
  heldOut: boolean,
): { lines: string[]; keep: FillRule } {
  const thresholds = new Map<number, FillThresholds>();
  for (const group of new Set(tested.filter((t) => t.scored).map((t) => t.group))) {
    const training = tested.filter((t) => t.group !== group && (!heldOut || !t.scored));
    const inner: { proposal: FillProposal; probability: number; right: boolean }[] = [];
    for (const h of new Set(training.map((t) => t.group))) {
      const rest = training.filter((t) => t.group !== h);
      const model = fitCalibratedFillModel(
        [...new Set(rest.map((t) => t.group))].map((g) => candidateExamples(rest.filter((t) => t.group === g))),
      );
      for (const t of training)
        if (t.group === h)
          for (const proposal of t.proposals)
            inner.push({ proposal, probability: calibratedFillProbability(model, proposal.features), right: label(t, proposal) });
    }
    thresholds.set(group, chooseFillThresholds(inner));
  }
  const keep = (t: TestedPaper, proposal: FillProposal) =>
    passesThreshold(thresholds.get(t.group) ?? {}, proposal, probabilities.get(proposal) ?? 0);
  const served = atThreshold(keep);
  const none = atThreshold(() => false);
  const est = (xs: Hits) => formatEstimate(pooledEstimate(xs));
  const share = (xs: Hits) => xs.filter((x) => x.hit).length / Math.max(1, xs.length);
  const lines = [
    `fills by class (threshold per kind and resource type for precision ${FILL_PRECISION} over at least ${FILL_MIN_FILLS} fills, chosen on the other folds by an inner cross-validation):`,
  ];
  for (const [group, t] of thresholds)
    lines.push(
      `  thresholds for group ${group + 1}: ${
        Object.keys(t).length
          ? Object.entries(t)
              .map(([c, from]) => `${c} from ${from.toFixed(3)}`)
              .join(', ')
          : 'none (no class reached the precision)'
      }`,
    );
  const byClass = new Map<string, [number, number]>();
  for (const t of tested)
    if (t.scored)
      for (const proposal of t.proposals)
        if (keep(t, proposal)) {
          const c = byClass.get(fillClass(proposal)) ?? [0, 0];
          c[0] += label(t, proposal) ? 1 : 0;
          c[1]++;
          byClass.set(fillClass(proposal), c);
        }
  lines.push(
    `  fills served: ${served.fillPrecision.length}, precision ${est(served.fillPrecision)}` +
      (byClass.size ? ` (${[...byClass].map(([c, [right, n]]) => `${c} ${right} of ${n}`).join(', ')})` : ''),
    `  identifier recall ${est(served.idRecall)} (without fills ${est(none.idRecall)}), precision ${est(served.idPrecision)} (without ${est(none.idPrecision)})`,
    `  recall / ceiling ${(share(served.idRecall) / Math.max(1e-9, share(served.ceiling))).toFixed(3)} (without fills ${(share(none.idRecall) / Math.max(1e-9, share(none.ceiling))).toFixed(3)})`,
  );
  return { lines, keep };
}

/**
 * Why proposals are right or wrong, by class: right; the authors wrote another identifier the base links with the
 * proposed one (their catalog number where the fill gave the RRID: equally valid, still counted wrong); the authors'
 * row carries no RRID or catalog number (a URL, a version, "N/A"); it carries a different one; or the row is not in
 * the authors' table.
 */
function fillErrorAnalysis(
  scored: readonly TestedPaper[],
  papers: readonly CvPaper[],
  label: (t: TestedPaper, proposal: FillProposal) => boolean,
): string[] {
  const columns = ['right', 'same resource', 'no identifier', 'different', 'row not listed'] as const;
  const counts = new Map<string, { hits: Hits; written: Hits; n: Record<(typeof columns)[number], number> }>();
  for (const t of scored) {
    const gold = papers.find((p) => p.doi === t.paper)!.gold;
    const matchOf = new Map(matchRows(t.predicted, gold).map((m) => [m.predicted, m.gold]));
    t.proposals.forEach((proposal, i) => {
      const c = fillClass(proposal);
      const entry = counts.get(c) ?? {
        hits: [],
        written: [],
        n: { right: 0, 'same resource': 0, 'no identifier': 0, different: 0, 'row not listed': 0 },
      };
      const right = label(t, proposal);
      const g = matchOf.get(proposal.row);
      const goldIds = g === undefined ? new Set<string>() : identifiersOf([gold[g]]);
      const why: (typeof columns)[number] = right
        ? 'right'
        : g === undefined
          ? 'row not listed'
          : t.linked[i].some((id) => goldIds.has(id))
            ? 'same resource'
            : goldIds.size === 0
              ? 'no identifier'
              : 'different';
      entry.n[why]++;
      entry.hits.push({ paper: t.paper, hit: right });
      if (why !== 'row not listed' && why !== 'no identifier') entry.written.push({ paper: t.paper, hit: right });
      counts.set(c, entry);
    });
  }
  const lines = [
    `proposals by class (out of fold): n, ${columns.join(' / ')}; precision; precision where the authors' row carries an identifier`,
  ];
  for (const [c, e] of [...counts].sort((a, b) => b[1].hits.length - a[1].hits.length))
    lines.push(
      `  ${c.padEnd(18)} ${String(e.hits.length).padStart(5)}  ${columns.map((k) => String(e.n[k]).padStart(4)).join(' ')}  ${formatEstimate(pooledEstimate(e.hits))}  ${e.written.length ? formatEstimate(pooledEstimate(e.written)) : '-'} (${e.written.length})`,
    );
  return lines;
}

/**
 * The identifiers that papers write together with a proposed one (an RRID's catalog numbers, a catalog number's
 * RRIDs), as comparison keys: another, equally valid identifier of the same resource.
 */
function linkedIdentifiers(kb: RridKnowledgeBase, proposal: FillProposal): string[] {
  const entries =
    proposal.kind === 'rrid' ? [kb.entryByRrid(proposal.value)].filter((e) => e !== undefined) : kb.entriesWithCatalog(proposal.value);
  const out = new Set<string>();
  for (const e of entries) {
    if (e.rrid) out.add(identifierComparisonKey(e.rrid));
    for (const c of e.catalogs.keys()) out.add(identifierComparisonKey(c));
  }
  out.delete(identifierComparisonKey(proposal.value));
  return [...out];
}

/** Every paper's contribution to the knowledge base and its text tokens (for the ceiling), as the importer reads it. */
interface Corpus {
  papers: CvPaper[];
  contributions: Map<string, { rows: KrtRow[]; provider: string; attested: string[] }>;
  tokensOf: Map<string, string[]>;
}

function readCorpus(files: readonly string[], extracted: readonly ManyResult[]): Corpus {
  const papers: CvPaper[] = [];
  const contributions: Corpus['contributions'] = new Map();
  const tokensOf = new Map<string, string[]>();
  files.forEach((file, i) => {
    const r = extracted[i];
    if (!r.ok) return;
    const xml = fs.readFileSync(file, 'utf8');
    const full = textOf(parseXml(xml));
    const doi = r.extraction.metadata.doi;
    const contribution = corpusContribution(r, full);
    if (contribution) contributions.set(doi, contribution);
    tokensOf.set(doi, full.split(/[\s,;()[\]]+/));
    const paper = authorTablePaper(xml, file, doi);
    if (paper) papers.push(paper);
  });
  return { papers, contributions, tokensOf };
}

/** Which papers write each test identifier as a text token (for the ceiling). */
function identifierWriters(papers: readonly CvPaper[], tokensOf: ReadonlyMap<string, string[]>): Map<string, Set<string>> {
  const wanted = new Map<string, Set<string>>();
  for (const p of papers) for (const key of identifiersOf(p.gold)) wanted.set(key, new Set());
  for (const [doi, tokens] of tokensOf)
    for (const token of tokens) {
      const key = identifierComparisonKey(token);
      wanted.get(key)?.add(doi);
    }
  return wanted;
}

interface NameOnlyQuery {
  paper: string;
  name: string;
  type: string;
  rrid: string;
  answerable: boolean;
  answered: boolean;
  right: boolean;
  first: string;
  anyConfidence: number;
  anyRight: boolean;
  /** The same RRID asked by its name and the authors' resource type (the contract's optional resource_type). */
  typed: { answered: boolean; right: boolean; first: string };
}

/** Every RRID of a test paper's author table asked by its resource name alone, and by its name and type. */
function nameOnlyQueries(kb: RridKnowledgeBase, p: CvPaper): NameOnlyQuery[] {
  const out: NameOnlyQuery[] = [];
  const asked = new Set<string>();
  for (const row of p.gold)
    for (const part of parseIdentifierText(row.IDENTIFIER))
      if (part.kind === 'rrid' && !asked.has(part.value)) {
        asked.add(part.value);
        const query = { resourceName: cleanResourceName(row['RESOURCE NAME']) };
        const first = suggestRrids(kb, query, { limit: 5 })[0];
        const any = suggestRrids(kb, query, { limit: 1, minConfidence: 0 })[0];
        const typed = suggestRrids(kb, { ...query, resourceType: row['RESOURCE TYPE'] }, { limit: 5 })[0];
        out.push({
          paper: p.doi,
          name: query.resourceName,
          type: row['RESOURCE TYPE'],
          rrid: part.value,
          first: any?.suggested_rrid ?? '',
          answerable: kb.hasRrid(part.value),
          answered: first !== undefined,
          right: first?.suggested_rrid === `RRID:${part.value}`,
          anyConfidence: any?.confidence_score ?? -1,
          anyRight: any?.suggested_rrid === `RRID:${part.value}`,
          typed: {
            answered: typed !== undefined,
            right: typed?.suggested_rrid === `RRID:${part.value}`,
            first: typed?.suggested_rrid ?? '',
          },
        });
      }
  return out;
}

/** What the fold runs share: the papers, the base, the cache and who writes which identifier. */
interface FoldContext {
  papers: readonly CvPaper[];
  heldOut: ReadonlySet<string>;
  kb: RridKnowledgeBase;
  cache: RowsCache;
  wanted: ReadonlyMap<string, Set<string>>;
  options: CvOptions;
  log: (line: string) => void;
}

/**
 * One run: the fold's papers out of the base (and the held-out papers, unless they are the ones scored), the base
 * calibrated, the fold's extractor, and each test paper's table, proposals and (when scored) name-only queries.
 */
function runFold(
  c: FoldContext,
  k: number,
  test: readonly CvPaper[],
  scored: boolean,
  tested: TestedPaper[],
  suggestions: NameOnlyQuery[],
): void {
  const { kb, options } = c;
  const started = performance.now();
  const out = new Set([...test.map((p) => p.doi), ...(scored && options.heldOut ? [] : c.heldOut)]);
  withoutPapers(kb, out, () => {
    const extractFold = foldExtractor(c.cache, k, () => trainFoldExtractor(c.papers, out));
    for (const p of test) {
      const extracted = extractFold(p);
      const predicted = extracted.map((r) => r.row);
      const gold = identifiersOf(p.gold);
      const ceiling = new Set([...gold].filter((id) => [...(c.wanted.get(id) ?? [])].some((doi) => !out.has(doi))));
      const candidates = options.fill
        ? fillProposals(
            kb,
            predicted,
            extracted.map((r) => r.confidence),
            CANDIDATES_PER_KIND,
          )
        : [];
      const proposals = candidates.filter((proposal) => proposal.rank === 0);
      tested.push({
        paper: p.doi,
        group: k,
        scored,
        gold,
        ceiling,
        attested: attestedIdentifiers(kb, p.gold),
        predicted,
        confidence: extracted.map((r) => r.confidence),
        features: extracted.map((r) => r.features),
        proposals,
        linked: proposals.map((proposal) => linkedIdentifiers(kb, proposal)),
        candidates,
        candidateLabels: candidateLabels(predicted, p.gold, candidates),
      });
      if (scored) suggestions.push(...nameOnlyQueries(kb, p));
    }
  });
  c.log(`  ${scored ? 'fold' : 'training fold'} ${k + 1}: ${test.length} papers, ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** The fill model's examples: the labelled candidates of these papers (fill-training.ts candidateLabel). */
function candidateExamples(papers: readonly TestedPaper[]): { features: readonly string[]; label: boolean }[] {
  return papers.flatMap((t) =>
    t.candidates.flatMap((candidate, i) => {
      const label = t.candidateLabels[i];
      return label === null ? [] : [{ features: candidate.features, label }];
    }),
  );
}

/**
 * The fill model of each scored group, fitted as the shipped one is (candidateExamples) on the other groups' papers
 * only, so every probability of a candidate (and of a fill) is out of sample.
 */
function fillProbabilities(tested: readonly TestedPaper[], options: CvOptions): Map<FillProposal, number> {
  const probabilities = new Map<FillProposal, number>();
  if (options.fill)
    for (const group of new Set(tested.filter((t) => t.scored).map((t) => t.group))) {
      const training = tested.filter((t) => t.group !== group && (!options.heldOut || !t.scored));
      const fillModel = fitCalibratedFillModel(
        [...new Set(training.map((t) => t.group))].map((h) => candidateExamples(training.filter((t) => t.group === h))),
      );
      for (const t of tested)
        if (t.group === group)
          for (const candidate of t.candidates) probabilities.set(candidate, calibratedFillProbability(fillModel, candidate.features));
    }
  return probabilities;
}

/** The scored tables with the fills from `from` (Infinity: none, or a rule per proposal), scored. */
function tablesAtThreshold(
  scoredPapers: readonly TestedPaper[],
  goldOf: (doi: string) => CvPaper,
  probabilities: ReadonlyMap<FillProposal, number>,
  label: (t: TestedPaper, proposal: FillProposal) => boolean,
): (from: number | ((t: TestedPaper, proposal: FillProposal) => boolean)) => AtThreshold {
  return (from) => {
    const idRecall: { paper: string; hit: boolean }[] = [];
    const idPrecision: { paper: string; hit: boolean }[] = [];
    // Only the rows of the kinds the authors' table lists: a table of antibodies alone is no key to a cell line's number.
    const idPrecisionListedKinds: { paper: string; hit: boolean }[] = [];
    const fillPrecision: { paper: string; hit: boolean }[] = [];
    const ceiling: { paper: string; hit: boolean }[] = [];
    const attested: { paper: string; hit: boolean }[] = [];
    const rowCounts: Counts[] = [];
    for (const t of scoredPapers) {
      const kept = t.proposals.filter((proposal) =>
        typeof from === 'number' ? (probabilities.get(proposal) ?? 0) >= from : from(t, proposal),
      );
      const table = writeFills(t.predicted, kept);
      const got = identifiersOf(table);
      for (const id of t.gold) {
        idRecall.push({ paper: t.paper, hit: got.has(id) });
        ceiling.push({ paper: t.paper, hit: t.ceiling.has(id) });
        attested.push({ paper: t.paper, hit: t.attested.has(id) });
      }
      for (const id of got) idPrecision.push({ paper: t.paper, hit: t.gold.has(id) });
      const kinds = new Set(goldOf(t.paper).gold.map((row) => row['RESOURCE TYPE']));
      for (const id of identifiersOf(table, kinds)) idPrecisionListedKinds.push({ paper: t.paper, hit: t.gold.has(id) });
      for (const proposal of kept) fillPrecision.push({ paper: t.paper, hit: label(t, proposal) });
      rowCounts.push(scorePaper(t.paper, table, goldOf(t.paper).gold).resources);
    }
    return { idRecall, idPrecision, idPrecisionListedKinds, fillPrecision, ceiling, attested, rowCounts };
  };
}

/** The same queries asked with the authors' resource type beside the name (the type is a hard filter where certain). */
function nameAndTypeLines(suggestions: readonly NameOnlyQuery[]): string[] {
  const est = formatEstimate;
  const answerable = suggestions.filter((s) => s.answerable);
  const answered = suggestions.filter((s) => s.typed.answered);
  return [
    `name and type suggestions (the same ${suggestions.length} RRIDs asked by name and the authors' resource type):`,
    `  right first, of the answerable  ${est(pooledEstimate(answerable.map((s) => ({ paper: s.paper, hit: s.typed.answered && s.typed.right }))))}`,
    `  wrong first, of the answered    ${est(pooledEstimate(answered.map((s) => ({ paper: s.paper, hit: !s.typed.right }))))}`,
    `  answered, of all                ${est(pooledEstimate(suggestions.map((s) => ({ paper: s.paper, hit: s.typed.answered }))))}`,
  ];
}

/** The identifiers, name-only suggestions and rows of the tables served, and the name-only thresholds. */
function servedTableLines(
  papers: readonly CvPaper[],
  scoredPapers: readonly TestedPaper[],
  served: AtThreshold,
  suggestions: readonly NameOnlyQuery[],
): string[] {
  const rows: Counts[] = [];
  const krtRows: Counts[] = [];
  for (const t of scoredPapers) {
    const score = served.rowCounts[scoredPapers.indexOf(t)];
    rows.push(score);
    if (papers.find((p) => p.doi === t.paper)!.krtLayout) krtRows.push(score);
  }
  const { idRecall, idPrecision, ceiling, attested } = served;
  const est = formatEstimate;
  const recall = pooledEstimate(idRecall);
  const ceil = pooledEstimate(ceiling);
  // The same on the papers whose authors wrote a whole key resources table (STAR/eLife): a table of one kind of
  // resource ("Antibodies used") leaves out identifiers the text rightly gives for the others.
  const krtPaper = new Set(papers.filter((p) => p.krtLayout).map((p) => p.doi));
  const onKrt = <T extends { paper: string }>(items: T[]) => items.filter((i) => krtPaper.has(i.paper));
  const krtRecall = pooledEstimate(onKrt(idRecall));
  const krtCeiling = pooledEstimate(onKrt(ceiling));
  const answerable = suggestions.filter((s) => s.answerable);
  const answered = suggestions.filter((s) => s.answered);
  const lines = [
    `identifiers (RRIDs and catalog numbers; ${idRecall.length} in the authors' tables, ${idPrecision.length} in the text-built tables), pooled:`,
    `  recall    ${est(recall)}`,
    `  precision ${est(pooledEstimate(idPrecision))}`,
    `  precision on the rows of the kinds the authors' table lists (${served.idPrecisionListedKinds.length} identifiers) ${est(pooledEstimate(served.idPrecisionListedKinds))}`,
    `  ceiling (written anywhere in the training papers) ${est(ceil)}; recall / ceiling ${(recall.value / ceil.value).toFixed(3)}`,
    `  knowledge-base ceiling (attested by the training folds' knowledge base as an RRID or a catalog number) ${est(pooledEstimate(attested))}; recall / that ceiling ${est(recallOfCeiling(idRecall, attested))}`,
    `  STAR/eLife tables only (${onKrt(idRecall).length} in the authors' tables, ${onKrt(idPrecision).length} in the text-built ones): recall ${est(krtRecall)}, precision ${est(pooledEstimate(onKrt(idPrecision)))}, ceiling ${est(krtCeiling)}; recall / ceiling ${(krtRecall.value / krtCeiling.value).toFixed(3)}`,
    ...ceilingFormLines(
      scoredPapers.map((t) => ({
        paper: t.paper,
        gold: papers.find((p) => p.doi === t.paper)!.gold,
        ceilingIds: t.ceiling,
        attestedIds: t.attested,
      })),
    ),
    `name-only suggestions (${suggestions.length} RRIDs of the authors' tables asked by name; ${answerable.length} answerable):`,
    `  right first, of the answerable  ${est(pooledEstimate(answerable.map((s) => ({ paper: s.paper, hit: s.answered && s.right }))))}`,
    `  wrong first, of the answered    ${est(pooledEstimate(answered.map((s) => ({ paper: s.paper, hit: !s.right }))))}`,
    `  answered, of all                ${est(pooledEstimate(suggestions.map((s) => ({ paper: s.paper, hit: s.answered }))))}`,
    ...nameOnlyByKind(answerable),
    ...nameAndTypeLines(suggestions),
    `rows against the authors' rows (macro over papers):`,
    `  every author table:  precision ${est(macroEstimate(rows, 'precision'))}  recall ${est(macroEstimate(rows, 'recall'))}`,
    `  STAR/eLife tables:   precision ${est(macroEstimate(krtRows, 'precision'))}  recall ${est(macroEstimate(krtRows, 'recall'))}`,
  ];
  // Point figures at other thresholds (no intervals): how the thresholds were chosen on the tuning folds.
  lines.push('thresholds (point figures): name-only answer from / right first of answerable / wrong first of answered / answered');
  for (const t of [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95]) {
    const shown = suggestions.filter((s) => s.anyConfidence >= t);
    const rightAnswerable = answerable.filter((s) => s.anyConfidence >= t && s.anyRight).length / Math.max(1, answerable.length);
    const wrong = shown.filter((s) => !s.anyRight).length / Math.max(1, shown.length);
    lines.push(
      `  ${t.toFixed(2)}  ${rightAnswerable.toFixed(3)}  ${wrong.toFixed(3)}  ${(shown.length / Math.max(1, suggestions.length)).toFixed(3)}`,
    );
  }
  return lines;
}

/** A share and the interval of a statistic of papers' items, resampled by paper (95% percentile bootstrap). */
function bootstrapByPaper<T extends { paper: string }>(
  items: readonly T[],
  statistic: (sample: T[]) => number,
  reps = 2000,
  seed = 15,
): Estimate {
  const byPaper = new Map<string, T[]>();
  for (const item of items) byPaper.set(item.paper, [...(byPaper.get(item.paper) ?? []), item]);
  const clusters = [...byPaper.values()];
  const random = new Random(seed);
  const values: number[] = [];
  for (let r = 0; r < reps && clusters.length; r++) {
    const sample: T[] = [];
    for (let i = 0; i < clusters.length; i++) sample.push(...clusters[random.int(0, clusters.length - 1)]);
    const v = statistic(sample);
    if (!Number.isNaN(v)) values.push(v);
  }
  values.sort((a, b) => a - b);
  const at = (q: number) => (values.length ? values[Math.min(values.length - 1, Math.floor(q * values.length))] : Number.NaN);
  return { value: statistic([...items]), low: at(0.025), high: at(0.975), papers: clusters.length };
}

/**
 * The candidates served under each row with an empty identifier cell, out of fold: the fill model's calibration on
 * the candidates it is fitted for (rows matching an authors' row that gives an identifier of the candidate's kind:
 * reliability table, expected calibration error and Brier score with intervals over papers), and what a user gets:
 * for the rows whose cell is empty (no RRID, no catalog number) and that match an authors' row giving an RRID or a
 * catalog number, how often the authors' identifier is the first candidate, is among them, and how often there is any.
 */
function candidateLines(
  scoredPapers: readonly TestedPaper[],
  goldOf: (doi: string) => CvPaper,
  probabilities: ReadonlyMap<FillProposal, number>,
): string[] {
  const est = formatEstimate;
  const labelled = scoredPapers.flatMap((t) =>
    t.candidates.flatMap((candidate, i) => {
      const right = t.candidateLabels[i];
      return right === null ? [] : [{ paper: t.paper, p: probabilities.get(candidate) ?? 0, right, rank: candidate.rank }];
    }),
  );
  const served = labelled.filter((c) => c.p >= CANDIDATE_FLOOR);
  const ece = (xs: { p: number; right: boolean }[]) => reliability(xs).ece;
  const brier = (xs: { p: number; right: boolean }[]) => reliability(xs).brier;
  const lines = [
    `identifier candidates (${CANDIDATES_PER_KIND} per kind at most, listed from ${CANDIDATE_FLOOR}); the fill model fitted on the other folds, scored on the candidates whose row matches an authors' row giving an identifier of their kind:`,
  ];
  for (const [title, xs] of [
    ['every such candidate', labelled],
    [`those listed (from ${CANDIDATE_FLOOR})`, served],
  ] as const) {
    const r = reliability(xs);
    lines.push(
      `  ${title}: ${xs.length} (${xs.filter((x) => x.right).length} right, ${xs.filter((x) => x.rank > 0).length} second of their kind), expected calibration error ${est(bootstrapByPaper(xs, ece))}, Brier ${est(bootstrapByPaper(xs, brier))}`,
    );
    for (const row of r.rows)
      if (row.n)
        lines.push(
          `    [${row.from.toFixed(1)}, ${row.to.toFixed(1)})  ${String(row.n).padStart(5)}   predicted ${row.predicted.toFixed(3)}   observed ${row.observed.toFixed(3)}`,
        );
  }
  lines.push(
    `  right ones below the floor: ${labelled.filter((x) => x.right && x.p < CANDIDATE_FLOOR).length} of ${labelled.filter((x) => x.right).length}`,
  );
  const first: Hits = [];
  const among: Hits = [];
  const any: Hits = [];
  const firstOfShown: Hits = [];
  for (const t of scoredPapers) {
    const gold = goldOf(t.paper).gold;
    for (const m of matchRows(t.predicted, gold)) {
      const g = gold[m.gold];
      const wanted = new Set([...identifierKeys(g, 'rrid'), ...identifierKeys(g, 'catalog')]);
      const own = t.predicted[m.predicted];
      if (wanted.size === 0 || identifierKeys(own, 'rrid').size + identifierKeys(own, 'catalog').size > 0) continue;
      const listed = t.candidates
        .filter((c) => c.row === m.predicted && (probabilities.get(c) ?? 0) >= CANDIDATE_FLOOR)
        .sort((a, b) => (probabilities.get(b) ?? 0) - (probabilities.get(a) ?? 0) || (a.kind === b.kind ? 0 : a.kind === 'rrid' ? -1 : 1));
      const hits = listed.map((c) => wanted.has(identifierComparisonKey(c.value)));
      first.push({ paper: t.paper, hit: hits[0] === true });
      among.push({ paper: t.paper, hit: hits.includes(true) });
      any.push({ paper: t.paper, hit: listed.length > 0 });
      if (listed.length) firstOfShown.push({ paper: t.paper, hit: hits[0] });
    }
  }
  lines.push(
    `  rows with an empty identifier cell matching an authors' row that gives an RRID or catalog number: ${first.length}`,
    `    the authors' identifier is the first candidate ${est(pooledEstimate(first))}, among the candidates ${est(pooledEstimate(among))}; any candidate ${est(pooledEstimate(any))}; first right where there is one ${est(pooledEstimate(firstOfShown))}`,
  );
  return lines;
}

/** The fills: by threshold, by class, why they are right or wrong, and the fill model's reliability (with fills only). */
function fillLines(
  lines: string[],
  f: {
    tested: readonly TestedPaper[];
    scoredPapers: readonly TestedPaper[];
    papers: readonly CvPaper[];
    probabilities: ReadonlyMap<FillProposal, number>;
    label: (t: TestedPaper, proposal: FillProposal) => boolean;
    atThreshold: (from: number | ((t: TestedPaper, proposal: FillProposal) => boolean)) => AtThreshold;
    served: AtThreshold;
    /** The fill rule's lines (perClassFills). */
    ruleLines: string[];
  },
): void {
  const { scoredPapers, probabilities, label, atThreshold } = f;
  const est = formatEstimate;
  const fills = scoredPapers.flatMap((t) =>
    t.proposals.map((proposal) => ({ p: probabilities.get(proposal) ?? 0, right: label(t, proposal) })),
  );
  const fillsServed = pooledEstimate(f.served.fillPrecision);
  lines.splice(
    4,
    0,
    `  the fills alone (each class from its threshold, below): ${f.served.fillPrecision.length} identifiers, precision ${est(fillsServed)}`,
  );
  const none = atThreshold(Infinity);
  lines.push(
    `identifiers from the text alone: recall ${est(pooledEstimate(none.idRecall))}, precision ${est(pooledEstimate(none.idPrecision))}`,
  );
  lines.push('thresholds (point figures): fill from / fills / fill precision / identifier recall / precision / recall of ceiling');
  for (const t of [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]) {
    const at = atThreshold(t);
    const share = (xs: { hit: boolean }[]) => xs.filter((x) => x.hit).length / Math.max(1, xs.length);
    lines.push(
      `  ${t.toFixed(2)}  ${String(at.fillPrecision.length).padStart(5)}  ${share(at.fillPrecision).toFixed(3)}  ${share(at.idRecall).toFixed(3)}  ${share(at.idPrecision).toFixed(3)}  ${(share(at.idRecall) / Math.max(1e-9, share(at.ceiling))).toFixed(3)}`,
    );
  }
  // The same fills against none, paired by paper, at the thresholds a single rule for every class could take.
  for (const t of [0.5, 0.7, 0.9]) lines.push(...pairedFillDifference(atThreshold(t), none).map((l) => `${l} (fills from ${t})`));
  lines.push(...f.ruleLines);
  lines.push(...fillErrorAnalysis(scoredPapers, f.papers, label));
  // The same proposals on the rows that are in the authors' table (matched by name): how right the base is about
  // a resource the table lists, apart from whether the row belongs in the table.
  const onRows = scoredPapers.flatMap((t) => {
    const matched = new Set(matchRows(t.predicted, f.papers.find((p) => p.doi === t.paper)!.gold).map((m) => m.predicted));
    return t.proposals
      .filter((proposal) => matched.has(proposal.row))
      .map((proposal) => ({ p: probabilities.get(proposal) ?? 0, right: label(t, proposal) }));
  });
  lines.push(
    `proposals on rows of the authors' tables: ${onRows.length}, right ${onRows.filter((x) => x.right).length}; from 0.3: ${onRows.filter((x) => x.p >= 0.3).length}, right ${onRows.filter((x) => x.p >= 0.3 && x.right).length}`,
  );
  const r: Reliability = reliability(fills);
  lines.push(
    `proposed identifiers: ${fills.length} (${fills.filter((x) => x.right).length} in the authors' tables); the fill model's probability (fitted on the other folds) against "the authors' table lists it", which it does not claim: ECE ${r.ece.toFixed(3)}, Brier ${r.brier.toFixed(3)}`,
  );
  for (const row of r.rows)
    if (row.n)
      lines.push(
        `    [${row.from.toFixed(1)}, ${row.to.toFixed(1)})  ${String(row.n).padStart(5)}   predicted ${row.predicted.toFixed(3)}   observed ${row.observed.toFixed(3)}`,
      );
}

/** Every run paper's table as the row-inclusion model sees it, as served (with the fills of the rule, when one). */
function inclusionPapers(tested: readonly TestedPaper[], papers: readonly CvPaper[], rule: FillRule | null): CvInclusionPaper[] {
  return tested.map((t) => {
    const gold = papers.find((p) => p.doi === t.paper)!.gold;
    const kept = rule ? t.proposals.filter((proposal) => rule(t, proposal)) : [];
    return {
      paper: t.paper,
      group: t.group,
      scored: t.scored,
      krtLayout: papers.find((p) => p.doi === t.paper)!.krtLayout,
      rows: t.predicted.map((row, i) => ({ row, features: t.features[i], confidence: t.confidence[i] })),
      served: writeFills(t.predicted, kept),
      unfilled: t.predicted,
      gold,
      goldIds: [...t.gold],
      ceilingIds: [...t.ceiling],
      attestedIds: [...t.attested],
    };
  });
}

function writeDump(
  file: string,
  tested: readonly TestedPaper[],
  papers: readonly CvPaper[],
  probabilities: ReadonlyMap<FillProposal, number>,
  suggestions: readonly NameOnlyQuery[],
  errors: readonly ErrorPaper[],
): void {
  const inTable = new Map(errors.map((e) => [e.paper, e.inTable]));
  fs.writeFileSync(
    file,
    JSON.stringify({
      tested: tested.map((t) => ({
        inTable: inTable.get(t.paper) ?? null,
        wrong: errors.find((e) => e.paper === t.paper) ? wrongIdentifierCauses(errors.find((e) => e.paper === t.paper)!) : [],
        missed: errors.find((e) => e.paper === t.paper) ? missedIdentifierCauses(errors.find((e) => e.paper === t.paper)!) : [],
        ...t,
        gold: [...t.gold],
        ceiling: [...t.ceiling],
        attested: [...t.attested],
        goldRows: papers.find((p) => p.doi === t.paper)!.gold,
        matched: matchRows(t.predicted, papers.find((p) => p.doi === t.paper)!.gold),
        proposals: t.proposals.map((proposal) => ({
          ...proposal,
          p: probabilities.get(proposal) ?? null,
          linked: t.linked[t.proposals.indexOf(proposal)],
        })),
      })),
      suggestions,
    }),
  );
}

export function crossValidateTables(files: readonly string[], extracted: readonly ManyResult[], options: CvOptions): CvResult {
  const log = options.log ?? (() => {});
  const { papers, contributions, tokensOf } = readCorpus(files, extracted);
  const { tuning, heldOut, fold } = tuningFolds(papers);
  log(
    `${papers.length} papers with an author table (${papers.filter((p) => p.krtLayout).length} STAR/eLife); held out: ${heldOut.size}; ` +
      (options.heldOut ? 'scoring the held-out papers' : `${tuning.length} in ${CV_FOLDS} folds`),
  );
  const kb = new RridKnowledgeBase();
  for (const [doi, c] of contributions) kb.addPaper(doi, c.rows, c.provider, c.attested);
  const cache = readRowsCache(options.rowsCache);
  const context: FoldContext = { papers, heldOut, kb, cache, wanted: identifierWriters(papers, tokensOf), options, log };
  const byFold = Array.from({ length: CV_FOLDS }, (_, k) => tuning.filter((p) => fold.get(p.doi) === k));
  // With the held-out papers, the tuning folds are run too: the fill model of the held-out papers is fitted on them.
  const runs: { papers: CvPaper[]; scored: boolean }[] = options.heldOut
    ? [...byFold.map((g) => ({ papers: g, scored: false })), { papers: papers.filter((p) => heldOut.has(p.doi)), scored: true }]
    : byFold.map((g) => ({ papers: g, scored: true }));
  // Per test paper: its identifiers, the text-built table and what the base proposes for its empty cells.
  const tested: TestedPaper[] = [];
  const suggestions: NameOnlyQuery[] = [];
  for (const [k, { papers: test, scored }] of runs.entries()) if (test.length) runFold(context, k, test, scored, tested, suggestions);
  writeRowsCache(cache);

  const label = (t: TestedPaper, proposal: FillProposal) => t.gold.has(identifierComparisonKey(proposal.value));
  const probabilities = fillProbabilities(tested, options);
  const scoredPapers = tested.filter((t) => t.scored);
  const goldOf = (doi: string) => papers.find((p) => p.doi === doi)!;
  const atThreshold = tablesAtThreshold(scoredPapers, goldOf, probabilities, label);
  // The fill rule decided before measuring: a cell is filled from its class's threshold, chosen on the other folds.
  const rule = options.fill ? perClassFills(tested, probabilities, label, atThreshold, options.heldOut) : null;
  const served = atThreshold(rule ? rule.keep : Infinity);
  const lines = servedTableLines(papers, scoredPapers, served, suggestions);
  if (rule) {
    fillLines(lines, { tested, scoredPapers, papers, probabilities, label, atThreshold, served, ruleLines: rule.lines });
    lines.push(...candidateLines(scoredPapers, goldOf, probabilities));
  }
  // The row-inclusion model, on every run paper's table as served (with the rule's fills).
  const inclusion = inclusionPapers(tested, papers, rule?.keep ?? null);
  const fitted = fitInclusionOutOfFold(inclusion, options.heldOut);
  lines.push(...rowInclusionLines(inclusion, fitted));
  const errors = errorPapers(inclusion, fitted, scoredPapers);
  lines.push(...servedErrorLines(errors));
  if (options.dump) writeDump(options.dump, tested, papers, probabilities, suggestions, errors);
  return {
    papers: papers.length,
    lines,
    inclusion,
    tables: scoredPapers.map((t) => {
      const paper = goldOf(t.paper);
      return { paper: t.paper, krtLayout: paper.krtLayout, predicted: t.predicted, confidence: t.confidence, gold: paper.gold };
    }),
  };
}

/**
 * Identifier recall ÷ ceiling, pooled over papers (both count the authors' identifiers), with a 95% percentile-
 * bootstrap interval over papers (the resampling of pooledEstimate, each paper's two counts drawn together).
 */
function recallOfCeiling(recall: Hits, ceiling: Hits, reps = 2000, seed = 15): Estimate {
  const byPaper = new Map<string, [number, number]>();
  for (const r of recall) {
    const c = byPaper.get(r.paper) ?? [0, 0];
    c[0] += r.hit ? 1 : 0;
    byPaper.set(r.paper, c);
  }
  for (const r of ceiling) {
    const c = byPaper.get(r.paper) ?? [0, 0];
    c[1] += r.hit ? 1 : 0;
    byPaper.set(r.paper, c);
  }
  const clusters = [...byPaper.values()];
  const ratio = (sample: readonly [number, number][]) => {
    const [a, b] = sample.reduce(([x, y], [h, c]) => [x + h, y + c], [0, 0]);
    return b ? a / b : Number.NaN;
  };
  const random = new Random(seed);
  const values: number[] = [];
  for (let k = 0; k < reps && clusters.length; k++) {
    const v = ratio(Array.from({ length: clusters.length }, () => clusters[random.int(0, clusters.length - 1)]));
    if (!Number.isNaN(v)) values.push(v);
  }
  values.sort((a, b) => a - b);
  const q = (p: number) => (values.length ? values[Math.min(values.length - 1, Math.floor(p * values.length))] : Number.NaN);
  return { value: ratio(clusters), low: q(0.025), high: q(0.975), papers: clusters.length };
}

/** The scored papers' tables served (the inclusion model's rows, with the rule's fills), for the error analysis. */
function errorPapers(
  inclusion: readonly CvInclusionPaper[],
  fitted: OutOfFoldInclusion,
  scoredPapers: readonly TestedPaper[],
): ErrorPaper[] {
  return inclusion
    .filter((t) => t.scored)
    .map((t) => ({
      paper: t.paper,
      krtLayout: t.krtLayout,
      rows: t.served,
      inTable: servedRows(fitted.probabilities.get(t)!, fitted.thresholds.get(t.group)!),
      gold: t.gold,
      goldIds: new Set(t.goldIds),
      ceilingIds: new Set(t.ceilingIds),
      candidates: scoredPapers.find((s) => s.paper === t.paper)!.candidates,
    }));
}

/** Identifier recall and precision of the table with fills minus without, paired by paper (95% bootstrap intervals). */
function pairedFillDifference(filled: { idRecall: Hits; idPrecision: Hits }, unfilled: { idRecall: Hits; idPrecision: Hits }): string[] {
  const tagged = [
    ...filled.idRecall.map((h) => ({ ...h, recall: true, filled: true })),
    ...unfilled.idRecall.map((h) => ({ ...h, recall: true, filled: false })),
    ...filled.idPrecision.map((h) => ({ ...h, recall: false, filled: true })),
    ...unfilled.idPrecision.map((h) => ({ ...h, recall: false, filled: false })),
  ];
  type Tagged = (typeof tagged)[number];
  const share = (xs: Tagged[]) => xs.filter((x) => x.hit).length / xs.length;
  const difference = (recall: boolean) => (sample: Tagged[]) => {
    const of = (filledToo: boolean) => sample.filter((x) => x.recall === recall && x.filled === filledToo);
    return share(of(true)) - share(of(false));
  };
  return [
    `  fills minus none, paired by paper: identifier recall ${formatEstimate(bootstrapByPaper(tagged, difference(true)))}, precision ${formatEstimate(bootstrapByPaper(tagged, difference(false)))}`,
  ];
}

/** One run paper's extracted table as the row-inclusion model sees it (its features are the extractor's). */
export interface CvInclusionPaper {
  paper: string;
  group: number;
  scored: boolean;
  krtLayout: boolean;
  rows: InclusionRow[];
  /** The rows with the served fills (what is scored), and without. */
  served: KrtRow[];
  unfilled: KrtRow[];
  gold: KrtRow[];
  goldIds: string[];
  ceilingIds: string[];
  /** The authors' identifiers the fold's knowledge base attests (the knowledge-base ceiling). */
  attestedIds: string[];
}

/** Each scored paper's rows' inclusion probabilities and its group's threshold, from models that did not see it. */
interface OutOfFoldInclusion {
  probabilities: Map<CvInclusionPaper, number[]>;
  thresholds: Map<number, number>;
}

/**
 * The row-inclusion model (extract/learned/inclusion.ts), out of fold: for each scored group, fitted (with its
 * threshold) on the other groups' papers only (for the held-out papers: on the tuning folds'), labelled by the
 * benchmark's matching against their own author tables.
 */
export function fitInclusionOutOfFold(inclusion: readonly CvInclusionPaper[], heldOut: boolean): OutOfFoldInclusion {
  const probabilities = new Map<CvInclusionPaper, number[]>();
  const thresholds = new Map<number, number>();
  for (const group of new Set(inclusion.filter((t) => t.scored).map((t) => t.group))) {
    const model = fitInclusion(
      inclusion
        .filter((t) => t.group !== group && (!heldOut || !t.scored))
        .map((t) => ({ doi: t.paper, rows: t.rows, labels: inclusionLabels(t.served, t.gold), gold: t.gold.length })),
    );
    thresholds.set(group, model.threshold);
    for (const t of inclusion) if (t.group === group) probabilities.set(t, inclusionProbabilities(model.logistic, t.rows));
  }
  return { probabilities, thresholds };
}

/**
 * The row-inclusion model fitted out of fold (fitInclusionOutOfFold): rows, identifiers and the precision–recall
 * curve of the served rows, before (every extracted row) and after, with 95% intervals.
 */
export function rowInclusionLines(inclusion: readonly CvInclusionPaper[], fitted: OutOfFoldInclusion): string[] {
  const { probabilities, thresholds } = fitted;
  const scored = inclusion.filter((t) => t.scored);
  // keep(t, threshold): which of a paper's rows are served (the model's rows by default).
  const at = (
    threshold: number | null,
    keep = (t: CvInclusionPaper, from: number) => servedRows(probabilities.get(t)!, from),
    rowsOf = (t: CvInclusionPaper) => t.served,
  ) => {
    const rowCounts: Counts[] = [];
    const krtCounts: Counts[] = [];
    const idRecall: { paper: string; hit: boolean }[] = [];
    const idPrecision: { paper: string; hit: boolean }[] = [];
    const idListed: { paper: string; hit: boolean }[] = [];
    const ceiling: { paper: string; hit: boolean }[] = [];
    const attested: { paper: string; hit: boolean }[] = [];
    for (const t of scored) {
      const groupThreshold = threshold ?? thresholds.get(t.group)!;
      const kept = keep(t, groupThreshold);
      const table = rowsOf(t).filter((_, i) => kept[i]);
      const counts = scorePaper(t.paper, table, t.gold).resources;
      rowCounts.push(counts);
      if (t.krtLayout) krtCounts.push(counts);
      const gold = new Set(t.goldIds);
      const got = identifiersOf(table);
      for (const id of gold) {
        idRecall.push({ paper: t.paper, hit: got.has(id) });
        ceiling.push({ paper: t.paper, hit: t.ceilingIds.includes(id) });
        attested.push({ paper: t.paper, hit: t.attestedIds.includes(id) });
      }
      for (const id of got) idPrecision.push({ paper: t.paper, hit: gold.has(id) });
      for (const id of identifiersOf(table, new Set(t.gold.map((row) => row['RESOURCE TYPE']))))
        idListed.push({ paper: t.paper, hit: gold.has(id) });
    }
    return { rowCounts, krtCounts, idRecall, idPrecision, idListed, ceiling, attested };
  };
  const est = formatEstimate;
  const describeAt = (label: string, r: ReturnType<typeof at>) => {
    const recall = pooledEstimate(r.idRecall);
    const ceil = pooledEstimate(r.ceiling);
    return [
      `  ${label}: ${r.rowCounts.reduce((n, c) => n + c.predicted, 0)} rows`,
      `    rows, every author table: precision ${est(macroEstimate(r.rowCounts, 'precision'))}  recall ${est(macroEstimate(r.rowCounts, 'recall'))}`,
      `    rows, STAR/eLife tables:  precision ${est(macroEstimate(r.krtCounts, 'precision'))}  recall ${est(macroEstimate(r.krtCounts, 'recall'))}`,
      `    identifiers: recall ${est(recall)} (/ ceiling ${(recall.value / ceil.value).toFixed(3)}, ${est(recallOfCeiling(r.idRecall, r.ceiling))}), precision ${est(pooledEstimate(r.idPrecision))}, on the kinds the authors list ${est(pooledEstimate(r.idListed))}`,
      `    knowledge-base ceiling ${est(pooledEstimate(r.attested))}; recall / that ceiling ${est(recallOfCeiling(r.idRecall, r.attested))}`,
    ];
  };
  const every = at(0);
  const table = at(null);
  const count = (r: ReturnType<typeof at>) => r.rowCounts.reduce((n, c) => n + c.predicted, 0);
  const lines = [
    `row inclusion (extract/learned/inclusion.ts), fitted out of fold; thresholds chosen on the training folds: ${[...thresholds.values()].join(', ')}`,
    ...describeAt('every extracted row (the key resources table and its further mentions)', every),
    ...describeAt(
      `the key resources table served (the rows the model keeps; ${count(every) - count(table)} further mentions apart)`,
      table,
    ),
  ];
  if (scored.some((t) => t.served.some((row, i) => row !== t.unfilled[i]))) {
    const unfilled = at(null, undefined, (t) => t.unfilled);
    lines.push(...describeAt('the same table without the fills', unfilled), ...pairedFillDifference(table, unfilled));
  } else lines.push('  no cell of the table served is filled: the same table without the fills scores the same');
  lines.push('  precision–recall of the served rows by threshold (macro over papers, every author table):');
  for (const t of [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]) {
    const r = at(t);
    lines.push(
      `    ${t.toFixed(2)}  rows ${String(r.rowCounts.reduce((n, c) => n + c.predicted, 0)).padStart(5)}  precision ${est(macroEstimate(r.rowCounts, 'precision'))}  recall ${est(macroEstimate(r.rowCounts, 'recall'))}  identifier precision ${est(pooledEstimate(r.idPrecision))}`,
    );
  }
  // The simpler alternative: a higher threshold on the extractor's own confidence (the same best-row rule).
  lines.push("  the same by a threshold on the extractor's confidence alone:");
  for (const t of [0.4, 0.5, 0.6, 0.7]) {
    const r = at(t, (paper, from) =>
      servedRows(
        paper.rows.map((row) => row.confidence),
        from,
      ),
    );
    lines.push(
      `    ${t.toFixed(2)}  rows ${String(r.rowCounts.reduce((n, c) => n + c.predicted, 0)).padStart(5)}  precision ${est(macroEstimate(r.rowCounts, 'precision'))}  recall ${est(macroEstimate(r.rowCounts, 'recall'))}  identifier precision ${est(pooledEstimate(r.idPrecision))}`,
    );
  }
  return lines;
}
