// The held DOI lookups (held-articles.ts) against the SQL path (repository.ts suggestArticles, getArticle,
// countSessions), on SQLite and PostgreSQL: after a real import of the shared corpus — every sixth paper (200), or all
// 1,200 with PDI_KRT_FULL=1 (about a minute of extraction per database on two cores) — and on the generated demo articles, over many queries (random strings with non-ASCII characters, LIKE wildcards and case;
// DOI forms and prefixes; fragments of real titles, changed in case and accents) — the same items in the same order
// and the same totals, byte for byte. And the held snapshot follows imports: a new paper and a deleted one are seen
// by the next request.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describeEachDatabase, needsSharedData } from '../../../test/support/databases.ts';
import type { TestDatabase } from '../../../test/support/databases.ts';
import { buildTestApp, testContext } from '../../../test/support/app.ts';
import { corpusFiles, linkStore } from '../../../test/support/krt/corpus.ts';
import { real } from '../../../test/support/krt/http.ts';
import { DataVersionWatcher } from '../../core/service.ts';
import type { ServiceApp, ServiceContext } from '../../core/service.ts';
import { krtService } from './service.ts';
import { importPath, importStore } from './import.ts';
import { loadKrtDemo } from './demo.ts';
import { countSessions, getArticle, suggestArticles } from './repository.ts';
import { HeldArticles } from './held-articles.ts';
import type { HeldArticle } from './held-articles.ts';
import type { KrtTables } from './tables.ts';

const corpus = needsSharedData('krt', 'xml');
const FULL = process.env.PDI_KRT_FULL === '1';
/** The real papers imported: all with PDI_KRT_FULL=1, else every sixth (in path order). */
const corpusPapers = () => corpusFiles().filter((_, i) => FULL || i % 6 === 0);

/** Characters that exercise folding and LIKE: wildcards, escapes, accents, ligatures, final sigma, dotted I, Hangul. */
const SPECIAL = [
  '%',
  '_',
  '\\',
  "'",
  '"',
  ' ',
  '/',
  '.',
  ':',
  '-',
  'é',
  'É',
  'ß',
  'ﬁ',
  'Σ',
  'ς',
  'İ',
  'ı',
  'Å',
  'µ',
  'α',
  'β',
  '한',
  'ᄒ',
  'ᅡ',
  'ᆫ',
  '\u0301',
  'Ⅻ',
  '２',
];

interface Probe {
  q: string | undefined;
  limit: number;
}

/** Queries of every kind, from fast-check (seeded) over the stored titles and DOIs. */
function queries(titles: string[], dois: string[]): Probe[] {
  const fragment = fc
    .tuple(fc.constantFrom(...titles), fc.nat(), fc.integer({ min: 1, max: 40 }))
    .map(([title, at, length]) => title.slice(at % title.length, (at % title.length) + length));
  const restyle = (text: fc.Arbitrary<string>) =>
    fc
      .tuple(text, fc.constantFrom('as is', 'upper', 'lower', 'accents off', 'NFD'))
      .map(([t, how]) =>
        how === 'upper'
          ? t.toUpperCase()
          : how === 'lower'
            ? t.toLowerCase()
            : how === 'accents off'
              ? t.normalize('NFD').replace(/\p{M}/gu, '')
              : how === 'NFD'
                ? t.normalize('NFD')
                : t,
      );
  const doiForm = fc
    .tuple(
      fc.constantFrom(...dois),
      fc.integer({ min: 3, max: 30 }),
      fc.constantFrom('', 'doi:', 'https://doi.org/', 'DOI: ', 'https://dx.doi.org/'),
    )
    .map(([doi, length, prefix]) => `${prefix}${doi.slice(0, length)}`);
  const special = fc
    .array(fc.oneof(fc.constantFrom(...SPECIAL), fc.string({ unit: 'grapheme-ascii', maxLength: 3 })), { maxLength: 6 })
    .map((parts) => parts.join(''));
  const words = fc
    .array(fc.oneof(fragment, fc.constantFrom('cell', 'cells', 'protein', 'mouse', 'RNA', 'sars-cov-2', 'β-cell', 'α')), {
      minLength: 1,
      maxLength: 3,
    })
    .map((w) => w.join(' '));
  const text = fc.oneof(
    { weight: 3, arbitrary: restyle(fragment) },
    { weight: 2, arbitrary: restyle(words) },
    { weight: 2, arbitrary: doiForm },
    { weight: 2, arbitrary: special },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  );
  const probe = fc.record({ q: fc.option(text, { nil: undefined, freq: 20 }), limit: fc.integer({ min: 1, max: 50 }) });
  return fc.sample(probe, { numRuns: 1500, seed: 20_26_11_26 });
}

