// The proposals the fill model (rrid/fill-model.ts) is fitted on, shared by the shipped model's build
// (build-model.ts --only fill) and the benchmark (bench/_krt-cv.ts), so that both see the same proposals:
// - the knowledge base is every corpus paper's best built-in table as the importer builds it (corpusContribution);
// - the tuning papers (inclusion-training.ts: not held out, in CV_FOLDS folds) are extracted by their fold's extractor
//   with their author tables cut out, and the base proposes identifiers for their rows with the fold's papers and the
//   held-out papers taken out of it (withoutPapers), as for a paper it never saw;
// - a proposal is labelled only when its row matches (evaluation.ts matchRows) an authors' row that carries an
//   identifier of the proposal's kind: right when that row's identifiers of that kind include it (candidateLabel);
// - the logistic model is fitted on every labelled proposal, its calibration on each fold's scored by a model fitted on
//   the other folds (fill-model.ts fitCalibratedFillModel).

import type { ManyResult } from '../index.ts';
import { matchRows } from '../evaluation.ts';
import { parseIdentifierText } from '../identifier.ts';
import type { KrtRow } from '../krt-row.ts';
import { rridsWrittenIn } from '../../rrid/attestation.ts';
import { calibrate } from '../../rrid/calibration.ts';
import { CANDIDATES_PER_KIND, FILL_MODEL, fitCalibratedFillModel, type FillModelFile } from '../../rrid/fill-model.ts';
import { fillProposals, type FillProposal } from '../../rrid/fill-proposals.ts';
import { RridKnowledgeBase } from '../../rrid/knowledge-base.ts';
import { LEARNED_EXTRACTOR_MODEL } from './model.ts';
import {
  CV_FOLDS,
  CV_SEED,
  HELD_OUT_RULE,
  foldExtractor,
  readRowsCache,
  trainFoldExtractor,
  tuningFolds,
  writeRowsCache,
  type AuthorTablePaper,
} from './inclusion-training.ts';

