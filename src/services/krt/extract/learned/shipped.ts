// The shipped model of the learned text extractor (built by build-model.ts from the shared corpus's author-table
// papers), loaded once per process (or worker thread) on first use.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LearnedExtractor, type ExtractorModel } from './model.ts';

export const MODEL_FILE = fileURLToPath(new URL('./krt-text-4.model.json', import.meta.url));

let loaded: LearnedExtractor | null | undefined;

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