/** The SQL answer, or null where the SQL path fails (an FTS5 query that foldCase shortened to nothing: SQLite only). */
async function sqlAnswer(t: TestDatabase, p: Probe) {
  try {
    return await suggestArticles(t.db.kysely.withTables<KrtTables>(), p.q, p.limit);
  } catch (error) {
    assert.equal(t.kind, 'sqlite', `${JSON.stringify(p)}: ${(error as Error).message}`);
    assert.match((error as Error).message, /fts5: syntax error/, JSON.stringify(p));
    return null;
  }
}

/** Compares the held answers with the SQL path's for every probe and every stored DOI (and a few absent ones). */
async function compareWithSql(t: TestDatabase, held: HeldArticles, minimumMatches: number): Promise<void> {
  const db = t.db.kysely.withTables<KrtTables>();
  const stored = await db.selectFrom('krt_articles').select(['doi', 'title']).orderBy('id').execute();
  assert.ok(stored.length > 0);
  const probes = queries(
    stored.map((s) => s.title),
    stored.map((s) => s.doi),
  );
  let withMatches = 0;
  let sqlFailures = 0;
  for (const p of probes) {
    const expected = await sqlAnswer(t, p);
    if (!expected) {
      sqlFailures++;
      continue;
    }
    const got = await held.suggest(p.q, p.limit);
    assert.equal(JSON.stringify(got), JSON.stringify(expected), JSON.stringify(p));
    assert.deepStrictEqual(got, expected, JSON.stringify(p));
    if (expected.total > 0 && p.q) withMatches++;
  }
  // The comparison means something only if many queries find articles (and few fail in SQL).
  assert.ok(withMatches >= minimumMatches, `only ${withMatches} of ${probes.length} queries matched an article`);
  assert.ok(sqlFailures < probes.length / 20, `${sqlFailures} queries failed in SQL`);

  const absent = ['10.1101/2099.01.01.000001', stored[0].doi.toUpperCase(), `${stored[0].doi}x`];
  for (const doi of [...stored.map((s) => s.doi), ...absent]) {
    const record = await getArticle(db, doi);
    const expected: HeldArticle | null = record && {
      doi: record.doi,
      title: record.title,
      authors: record.authors,
      publication_date: record.publication_date,
      journal: record.journal,
      is_preprint: record.is_preprint,
      is_demo: record.is_demo,
      store_root: record.store_root,
      file_path: record.file_path,
      file_size: record.file_size,
      downloaded_at: record.downloaded_at,
      sessions: await countSessions(db, doi),
    };
    assert.deepStrictEqual(await held.article(doi), expected, doi);
  }
}

describeEachDatabase(
  `krt held DOI lookups on ${FULL ? 'the whole corpus' : 'every sixth paper of the corpus'}, against SQL`,
  (t) => {
    let store: string | undefined;
    before(async () => {
      if (corpus.problem) return;
      const papers = corpusPapers();
      store = linkStore(papers, 'krt-held-');
      const report = await importStore(t.db, store, { progress: false });
      assert.equal(report.inserted, papers.length);
    });
    after(() => {
      if (store) fs.rmSync(store, { recursive: true, force: true });
    });

    it('the same suggestions, totals and DOI checks as the SQL path', { skip: corpus.skip, timeout: 600_000 }, async () => {
      if (corpus.problem) throw new Error(corpus.problem);
      const held = new HeldArticles(t.db.kysely.withTables<KrtTables>(), new DataVersionWatcher(t.db, 'krt', 0));
      await compareWithSql(t, held, FULL ? 600 : 300);
    });
  },
  { migrations: krtService.migrations },
);

