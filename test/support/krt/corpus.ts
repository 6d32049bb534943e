// The shared bioRxiv corpus for Service B's tests and benchmark: where it is, which files, and the skip/fail rule
// when it is absent (skipped with a message outside CI, a failure with CI=true); a representative subset laid out as
// a store (symbolic links in a temporary directory), and what the domain extractor makes of each file, computed
// once per process so that the SQLite and PostgreSQL suites compare against the same expectations.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractArticle } from '../../../src/services/krt/extract/index.ts';
import type { PaperExtraction } from '../../../src/services/krt/extract/index.ts';
import { doiOfStorePath } from '../../../src/services/krt/jats/index.ts';

export function corpusDir(): string {
  const base = process.env.PDI_SHARED_DATA ?? fileURLToPath(new URL('../../../../shared/data', import.meta.url));
  return path.join(base, 'krt', 'xml');
}

/** All corpus files, sorted by path; [] when the corpus is absent. */
export function corpusFiles(): string[] {
  const dir = corpusDir();
  if (!fs.existsSync(dir)) return [];
  const files: string[] = [];
  for (const year of fs.readdirSync(dir).sort()) {
    const yearDir = path.join(dir, year);
    for (const name of fs.readdirSync(yearDir).sort()) if (name.endsWith('.xml')) files.push(path.join(yearDir, name));
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

/**
 * Every corpus file whose text announces a key resources table (the STAR heading, its column title, or the eLife
 * column title) — most of the 84 papers with an author table — plus every `stride`-th other file for the text
 * extractor. The full corpus is imported by the opt-in test (PDI_KRT_FULL=1) and covered by the domain tests.
 */
export function corpusSubset(stride = 40): string[] {
  const files = corpusFiles();
  let other = 0;
  return files.filter((file) => {
    const xml = fs.readFileSync(file, 'utf8');
    if (/key resources? table|REAGENT or RESOURCE|Reagent type \(species\)/i.test(xml)) return true;
    return other++ % stride === 0;
  });
}

/** A store directory <tmp>/<year>/<name>.xml of symbolic links to `files`. */
export function linkStore(files: readonly string[], prefix = 'krt-store-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const root = corpusDir();
  for (const file of files) {
    const target = path.join(dir, path.relative(root, file));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.symlinkSync(file, target);
  }
  return dir;
}

const expectations = new Map<string, PaperExtraction>();

/** The domain's extraction of a file (auto mode: the author table, else the text), by DOI; cached. */
export function domainExtraction(file: string): { doi: string; extraction: PaperExtraction } {
  const doi = doiOfStorePath(file)!;
  let extraction = expectations.get(file);
  if (!extraction) {
    extraction = extractArticle(fs.readFileSync(file, 'utf8'), { fileName: file });
    expectations.set(file, extraction);
  }
  return { doi, extraction };
}
