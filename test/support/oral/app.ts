// Service A's HTTP app on a test database, filled as the route tests need it, and the table of error cases
// every route test file runs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, testContext } from '../app.ts';
import { needsSharedData, sharedData } from '../databases.ts';
import type { TestDatabase } from '../databases.ts';
import type { ServiceApp } from '../../../src/core/service.ts';
import { oralService } from '../../../src/services/oral/service.ts';
import { importPath } from '../../../src/services/oral/import.ts';
import { loadOralDemo } from '../../../src/services/oral/demo.ts';

const gate = needsSharedData('oral');

/**
 * The app over the demo data and the real files of ../shared/data/oral, imported in that order (as a user who
 * starts the server and then imports the real data). Throws when the shared data is missing.
 */
export async function oralAppWithData(t: TestDatabase): Promise<ServiceApp> {
  if (gate.problem) throw new Error(gate.problem);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-oral-demo-'));
  const ctx = testContext(oralService, t.db, { dataDir });
  await loadOralDemo(ctx, {});
  await importPath(ctx, sharedData('oral'));
  return buildTestApp(oralService, ctx);
}

/** A GET answered by the app: status, parsed body (typed as light-my-request parses it) and headers. */
export async function getJson(app: ServiceApp, url: string) {
  const res = await app.inject(url);
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

/** method, url, status, pattern of the error message */
export type ErrorCase = [method: 'GET' | 'POST' | 'DELETE', url: string, status: number, message: RegExp];

/** One test per case: the status, a JSON error body `{success: false, error}` whose message matches, and Allow on 405. */
export function answersErrors(app: () => ServiceApp, cases: readonly ErrorCase[]): void {
  for (const [method, url, status, message] of cases) {
    it(`answers ${method} ${url.slice(0, 60)} with ${status} and the JSON error body`, async () => {
      const res = await app().inject({ method, url });
      assert.equal(res.statusCode, status);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      const body = res.json();
      assert.equal(body.success, false);
      assert.match(body.error, message);
      if (status === 405) assert.equal(res.headers.allow, 'GET, HEAD');
    });
  }
}
