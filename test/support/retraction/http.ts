// Service E's HTTP test fixture, shared by the route tests (src/services/retraction/routes/*.test.ts): generated
// data plus hand-made rows (one per autocomplete ranking rule, formula-like titles, a title that needs Unicode
// case folding), imported on the suite's database, the real app for fastify.inject, and the table-of-errors runner.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import type { TestDatabase } from '../databases.ts';
import { buildTestApp, testContext } from '../app.ts';
import type { ServiceApp, ServiceContext } from '../../../src/core/service.ts';
import { retractionService } from '../../../src/services/retraction/service.ts';
import { writeGenerated } from '../../../src/services/retraction/demo.ts';
import { importCitations, importPanel, importRetractionWatch } from '../../../src/services/retraction/import.ts';
import { RW_COLUMNS } from '../../../src/services/retraction/sources/retraction-watch.ts';
import { GENERATED_MARKER } from '../../../src/services/retraction/sources/generated.ts';
import { simpleRow, tempDir } from './fixtures.ts';

export const TOKEN = 'zqxvorn';
// Hand-made rows: one per ranking rule of the autocomplete, formula-like titles (newest, so first in exports)
// and a title that needs Unicode case folding.
export const SPECIAL = [
  simpleRow(900001, { Title: 'Zqxvorn', OriginalPaperDOI: '10.5555/special.1' }),
  simpleRow(900002, { Title: 'Zqxvorn effects on kidneys', OriginalPaperDOI: '10.5555/special.2' }),
  simpleRow(900003, { Title: 'Role of zqxvorn in mice', OriginalPaperDOI: '10.5555/special.3' }),
  simpleRow(900004, { Title: 'Effects of zqxvorn exposure', OriginalPaperDOI: '10.5555/special.4' }),
  simpleRow(900005, { Title: 'Antizqxvorn therapy', OriginalPaperDOI: '10.5555/special.5' }),
  simpleRow(900006, { Title: 'A paper about lungs', Author: 'Zqxvorn Ames;Bo Checker', OriginalPaperDOI: '10.5555/special.6' }),
  simpleRow(900007, { Title: 'A paper about livers', Author: 'Bo Antizqxvorn', OriginalPaperDOI: '10.5555/special.7' }),
  simpleRow(900008, { Title: 'A paper about hearts', OriginalPaperDOI: '10.5555/zqxvorn.8' }),
  simpleRow(900011, { Title: '=HYPERLINK("http://evil.example","click")', RetractionDate: '12/31/2025 0:00' }),
  simpleRow(900012, { Title: '+SUM(1,2)', RetractionDate: '12/30/2025 0:00' }),
  simpleRow(900013, { Title: '-2+3 results', RetractionDate: '12/29/2025 0:00' }),
  simpleRow(900014, { Title: '@cmd trouble', RetractionDate: '12/28/2025 0:00' }),
  simpleRow(900015, {
    Title: 'ÉTUDE DES ÖLSTRÖME IM LABOR',
    OriginalPaperDOI: '10.5555/special.15',
    Journal: 'Revue Médicale de Montréal',
    Country: "Côte d'Ivoire",
    Reason: '+Plagiat de Données;',
    RetractionDate: '7/4/2011 0:00',
    OriginalPaperDate: '2/9/2009 0:00',
  }),
];
export const EXPECTED_ORDER = ['900001', '900002', '900004', '900003', '900005', '900006', '900007', '900008'];
export const GENERATED_PAPERS = 400;

export interface Response {
  status: number;
  /** The parsed JSON body (null for other content types), read field by field in the tests. */
  body: ReturnType<typeof JSON.parse>;
  text: string;
  raw: Buffer;
  headers: Record<string, string | string[] | number | undefined>;
}

export interface HttpFixture {
  readonly app: ServiceApp;
  readonly ctx: ServiceContext;
  readonly paperCount: number;
  /** A GET from a fresh client address, so that no test runs into another's rate limit by accident. */
  get(url: string, headers?: Record<string, string>): Promise<Response>;
  nextAddress(): string;
}

/** Registers the suite's before/after hooks; the fixture's fields are set once `before` has run. */
export function retractionHttpFixture(t: TestDatabase): HttpFixture {
  let app: ServiceApp;
  let ctx: ServiceContext;
  let dir: string;
  let client = 0;
  before(async () => {
    dir = tempDir('routes');
    const files = await writeGenerated(dir, { size: GENERATED_PAPERS, seed: 7, citationsPerPaper: 6 });
    // Append the hand-made rows to the generated files (with their generated marker: the data is demo data).
    fs.appendFileSync(
      files.retractionWatch,
      stringify(
        SPECIAL.map((r) => [...RW_COLUMNS.map((c) => r[c] ?? ''), GENERATED_MARKER.value]),
        { record_delimiter: '\r\n' },
      ),
    );
    const extra = [
      ['s1', 'doi:10.5555/c.1', 'doi:10.5555/special.4', '2021-01-01', GENERATED_MARKER.value],
      ['s2', 'doi:10.5555/c.2', 'doi:10.5555/special.4', '2021-02-01', GENERATED_MARKER.value],
      ['s3', 'doi:10.5555/c.3', 'doi:10.5555/special.4', '2019-01-01', GENERATED_MARKER.value],
    ];
    fs.appendFileSync(files.citations, stringify(extra, { record_delimiter: '\r\n' }));
    ctx = testContext(retractionService, t.db, { dataDir: dir });
    await importRetractionWatch(t.db, files.retractionWatch, { isDemo: true });
    await importCitations(t.db, files.citations, { isDemo: true });
    await importPanel(t.db, files.panel, { isDemo: true });
    app = await buildTestApp(retractionService, ctx);
  });
  after(async () => {
    await app?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  const nextAddress = () => `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client++ & 255}`;
  return {
    get app() {
      return app;
    },
    get ctx() {
      return ctx;
    },
    paperCount: GENERATED_PAPERS + SPECIAL.length,
    nextAddress,
    async get(url, headers = {}) {
      const res = await app.inject({ url, headers, remoteAddress: nextAddress() });
      const json = String(res.headers['content-type']).startsWith('application/json') && res.body ? res.json() : null;
      return { status: res.statusCode, body: json, text: res.body, raw: res.rawPayload, headers: res.headers };
    },
  };
}

/** [method, url, status, code, message] */
export type ErrorCase = [string, string, number, string, RegExp];

/** One test per bad input: the status, a JSON body of exactly {error, code}, the code and the message; Allow on 405. */
export function errorCases(fixture: HttpFixture, cases: ErrorCase[]): void {
  for (const [method, url, status, code, message] of cases) {
    it(`answers ${method} ${url.slice(0, 70)} with ${status} ${code}`, async () => {
      const res = await fixture.app.inject({ method: method as 'GET', url, remoteAddress: fixture.nextAddress() });
      assert.equal(res.statusCode, status);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      const body = res.json();
      assert.deepEqual(Object.keys(body), ['error', 'code']);
      assert.equal(body.code, code);
      assert.match(body.error, message);
      if (status === 405) assert.equal(res.headers.allow, 'GET, HEAD');
    });
  }
}
