// Field parsing and the streamed readers of Service E's sources, without a database.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { cleanDoi, daysBetween, parsePartialDate, parseRecordDate, splitMulti, yearsBefore, parseNumber } from './fields.ts';
import { mapRwHeader, parseRwRow, parseSubjects, RW_COLUMNS } from './retraction-watch.ts';
import { openAlexWork, openCitationsEdge, parseIdentifier } from './citations.ts';
import { jsonElements } from './json-stream.ts';
import { openCsv, CsvFormatError } from '../../../core/csv-rows.ts';
import { mapPanelHeader, parsePanelRow } from './panel.ts';
import { tempDir } from '../../../../test/support/retraction/fixtures.ts';

describe('Retraction Watch fields', () => {
  it('reads M/D/YYYY H:MM, M/D/YYYY and ISO dates, and refuses impossible ones', () => {
    assert.equal(parseRecordDate('2/6/2010 0:00'), '2010-02-06');
    assert.equal(parseRecordDate('12/31/1999 23:59'), '1999-12-31');
    assert.equal(parseRecordDate('2/28/1998'), '1998-02-28');
    assert.equal(parseRecordDate('2010-02-06T00:00:00.000Z'), '2010-02-06');
    assert.equal(parseRecordDate('2010-02-06'), '2010-02-06');
    assert.equal(parseRecordDate(''), null);
    assert.equal(parseRecordDate('  '), null);
    assert.equal(parseRecordDate('2/30/2010 0:00'), undefined);
    assert.equal(parseRecordDate('yesterday'), undefined);
  });

  it('keeps partial citing dates as the first day of their period', () => {
    assert.deepEqual(parsePartialDate('2019'), { date: '2019-01-01', precision: 'year' });
    assert.deepEqual(parsePartialDate('2019-05'), { date: '2019-05-01', precision: 'month' });
    assert.deepEqual(parsePartialDate('2019-05-21'), { date: '2019-05-21', precision: 'day' });
    assert.equal(parsePartialDate(''), null);
    assert.equal(parsePartialDate('2019-13'), null);
  });

  it('counts days across leap years and steps back whole years', () => {
    assert.equal(daysBetween('2010-02-06', '2010-02-06'), 0);
    assert.equal(daysBetween('2010-02-06', '2010-02-07'), 1);
    assert.equal(daysBetween('2020-02-28', '2020-03-01'), 2);
    assert.equal(daysBetween('2011-01-01', '2010-01-01'), -365);
    assert.equal(yearsBefore('2024-02-29', 1), '2023-02-28');
    assert.equal(yearsBefore('2025-06-30', 5), '2020-06-30');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40000 }), fc.integer({ min: 0, max: 40000 }), (a, b) => {
        const d = (n: number) => new Date(Date.UTC(1950, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
        return daysBetween(d(a), d(b)) === b - a;
      }),
    );
  });

  it('splits multi-valued cells, strips subject codes and reason markers, and normalises DOIs', () => {
    assert.deepEqual(splitMulti('A;B ; ;C;'), ['A', 'B', 'C']);
    assert.deepEqual(parseSubjects('(BLS) Biology - Cancer;(HSC) Medicine - Immunology;Odd subject;'), [
      { code: 'BLS', name: 'Biology - Cancer' },
      { code: 'HSC', name: 'Medicine - Immunology' },
      { code: null, name: 'Odd subject' },
    ]);
    assert.equal(cleanDoi('https://doi.org/10.1016/S0140-6736(97)11096-0'), '10.1016/S0140-6736(97)11096-0');
    assert.equal(cleanDoi('doi:10.1000/X'), '10.1000/X');
    assert.equal(cleanDoi('Unavailable'), null);
    assert.equal(cleanDoi('not a doi'), null);
    assert.equal(parseNumber('NA'), null);
    assert.equal(parseNumber('1e3'), 1000);
    assert.equal(parseNumber('12abc'), undefined);
  });

  it('maps the 20 columns by name in any order and case, and parses a row', () => {
    const header = [...RW_COLUMNS].reverse().map((c) => c.toUpperCase());
    const map = mapRwHeader(header);
    assert.deepEqual(map.missing, []);
    const cells = header.map((h) => {
      const values: Record<string, string> = {
        'RECORD ID': '77',
        TITLE: ' A title ',
        AUTHOR: 'X Y;Z W;',
        COUNTRY: 'China;China;Peru',
        REASON: '+Fake Peer Review;+Paper Mill;',
        RETRACTIONDATE: '1/2/2003 0:00',
        ORIGINALPAPERDATE: 'someday',
        PAYWALLED: 'Yes',
        ORIGINALPAPERDOI: 'unavailable',
        RETRACTIONPUBMEDID: '0',
      };
      return values[h] ?? '';
    });
    const { record, problems } = parseRwRow(cells, map);
    assert.equal(record!.record_id, '77');
    assert.equal(record!.title, 'A title');
    assert.deepEqual(record!.authors, ['X Y', 'Z W']);
    assert.deepEqual(record!.countries, ['China', 'Peru']);
    assert.equal(record!.reason, 'Fake Peer Review; Paper Mill');
    assert.equal(record!.retraction_date, '2003-01-02');
    assert.equal(record!.original_paper_date, null);
    assert.equal(record!.original_paper_doi, null);
    assert.equal(record!.retraction_pubmed_id, null);
    assert.equal(record!.paywalled, true);
    assert.deepEqual(problems, ['unreadable OriginalPaperDate']);
    assert.throws(() => mapRwHeader(['Title', 'Journal']), /no Record ID column/);
    assert.equal(
      parseRwRow(
        cells.map(() => ''),
        map,
      ).skip,
      'missing Record ID',
    );
  });
});