/** Identifier as compared: upper case, no "RRID:" label, letters and digits only ("RRID:AB_2127260" = "ab2127260"). */
export function identifierComparisonKey(value: string): string {
  return value
    .replace(/^\s*RRID\s*:\s*/i, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
}

/** A row's identifiers of one kind as comparison keys (of three characters or more). */
export function identifierKeys(row: KrtRow, kind: 'rrid' | 'catalog'): Set<string> {
  const out = new Set<string>();
  for (const p of parseIdentifierText(row.IDENTIFIER, { source: row.SOURCE }))
    if (p.kind === kind) {
      const key = identifierComparisonKey(p.value);
      if (key.length >= 3) out.add(key);
    }
  return out;
}

/**
 * Whether a proposal is the identifier of its row's resource: null when the row matches no authors' row, or one that
 * gives no identifier of the proposal's kind (nothing says which is right); else whether that row gives it.
 */
export function candidateLabel(proposal: Pick<FillProposal, 'kind' | 'value'>, goldRow: KrtRow | undefined): boolean | null {
  if (!goldRow) return null;
  const keys = identifierKeys(goldRow, proposal.kind);
  return keys.size === 0 ? null : keys.has(identifierComparisonKey(proposal.value));
}

/** candidateLabel of each proposal for a table's rows, against the authors' rows (matched one-to-one by name). */
export function candidateLabels(
  predicted: readonly KrtRow[],
  gold: readonly KrtRow[],
  proposals: readonly FillProposal[],
): (boolean | null)[] {
  const matchOf = new Map(matchRows(predicted, gold).map((m) => [m.predicted, m.gold]));
  return proposals.map((p) => {
    const g = matchOf.get(p.row);
    return candidateLabel(p, g === undefined ? undefined : gold[g]);
  });
}

/** What a paper adds to the knowledge base, as the importer adds it: its best built-in table and the RRIDs its text writes. */
export function corpusContribution(
  extracted: ManyResult,
  fullText: string,
): { doi: string; rows: KrtRow[]; provider: string; attested: string[] } | null {
  if (!extracted.ok || extracted.extraction.rows.length === 0) return null;
  const { metadata, rows, provider } = extracted.extraction;
  return { doi: metadata.doi, rows, provider, attested: rridsWrittenIn(fullText) };
}

/** Runs `work` on the base without the papers `out` (calibrated as at import without them), then puts them back. */
export function withoutPapers<T>(kb: RridKnowledgeBase, out: ReadonlySet<string>, work: () => T): T {
  const removed = [...out].filter((doi) => kb.hasPaper(doi)).map((doi) => [doi, kb.paper(doi)!] as const);
  for (const [doi] of removed) kb.removePaper(doi);
  try {
    calibrate(kb);
    return work();
  } finally {
    for (const [doi, paper] of removed) kb.addObservations(doi, paper);
  }
}

/**
 * The shipped fill model: fitted on the labelled proposals for every tuning paper's rows (its fold's extractor, the
 * base without its fold and the held-out papers). `kb`: the whole corpus's base; `extractorSha256`: the shipped
 * extractor model file the rows come from.
 */
export function buildFillModel(
  papers: readonly AuthorTablePaper[],
  kb: RridKnowledgeBase,
  extractorSha256: string,
  options: { rowsCache?: string; log?: (line: string) => void } = {},
): FillModelFile {
  const { tuning, heldOut, fold } = tuningFolds(papers);
  const cache = readRowsCache(options.rowsCache);
  const byFold: { features: readonly string[]; label: boolean }[][] = [];
  let proposed = 0;
  for (let k = 0; k < CV_FOLDS; k++) {
    const test = tuning.filter((p) => fold.get(p.doi) === k);
    const out = new Set([...test.map((p) => p.doi), ...heldOut]);
    const extract = foldExtractor(cache, k, () => trainFoldExtractor(papers, out));
    const examples: { features: readonly string[]; label: boolean }[] = [];
    byFold.push(examples);
    withoutPapers(kb, out, () => {
      for (const p of test) {
        const rows = extract(p);
        const predicted = rows.map((r) => r.row);
        const proposals = fillProposals(
          kb,
          predicted,
          rows.map((r) => r.confidence),
          CANDIDATES_PER_KIND,
        );
        proposed += proposals.length;
        candidateLabels(predicted, p.gold, proposals).forEach((label, i) => {
          if (label !== null) examples.push({ features: proposals[i].features, label });
        });
      }
    });
    options.log?.(`fold ${k + 1}: ${test.length} papers, ${examples.length} labelled proposals`);
  }
  writeRowsCache(cache);
  const examples = byFold.flat();
  const { logistic, calibration } = fitCalibratedFillModel(byFold);
  return {
    format: 'krt-fill-model',
    version: 1,
    model: FILL_MODEL,
    logistic,
    calibration,
    trainedOn: {
      papers: tuning.length,
      proposals: proposed,
      fitted: examples.length,
      right: examples.filter((e) => e.label).length,
      perKind: CANDIDATES_PER_KIND,
      heldOut: `${heldOut.size} papers held out: ${HELD_OUT_RULE}`,
      folds: CV_FOLDS,
      seed: CV_SEED,
      extractor: LEARNED_EXTRACTOR_MODEL,
      extractorSha256,
      label:
        "proposals for rows matching an authors' row that gives an identifier of the proposal's kind; right when that row gives the proposed one",
    },
  };
}

/** The whole corpus's knowledge base from every file's extraction (files without rows add nothing). */
export function corpusKnowledgeBase(contributions: Iterable<ReturnType<typeof corpusContribution>>): RridKnowledgeBase {
  const kb = new RridKnowledgeBase();
  for (const c of contributions) if (c) kb.addPaper(c.doi, c.rows, c.provider, c.attested);
  return kb;
}
