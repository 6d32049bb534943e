// Builds the shipped models of the learned text extractor, of row inclusion and of identifier fills from a corpus's
// author-table papers:
//   node src/services/krt/extract/learned/build-model.ts [<corpus xml dir>] [--only extractor|inclusion|fill[,…]] [--rows-cache FILE]
// (default corpus ../shared/data/krt/xml) writes krt-text-5.model.json, then krt-inclusion-1.model.json, then
// krt-fill-1.model.json, next to this file. The extractor is trained on the STAR/eLife author-table papers
// that are not held out (papers.ts isHeldOutPaper); the inclusion model on the rows that fold
// extractors gave for the papers with an author table that are not held out (inclusion-training.ts); the fill model
// on the knowledge base's proposals for those rows, each fold's base built from the corpus without the fold's and the
// held-out papers (fill-training.ts: the corpus is extracted first, as the importer does). So a rebuilt extractor is
// followed by a rebuilt inclusion model and fill model. `--rows-cache` reuses the fold extractions of
// `npm run bench -- krt --only cv --rows-cache FILE` (the same rows). Deterministic: the same corpus gives the same files.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseJats } from '../../jats/article.ts';
import { extractMany } from '../extract-many.ts';
import { parseXml, textOf } from '../../jats/tree.ts';
import { FILL_FILE, INCLUSION_FILE, MODEL_FILE } from './shipped.ts';
import { trainExtractor } from './model.ts';
import { isHeldOutPaper, loadAuthorTablePapers } from './papers.ts';
import { authorTablePaper, buildInclusionModel, type AuthorTablePaper } from './inclusion-training.ts';
import { buildFillModel, corpusContribution, corpusKnowledgeBase } from './fill-training.ts';

function xmlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...xmlFiles(full));
    else if (name.endsWith('.xml')) out.push(full);
  }
  return out;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { only: { type: 'string' }, 'rows-cache': { type: 'string' } },
});
const dir = positionals[0] ?? fileURLToPath(new URL('../../../../../../shared/data/krt/xml', import.meta.url));
const files = xmlFiles(dir);
const PARTS = ['extractor', 'inclusion', 'fill'];
const only = new Set((values.only ?? PARTS.join(',')).split(',').map((x) => x.trim()));
for (const part of only) if (!PARTS.includes(part)) throw new Error(`unknown part ${part} (${PARTS.join(', ')})`);

/** The corpus's papers with an author table. */
function authorTablePapers(): AuthorTablePaper[] {
  const papers: AuthorTablePaper[] = [];
  for (const file of files) {
    const xml = readFileSync(file, 'utf8');
    if (!xml.includes('<table-wrap')) continue;
    const paper = authorTablePaper(xml, file, parseJats(xml, file).metadata.doi);
    if (paper) papers.push(paper);
  }
  return papers;
}
const extractorSha256 = () => createHash('sha256').update(readFileSync(MODEL_FILE)).digest('hex');

if (only.has('extractor')) {
  const started = performance.now();
  const papers = loadAuthorTablePapers(files).filter((p) => !isHeldOutPaper(p.doi));
  const model = trainExtractor(papers, 4, 15);
  writeFileSync(MODEL_FILE, `${JSON.stringify(model)}\n`);
  console.log(
    `${papers.length} author-table papers (held-out papers left out), ${model.trainedOn.candidates} candidates (${model.trainedOn.positives} positive), threshold ${model.threshold}; ` +
      `${Object.keys(model.gazetteer.entries).length} gazetteer names, ${Object.keys(model.logistic.weights).length} weights → ${MODEL_FILE} ` +
      `(${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
}

if (only.has('inclusion')) {
  const started = performance.now();
  const model = buildInclusionModel(authorTablePapers(), extractorSha256(), {
    rowsCache: values['rows-cache'],
    log: (line) => console.log(line),
  });
  writeFileSync(INCLUSION_FILE, `${JSON.stringify(model)}\n`);
  console.log(
    `${model.trainedOn.papers} papers with an author table (${model.trainedOn.heldOut}); ${model.trainedOn.rows} rows (${model.trainedOn.positives} in the authors' tables), ` +
      `threshold ${model.threshold}; ${Object.keys(model.logistic.weights).length} weights → ${INCLUSION_FILE} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
}

if (only.has('fill')) {
  const started = performance.now();
  // The base as the importer builds it: every file's best built-in table (the shipped extractor's where no author table).
  const extracted = await extractMany(files, { workers: availableParallelism() });
  const kb = corpusKnowledgeBase(
    extracted.map((r, i) => (r.ok ? corpusContribution(r, textOf(parseXml(readFileSync(files[i], 'utf8')))) : null)),
  );
  const model = buildFillModel(authorTablePapers(), kb, extractorSha256(), {
    rowsCache: values['rows-cache'],
    log: (line) => console.log(line),
  });
  writeFileSync(FILL_FILE, `${JSON.stringify(model)}\n`);
  console.log(
    `${model.trainedOn.papers} tuning papers (${model.trainedOn.heldOut}); ${model.trainedOn.proposals} proposals, ${model.trainedOn.fitted} fitted (${model.trainedOn.right} right); ` +
      `${Object.keys(model.logistic.weights).length} weights → ${FILL_FILE} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
}
