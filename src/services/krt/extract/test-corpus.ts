// The shared bioRxiv corpus for tests: where it is, which files, and the skip/fail rule when it is absent
// (skipped with a message outside CI, a failure with CI=true).

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function corpusDir(): string {
  const base = process.env.PDI_SHARED_DATA ?? fileURLToPath(new URL('../../../../../shared/data', import.meta.url));
  return join(base, 'krt', 'xml');
}

/** All corpus files, sorted by path; [] when the corpus is absent. */
export function corpusFiles(): string[] {
  const dir = corpusDir();
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  for (const year of readdirSync(dir).sort()) {
    const yearDir = join(dir, year);
    for (const name of readdirSync(yearDir).sort()) if (name.endsWith('.xml')) files.push(join(yearDir, name));
  }
  return files;
}

/** The reason to skip when the corpus is missing (throws in CI), or false when it is there. */
export function corpusMissing(): string | false {
  if (corpusFiles().length > 0) return false;
  const message = `shared KRT corpus not found at ${corpusDir()} (set PDI_SHARED_DATA)`;
  if (process.env.CI === 'true') throw new Error(message);
  return message;
}
