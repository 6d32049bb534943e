// Where tests find the published fit: ../shared/data/retraction next to the repository, or PDI_SHARED_DATA.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PUBLISHED_FIT_FILE = 'democracy_model_results.json';

/** Path of democracy_model_results.json, or null when absent (an error under CI=true). */
export function publishedFitPath(): string | null {
  const base = process.env.PDI_SHARED_DATA ?? fileURLToPath(new URL('../../../../../shared/data', import.meta.url));
  const file = join(base, 'retraction', PUBLISHED_FIT_FILE);
  if (existsSync(file)) return file;
  if (process.env.CI === 'true') throw new Error(`published fit not found at ${file} (set PDI_SHARED_DATA)`);
  return null;
}

export function skipWithoutPublishedFit(path: string | null): string | false {
  return path === null ? `skipped: ../shared/data/retraction/${PUBLISHED_FIT_FILE} not found (set PDI_SHARED_DATA)` : false;
}
