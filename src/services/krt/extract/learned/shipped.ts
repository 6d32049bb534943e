// The shipped models of the learned text extractor, of row inclusion and of identifier fills (built by build-model.ts
// from the shared corpus's author-table papers), loaded once per process (or worker thread) on first use.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FillModelFile } from '../../rrid/fill-model.ts';
import type { InclusionModelFile } from './inclusion.ts';
import { LearnedExtractor, type ExtractorModel } from './model.ts';

export const MODEL_FILE = fileURLToPath(new URL('./krt-text-5.model.json', import.meta.url));
export const INCLUSION_FILE = fileURLToPath(new URL('./krt-inclusion-1.model.json', import.meta.url));
export const FILL_FILE = fileURLToPath(new URL('./krt-fill-1.model.json', import.meta.url));

let loaded: LearnedExtractor | null | undefined;
let inclusion: InclusionModelFile | null | undefined;
let fill: FillModelFile | null | undefined;

/** Whether the model file ships (checked without loading it). */
export function shippedModelPresent(): boolean {
  return existsSync(MODEL_FILE);
}

/** The shipped extractor, or null when the model file is absent (the rule extractor is used then). */
export function shippedExtractor(): LearnedExtractor | null {
  if (loaded === undefined) {
    loaded = existsSync(MODEL_FILE) ? new LearnedExtractor(JSON.parse(readFileSync(MODEL_FILE, 'utf8')) as ExtractorModel) : null;
  }
  return loaded;
}

/**
 * The shipped row-inclusion model, or null when its file is absent or was fitted on another extractor's rows (its
 * features are that extractor's): every row found in the text is then in the table.
 */
export function shippedInclusion(): InclusionModelFile | null {
  if (inclusion === undefined) {
    const model = existsSync(INCLUSION_FILE) ? (JSON.parse(readFileSync(INCLUSION_FILE, 'utf8')) as InclusionModelFile) : null;
    const extractor = shippedExtractor()?.model.model;
    inclusion = model?.format === 'krt-inclusion-model' && model.version === 1 && model.trainedOn.extractor === extractor ? model : null;
  }
  return inclusion;
}

/**
 * The shipped fill model, or null when its file is absent or was fitted on another extractor's rows (its features
 * include that extractor's confidence): no row then lists identifier candidates.
 */
export function shippedFillModel(): FillModelFile | null {
  if (fill === undefined) {
    const model = existsSync(FILL_FILE) ? (JSON.parse(readFileSync(FILL_FILE, 'utf8')) as FillModelFile) : null;
    const extractor = shippedExtractor()?.model.model;
    fill = model?.format === 'krt-fill-model' && model.version === 1 && model.trainedOn.extractor === extractor ? model : null;
  }
  return fill;
}
