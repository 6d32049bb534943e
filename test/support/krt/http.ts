// Service B's HTTP app for the route tests (src/services/krt/routes/*.test.ts), on SQLite and PostgreSQL: a dozen
// real papers of the shared corpus, or the generated demo articles (never both: a real import removes demo data and
// demo data is never added beside real data), the request helpers every group's test uses, and the runner of a
// group's table of error cases.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeEachDatabase, needsSharedData } from '../databases.ts';
import type { TestDatabase } from '../databases.ts';
import { buildTestApp, testContext } from '../app.ts';
import type { ServiceApp } from '../../../src/core/service.ts';
import { krtService } from '../../../src/services/krt/service.ts';
import { importStore } from '../../../src/services/krt/import.ts';
import { loadKrtDemo } from '../../../src/services/krt/demo.ts';
import { corpusDir, linkStore } from './corpus.ts';

/** The paper with an author table that most assertions read. */
export const TABLE_DOI = '10.1101/2021.09.08.459408';

/**
 * Real papers, relative to the corpus directory: the two the domain tests name, then the first five others with an
 * author table and the first five without one, in the order of the corpus subset (corpus.ts corpusSubset), and two
 * papers that write antibody RRIDs the first one writes (the knowledge base is calibrated leave-one-paper-out: without
 * an RRID written by two papers there is nothing to calibrate on, and every confidence would be 1/2).
 * Listed rather than searched for (the search reads the whole corpus, ten seconds per test file); every expectation
 * is still computed from the domain extractor.
 */
const REAL_PAPERS = [
  '2021/2021.09.08.459408.xml',
  '2022/2022.10.21.513016.xml',
  '2020/2020.08.29.273425.xml',
  '2020/2020.08.31.275719.xml',
  '2020/2020.09.06.284778.xml',
  '2020/2020.10.11.335299.xml',
  '2020/2020.10.29.360479.xml',
  '2020/2020.08.27.269738.xml',
  '2020/2020.09.27.316174.xml',
  '2020/2020.10.30.362335.xml',
  '2020/2020.12.04.412585.xml',
  '2021/2021.08.23.457378.xml',
  '2021/2021.11.02.466951.xml',
  '2023/2023.11.15.567209.xml',
];

const gate = needsSharedData('krt', 'xml');
/** The real papers' files ([] when the shared corpus is absent: the suites then fail in CI and are skipped outside). */
export const real: string[] = gate.problem ? [] : REAL_PAPERS.map((p) => path.join(corpusDir(), p));

/** The file of the real paper whose name contains `part`. */
export const realFile = (part: string): string => {
  const file = real.find((f) => f.includes(part));
  assert.ok(file, `no real paper ${part}`);
  return file;
};

export interface Answer<T> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  raw: Buffer;
}

/** The error body of every Service B error. */
export interface ErrorBody {
  success: false;
  error: string;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD';
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  client?: string;
}

let clientCounter = 0;
/** A fresh client address per request unless a test pins one (rate limits count per client). */
const freshClient = () =>
  `10.${Math.floor(++clientCounter / 62500) % 250}.${Math.floor(clientCounter / 250) % 250}.${(clientCounter % 250) + 1}`;

export interface KrtHttp {
  readonly t: TestDatabase;
  readonly app: ServiceApp;
  /** The response body is typed by the caller (`Static<typeof …Response>`); JSON.parse of the body, or null. */
  request<T = unknown>(options: RequestOptions): Promise<Answer<T>>;
  get<T = unknown>(url: string, client?: string): Promise<Answer<T>>;
  post<T = unknown>(url: string, payload: unknown, client?: string): Promise<Answer<T>>;
}

/** Base host/api: the spec's path under /api, and the old host-root address. */
export const bothAddresses = (specPath: string): string[] => [`/api${specPath}`, specPath];

export function assertError(res: Answer<unknown>, status: number, message?: RegExp): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.body as Partial<ErrorBody>;
  assert.equal(body.success, false);
  assert.equal(typeof body.error, 'string');
  if (message) assert.match(body.error!, message);
}

export interface KrtHttpOptions {
  /** `real`: import the real papers (default); `demo`: load the generated demo articles; `none`: an empty service. */
  data?: 'real' | 'demo' | 'none';
  env?: Record<string, string>;
}

const DEFAULT_ENV = { PDI_KRT_ADMIN_TOKEN: 'secret-admin', PDI_KRT_LLM_BASE_URL: '', PDI_KRT_LLM_MODEL: '' };

/** A suite on both databases around Service B's app (see the file comment). */
export function describeKrtHttp(title: string, body: (h: KrtHttp) => void, options: KrtHttpOptions = {}): void {
  const data = options.data ?? 'real';
  describeEachDatabase(
    title,
    (t) => {
      let app: ServiceApp | undefined;
      let dir: string | undefined;
      let store: string | undefined;
      before(async () => {
        if (data === 'real' && gate.problem) throw new Error(gate.problem);
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'krt-routes-'));
        const ctx = testContext(krtService, t.db, { dataDir: dir, env: { ...process.env, ...DEFAULT_ENV, ...options.env } });
        if (data === 'real') {
          store = linkStore(real);
          await importStore(t.db, store, { workers: 0, progress: false });
          ctx.dataVersion.invalidate();
        }
        if (data === 'demo') await loadKrtDemo(ctx, {});
        app = await buildTestApp(krtService, ctx);
      });
      after(async () => {
        await app?.close();
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
        if (store) fs.rmSync(store, { recursive: true, force: true });
      });
      const request = async <T>(o: RequestOptions): Promise<Answer<T>> => {
        if (!app) throw new Error("the app is built in the suite's before hook");
        const res = await app.inject({
          method: o.method ?? 'GET',
          url: o.url,
          payload: o.payload as object,
          headers: o.headers,
          remoteAddress: o.client ?? freshClient(),
        });
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(res.body);
        } catch {
          /* not JSON */
        }
        return { status: res.statusCode, body: parsed as T, headers: res.headers, text: res.body, raw: res.rawPayload };
      };
      body({
        t,
        get app() {
          if (!app) throw new Error("the app is built in the suite's before hook");
          return app;
        },
        request,
        get: (url, client) => request({ url, client }),
        post: (url, payload, client) => request({ method: 'POST', url, payload, client }),
      });
    },
    { migrations: krtService.migrations },
  );
}

/** One row of a group's table of error cases. */
export interface ErrorCase {
  /** What is wrong with the request. */
  name: string;
  method?: RequestOptions['method'];
  /** The address, or how to find it (e.g. from a session id read first). */
  url: string | ((h: KrtHttp) => Promise<string>);
  payload?: unknown;
  headers?: Record<string, string>;
  status: number;
  /** The error message. */
  error?: RegExp;
  /** Further checks (headers). */
  also?: (res: Answer<unknown>) => void;
}

/** One test per error case: the status, a JSON error body, the message, and the case's own checks. */
export function itAnswersErrors(h: KrtHttp, cases: readonly ErrorCase[]): void {
  for (const c of cases) {
    it(`${c.status}: ${c.name}`, async () => {
      const url = typeof c.url === 'string' ? c.url : await c.url(h);
      const res = await h.request({
        method: c.method ?? (c.payload === undefined ? 'GET' : 'POST'),
        url,
        payload: c.payload,
        headers: c.headers,
      });
      assertError(res, c.status, c.error);
      c.also?.(res);
    });
  }
}
