// The autocomplete on real titles, authors and DOIs: the 200 retracted works of calibration_corpus.csv
// (../shared/data/retraction), imported as Retraction Watch rows, on SQLite and PostgreSQL. Every paper is
// found first by its DOI and by its exact title, Unicode names match in any case, and for the 200 perturbed
// titles nothing is suggested that does not contain the query.
import { before, after, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import { describeEachDatabase, needsSharedData, sharedData } from '../../../test/support/databases.ts';
import { foldAccents, foldCase } from '../../core/db/dialect.ts';
import { retractionService } from './service.ts';
import { retractionDb } from './tables.ts';
import { importRetractionWatch } from './import.ts';
import { autocomplete } from './repository.ts';
import { tempDir, writeRwCsv } from '../../../test/support/retraction/fixtures.ts';
import type { RwRow } from '../../../test/support/retraction/fixtures.ts';

const gate = needsSharedData('retraction', 'calibration_corpus.csv');
type CorpusRow = { label: string; title: string; year: string; author: string; doi: string };

describeEachDatabase(
  'retraction autocomplete on the calibration corpus',
  (t) => {
    let dir: string;
    let corpus: CorpusRow[];
    before(async () => {
      if (gate.problem) throw new Error(gate.problem);
      corpus = Papa.parse<CorpusRow>(fs.readFileSync(sharedData('retraction', 'calibration_corpus.csv'), 'utf8'), {
        header: true,
        skipEmptyLines: true,
      }).data;
      dir = tempDir('corpus');
      const rows: RwRow[] = corpus
        .filter((r) => r.label === 'retracted')
        .map((r, i) => ({
          'Record ID': String(i + 1),
          Title: r.title,
          Author: r.author,
          OriginalPaperDOI: r.doi,
          OriginalPaperDate: `1/1/${r.year} 0:00`,
          Journal: 'unknown',
        }));
      const report = await importRetractionWatch(t.db, writeRwCsv(path.join(dir, 'corpus.csv'), rows));
      assert.equal(report.inserted, 200);
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('finds every paper first by its DOI, in any case', async () => {
      const retracted = corpus.filter((r) => r.label === 'retracted' && r.doi.startsWith('10.'));
      assert.ok(retracted.length > 150);
      for (const r of retracted) {
        const [first] = await autocomplete(retractionDb(t.db), r.doi.toUpperCase());
        assert.equal(foldCase(first?.title ?? ''), foldCase(r.title), r.doi);
      }
    });

    it('finds every paper first by its exact title', async () => {
      for (const r of corpus.filter((c) => c.label === 'retracted' && [...c.title].length >= 3).slice(0, 200)) {
        const [first] = await autocomplete(retractionDb(t.db), r.title);
        assert.equal(first?.title, r.title.trim());
      }
    });

    it('matches names in other scripts and with diacritics case-insensitively', async () => {
      const cyrillic = corpus.find((r) => /[Ѐ-ӿ]/.test(r.author))!;
      const name = cyrillic.author.match(/[Ѐ-ӿ]{4,}/)![0];
      for (const q of [name, name.toLowerCase(), name.toUpperCase()]) {
        assert.ok(
          (await autocomplete(retractionDb(t.db), q)).some((s) => s.title === cyrillic.title),
          q,
        );
      }
      const accented = corpus.find((r) => r.label === 'retracted' && /É/.test(r.author))!;
      assert.ok((await autocomplete(retractionDb(t.db), 'édouard')).some((s) => s.title === accented.title));
      const titles = async (q: string) => (await autocomplete(retractionDb(t.db), q)).map((s) => s.title);
      assert.deepEqual(await titles('edouard'), await titles('Édouard'));
    });

    it('never suggests a paper that does not contain the query (perturbed titles)', async () => {
      let answered = 0;
      for (const r of corpus.filter((c) => c.label === 'retracted_fuzzy')) {
        const q = r.title.slice(0, 24).trim();
        if ([...q].length < 3) continue;
        const suggestions = await autocomplete(retractionDb(t.db), q);
        if (suggestions.length) answered++;
        for (const s of suggestions) {
          assert.ok(foldAccents(`${s.title}\u0000${s.author}`).includes(foldAccents(q)), `${q} → ${s.title}`);
        }
      }
      assert.ok(answered > 20, `only ${answered} perturbed beginnings found anything`);
    });
  },
  { migrations: retractionService.migrations },
);

describeEachDatabase(
  'retraction autocomplete ignores accents',
  (t) => {
    let dir: string;
    before(async () => {
      dir = tempDir('accents');
      const rows: RwRow[] = [
        'Cohort study of smokers in Montreal',
        'Université de Montréal cohort of smokers',
        'Montreal and Québec: a comparison',
      ].map((title, i) => ({ 'Record ID': String(i + 1), Title: title, Author: 'Tremblay, Hélène', OriginalPaperDate: '1/1/2020 0:00' }));
      await importRetractionWatch(t.db, writeRwCsv(path.join(dir, 'accents.csv'), rows));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const titles = async (q: string) => (await autocomplete(retractionDb(t.db), q)).map((s) => s.title).sort();

    it('finds with "montreal" what "Montréal" finds', async () => {
      assert.equal((await titles('Montréal')).length, 3);
      assert.deepEqual(await titles('montreal'), await titles('Montréal'));
      assert.deepEqual(await titles('MONTREAL'), await titles('montréal'));
      assert.deepEqual(await titles('helene'), await titles('Hélène'));
      assert.deepEqual(await titles('quebec'), ['Montreal and Québec: a comparison']);
    });

    it('puts a match with the accents as written first', async () => {
      const [first] = await autocomplete(retractionDb(t.db), 'montréal cohort');
      assert.equal(first?.title, 'Université de Montréal cohort of smokers');
    });
  },
  { migrations: retractionService.migrations },
);
