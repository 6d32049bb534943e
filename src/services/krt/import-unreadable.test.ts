// Service B, on SQLite and PostgreSQL: a changed article file whose publication date or version cannot be read
// keeps the values stored from the earlier file, with a warning; a date written in full is still taken.
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeEachDatabase, needsSharedData, sharedData } from '../../../test/support/databases.ts';
import { importStore } from './import.ts';
import { krtService } from './service.ts';
import type { KrtTables } from './tables.ts';

const gate = needsSharedData('krt', 'xml');
const PAPER = path.join('2021', '2021.08.06.455441.xml');

describeEachDatabase(
  'krt import: unreadable article metadata never replaces what is stored',
  (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'krt-unreadable-'));
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, PAPER);
    const stored = async () =>
      t.db.kysely
        .withTables<KrtTables>()
        .selectFrom('krt_articles')
        .select(['publication_date', 'version'])
        .where('doi', '=', '10.1101/2021.08.06.455441')
        .executeTakeFirstOrThrow();

    it('keeps the stored date and version when the new file writes them unreadably', async () => {
      if (gate.problem) throw new Error(gate.problem);
      const original = fs.readFileSync(sharedData('krt', 'xml', PAPER), 'utf8');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, original);
      await importStore(t.db, dir, { workers: 0 });
      const before = await stored();
      assert.equal(before.publication_date, '2021-08-08');
      assert.equal(Number(before.version), 1);

      const spoilt = original
        .replace(/(<pub-date pub-type="preprint">\s*<day>08<\/day>\s*<month>08<\/month>\s*)<year>2021<\/year>/, '$1<year>20x1</year>')
        .replace(/(<pub-date pub-type="nihms-submitted">[\s\S]*?)<year>(\d{4})<\/year>/, '$1<year>year</year>')
        .replace(/(<article-version article-version-type="publisher-id">)1/, '$1v1');
      assert.notEqual(spoilt, original);
      fs.writeFileSync(file, spoilt);
      const report = await importStore(t.db, dir, { workers: 0 });
      assert.deepEqual(await stored(), before);
      assert.ok(
        report.warning_samples.some((w) => /publication_date could not be read/.test(w)),
        JSON.stringify(report.warning_samples),
      );
      assert.ok(
        report.warning_samples.some((w) => /version could not be read/.test(w)),
        JSON.stringify(report.warning_samples),
      );

      // A month written as a word that is no month is unreadable too, not the first of the year.
      fs.writeFileSync(file, original.replace(/<month>08<\/month>/g, '<month>Spring</month>'));
      await importStore(t.db, dir, { workers: 0 });
      assert.deepEqual(await stored(), before);
    });
  },
  { migrations: krtService.migrations },
);
