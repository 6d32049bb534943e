// Shared by Service B's database tests: a representative subset of the shared corpus laid out as a store (symbolic
// links in a temporary directory), and what the domain extractor makes of each file, computed once per process so
// that the SQLite and PostgreSQL suites compare against the same expectations.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractArticle } from '../../../src/services/krt/extract/index.ts';
import type { PaperExtraction } from '../../../src/services/krt/extract/index.ts';
import { corpusDir, corpusFiles } from '../../../src/services/krt/extract/test-corpus.ts';
import { doiOfStorePath } from '../../../src/services/krt/jats/index.ts';

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