describe('citation sources', () => {
  it('reads identifiers as OpenCitations writes them', () => {
    assert.deepEqual(parseIdentifier('omid:br/0612 doi:10.1000/ABC pmid:1'), { doi: '10.1000/ABC', key: 'doi:10.1000/abc' });
    assert.deepEqual(parseIdentifier('10.1000/x'), { doi: '10.1000/x', key: 'doi:10.1000/x' });
    assert.deepEqual(parseIdentifier('omid:br/0612'), { doi: null, key: 'omid:br/0612' });
    const ok = openCitationsEdge('doi:10.9999/citing', 'https://doi.org/10.1000/CITED', '2011-03');
    assert.ok('edge' in ok);
    assert.deepEqual(ok.edge, {
      citingKey: 'doi:10.9999/citing',
      citingDoi: '10.9999/citing',
      date: { date: '2011-03-01', precision: 'month' },
      citedDoiKey: '10.1000/cited',
    });
    assert.deepEqual(openCitationsEdge('doi:10.9999/a', 'omid:br/1', '2011'), { skip: 'cited work has no DOI' });
    assert.deepEqual(openCitationsEdge('', '10.1000/a', '2011'), { skip: 'citing work has no identifier' });
    assert.deepEqual(openCitationsEdge('10.9999/a', '10.1000/a', 'soon'), { skip: 'unreadable citing date' });
  });

  it('reads OpenAlex works', () => {
    const work = openAlexWork({
      id: 'https://openalex.org/W123',
      doi: 'https://doi.org/10.5555/Q',
      publication_date: '2020-01-02',
      referenced_works: ['https://openalex.org/W9', 'W8'],
    });
    assert.deepEqual(work, { id: 'W123', doi: '10.5555/Q', date: { date: '2020-01-02', precision: 'day' }, referencedWorks: ['W9', 'W8'] });
    assert.equal(openAlexWork({ doi: 'x' }), null);
  });

  it('streams JSON arrays, API pages and JSON Lines element by element, whatever the chunking', async () => {
    const documents: [string, unknown[]][] = [
      ['[{"a":1},{"b":"x}]{\\""}, 3, {"c":[1,{"d":2}]}]', [{ a: 1 }, { b: 'x}]{"' }, { c: [1, { d: 2 }] }]],
      ['{"meta":{"count":2},"results":[{"id":"W1","x":"results"},{"id":"W2"}],"group_by":[]}', [{ id: 'W1', x: 'results' }, { id: 'W2' }]],
      ['{"id":1}\n{"id":2,"s":"\\"q"}\n', [{ id: 1 }, { id: 2, s: '"q' }]],
    ];
    for (const [text, expected] of documents) {
      for (const size of [1, 2, 5, 64, 100000]) {
        async function* chunks() {
          for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
        }
        const out: unknown[] = [];
        for await (const element of jsonElements(chunks())) out.push(element);
        assert.deepEqual(out, expected, `${text} in chunks of ${size}`);
      }
    }
    async function* broken() {
      yield '[{"a":1},{"b":';
    }
    await assert.rejects(async () => {
      for await (const _ of jsonElements(broken())) void _;
    }, /^TruncatedSourceError: JSON input is truncated: line 1: the JSON ends inside 2 unclosed bracket\(s\)/);
  });
});