describeEachDatabase(
  'krt held DOI lookups on the generated demo articles, against SQL',
  (t) => {
    it('the same suggestions, totals and DOI checks as the SQL path', { timeout: 300_000 }, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'krt-held-demo-'));
      try {
        await loadKrtDemo(testContext(krtService, t.db, { dataDir: dir }), {});
        await compareWithSql(t, new HeldArticles(t.db.kysely.withTables<KrtTables>(), new DataVersionWatcher(t.db, 'krt', 0)), 300);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  },
  { migrations: krtService.migrations },
);

describeEachDatabase(
  'krt held DOI lookups follow imports',
  (t) => {
    let app: ServiceApp | undefined;
    let ctx: ServiceContext | undefined;
    const dirs: string[] = [];
    after(async () => {
      await app?.close();
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('a new paper and a deleted one are seen by the next request', { skip: corpus.skip }, async () => {
      if (corpus.problem) throw new Error(corpus.problem);
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'krt-held-app-'));
      dirs.push(dataDir);
      // The production watcher re-reads the version once a second at most; an hour here, so that only the import's
      // invalidation can make the change visible.
      ctx = { ...testContext(krtService, t.db, { dataDir }), dataVersion: new DataVersionWatcher(t.db, 'krt', 3600_000) };
      const papers = real.slice(0, 4);
      const doiOf = (file: string) => `10.1101/${path.basename(file, '.xml')}`;
      // One store directory, its links replaced: an import deletes the articles of its directory that are gone.
      const store = fs.mkdtempSync(path.join(os.tmpdir(), 'krt-held-store-'));
      dirs.push(store);
      const importFiles = async (files: string[], options: Record<string, unknown> = {}) => {
        fs.rmSync(store, { recursive: true, force: true });
        const linked = linkStore(files, 'krt-held-links-');
        fs.renameSync(linked, store);
        await importPath(ctx!, store, { workers: 0, ...options });
      };
      const check = async (doi: string) => {
        const res = await app!.inject({ url: `/api/check-doi-local/?doi=${encodeURIComponent(doi)}` });
        assert.equal(res.statusCode, 200, res.body);
        return JSON.parse(res.body) as { available: boolean; total_sessions: number };
      };
      const total = async () => {
        const res = await app!.inject({ url: '/api/doi-suggestions/?limit=50' });
        assert.equal(res.statusCode, 200, res.body);
        return (JSON.parse(res.body) as { total_available: number; suggestions: { doi: string }[] }).suggestions.map((s) => s.doi).sort();
      };

      await importFiles(papers.slice(0, 3));
      app = await buildTestApp(krtService, ctx);
      assert.deepEqual(await total(), papers.slice(0, 3).map(doiOf).sort());
      assert.equal((await check(doiOf(papers[3]))).available, false);

      await importFiles(papers);
      assert.equal((await check(doiOf(papers[3]))).available, true, 'the new paper, at the next request');
      assert.equal((await check(doiOf(papers[3]))).total_sessions, 1);
      assert.deepEqual(await total(), papers.map(doiOf).sort());

      // Deleting one of four is more than the importer's 10% without --allow-shrink.
      await importFiles([papers[0], papers[1], papers[3]], { allowShrink: true });
      assert.equal((await check(doiOf(papers[2]))).available, false, 'the deleted paper, at the next request');
      assert.deepEqual(await total(), [papers[0], papers[1], papers[3]].map(doiOf).sort());
    });
  },
  { migrations: krtService.migrations },
);
