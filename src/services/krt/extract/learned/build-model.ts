// Builds the shipped model of the learned text extractor from a corpus's author-table papers, the benchmark's
// held-out papers left out (papers.ts isHeldOutPaper):
//   node src/services/krt/extract/learned/build-model.ts [<corpus xml dir>]   (default ../shared/data/krt/xml)
// writes krt-text-4.model.json next to this file. Deterministic: the same corpus gives the same file.

import { readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODEL_FILE } from './shipped.ts';
import { trainExtractor } from './model.ts';
import { isHeldOutPaper, loadAuthorTablePapers } from './papers.ts';

function xmlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...xmlFiles(full));
    else if (name.endsWith('.xml')) out.push(full);
  }
  return out;
}

const dir = process.argv[2] ?? fileURLToPath(new URL('../../../../../../shared/data/krt/xml', import.meta.url));
const started = performance.now();
const papers = loadAuthorTablePapers(xmlFiles(dir)).filter((p) => !isHeldOutPaper(p.doi));
const model = trainExtractor(papers, 4, 15);
writeFileSync(MODEL_FILE, `${JSON.stringify(model)}\n`);
console.log(
  `${papers.length} author-table papers (held-out papers left out), ${model.trainedOn.candidates} candidates (${model.trainedOn.positives} positive), threshold ${model.threshold}; ` +
    `${Object.keys(model.gazetteer.entries).length} gazetteer names, ${Object.keys(model.logistic.weights).length} weights → ${MODEL_FILE} ` +
    `(${((performance.now() - started) / 1000).toFixed(1)} s)`,
);