describe('streamed CSV', () => {
  it('yields every row in bounded batches and fails on broken quoting', async () => {
    const dir = tempDir('csv');
    const good = path.join(dir, 'good.csv');
    fs.writeFileSync(good, 'a,b\n' + Array.from({ length: 2345 }, (_, i) => `${i},"x\ny${i}"`).join('\n') + '\n');
    const { header, batches } = await openCsv(good, 100);
    assert.deepEqual(header, ['a', 'b']);
    let rows = 0;
    let largest = 0;
    for await (const batch of batches) {
      largest = Math.max(largest, batch.length);
      for (const row of batch) assert.equal(row.cells[1], `x\ny${row.cells[0]}`);
      rows += batch.length;
    }
    assert.equal(rows, 2345);
    assert.ok(largest <= 100);
    const bad = path.join(dir, 'bad.csv');
    fs.writeFileSync(bad, 'a,b\n1,2\n3,"ab"c\n4,5\n');
    const opened = await openCsv(bad, 100);
    await assert.rejects(async () => {
      for await (const _ of opened.batches) void _;
    }, CsvFormatError);
    // A file that ends inside its last record is truncated, named by the line the record starts on.
    const cuts: [string, RegExp][] = [
      ['a,b\n1,2\n3,"unterminated\n4,5\n', /bad\.csv is truncated: line 3: the last record's quoted field is not closed/],
      ['a,b,c\n1,2,3\n\n4,"x\ny",6\n7,8', /bad\.csv is truncated: line 6: the last record has 2 of the 3 fields of the records before it/],
    ];
    for (const [text, message] of cuts) {
      fs.writeFileSync(bad, text);
      for (const size of [1, 100]) {
        const cut = await openCsv(bad, size);
        await assert.rejects(async () => {
          for await (const _ of cut.batches) void _;
        }, message);
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('democracy panel rows', () => {
  it('keeps covariates in file order and turns bad cells into nulls or skips', () => {
    const map = mapPanelHeader([
      'Country',
      'ISO3',
      'Region',
      'Year',
      'Democracy_Index',
      'Publications',
      'Retractions',
      'gdp',
      'press freedom',
    ]);
    assert.deepEqual(
      map.covariates.map(([n]) => n),
      ['gdp', 'press_freedom'],
    );
    const ok = parsePanelRow(['Chile', 'chl', 'LatAm', '2010', '7.5', '1200', '3', 'NA', 'abc'], map);
    assert.deepEqual(ok.record, {
      country: 'Chile',
      iso3: 'CHL',
      region: 'LatAm',
      year: 2010,
      democracy_index: 7.5,
      publications: 1200,
      retractions: 3,
      covariates: { gdp: null, press_freedom: null },
      unreadable: ['press_freedom'],
    });
    assert.deepEqual(ok.nonNumeric, ['press_freedom']);
    assert.equal(parsePanelRow(['', '', '', '2010', '1', '1', '1', '', ''], map).skip, 'missing country');
    assert.equal(parsePanelRow(['X', '', '', '20.5', '1', '1', '1', '', ''], map).skip, 'year not a whole number between 1800 and 2200');
    // A required count that cannot be read makes the row unreadable, naming its country and year.
    const negative = parsePanelRow(['X', '', '', '2010', '1', '1', '-2', '', ''], map);
    assert.deepEqual([negative.skip, negative.key, negative.record], ['unreadable retractions', { country: 'X', year: 2010 }, undefined]);
    assert.equal(parsePanelRow(['X', '', '', '2010', 'NA', '1', '1', '', ''], map).record!.democracy_index, null);
    assert.throws(() => mapPanelHeader(['country', 'year']), /missing column\(s\) democracy_index, publications, retractions/);
  });
});
