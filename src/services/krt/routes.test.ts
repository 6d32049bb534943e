// Service B's HTTP contract on SQLite and PostgreSQL, over the demo articles plus a dozen real papers of the shared
// corpus: every endpoint at both addresses, the error table, DOI normalisation, exports read back (papaparse,
// read-excel-file, JSON), RRID validation statuses, chat sessions kept across messages and expiring, rate-limit
// groups (the 31st AI suggestion of a minute is a 429), the browser aliases and CORS, and the admin extraction route.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import readXlsxFile from 'read-excel-file/node';
import { describeEachDatabase, needsSharedData } from '../../../test/support/databases.ts';
import { buildTestApp, testContext } from '../../../test/support/app.ts';
import type { ServiceApp } from '../../core/service.ts';
import { guardFormula } from '../../core/export/index.ts';
import { krtService } from './service.ts';
import { importStore } from './import.ts';
import { loadKrtDemo } from './demo.ts';
import { KRT_COLUMNS, RESOURCE_TYPES } from './extract/index.ts';
import { RATE_LIMITS } from './routes.ts';
import { corpusSubset, domainExtraction, linkStore } from './test-support.ts';

const gate = needsSharedData('krt', 'xml');
// Real papers: the two the domain tests name, five more with an author table, five without.
const real = gate.problem
  ? []
  : (() => {
      const subset = corpusSubset();
      const named = subset.filter((f) => /2021\.09\.08\.459408|2022\.10\.21\.513016/.test(f));
      const tables = subset.filter((f) => !named.includes(f) && domainExtraction(f).extraction.provider === 'jats-table').slice(0, 5);
      const text = subset.filter((f) => domainExtraction(f).extraction.provider === 'text-pattern').slice(0, 5);
      return [...named, ...tables, ...text];
    })();
const TABLE_DOI = '10.1101/2021.09.08.459408';

let clientCounter = 0;
/** A fresh client address per request unless a test pins one (rate limits count per client). */
const freshClient = () =>
  `10.${Math.floor(++clientCounter / 62500) % 250}.${Math.floor(clientCounter / 250) % 250}.${(clientCounter % 250) + 1}`;

describeEachDatabase(
  'krt HTTP contract',
  (t) => {
    let app: ServiceApp;
    let dir: string;
    let store: string;
    before(async () => {
      if (gate.problem) throw new Error(gate.problem);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'krt-routes-'));
      store = linkStore(real);
      const ctx = testContext(krtService, t.db, {
        dataDir: dir,
        env: { ...process.env, PDI_KRT_ADMIN_TOKEN: 'secret-admin', PDI_KRT_LLM_BASE_URL: '', PDI_KRT_LLM_MODEL: '' },
      });
      await loadKrtDemo(ctx, {});
      await importStore(t.db, store, { workers: 0, progress: false });
      ctx.dataVersion.invalidate();
      app = await buildTestApp(krtService, ctx);
    });
    after(async () => {
      await app?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      if (store) fs.rmSync(store, { recursive: true, force: true });
    });

    const request = async (options: {
      method?: string;
      url: string;
      payload?: unknown;
      headers?: Record<string, string>;
      client?: string;
    }) => {
      const res = await app.inject({
        method: (options.method ?? 'GET') as 'GET',
        url: options.url,
        payload: options.payload as object,
        headers: options.headers,
        remoteAddress: options.client ?? freshClient(),
      });
      let body: any = null;
      try {
        body = res.json();
      } catch {
        /* not JSON */
      }
      return { status: res.statusCode, body, headers: res.headers, text: res.body, raw: res.rawPayload };
    };
    const get = (url: string, client?: string) => request({ url, client });
    const post = (url: string, payload: unknown, client?: string) => request({ method: 'POST', url, payload, client });
    const bothAddresses = (specPath: string) => {
      // Base host/api: the spec's path under /api, and the old host-root address.
      return [`/api${specPath}`, specPath];
    };
    const assertError = (res: { status: number; body: any; headers: Record<string, unknown> }, status: number, message?: RegExp) => {
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.equal(res.body.success, false);
      assert.equal(typeof res.body.error, 'string');
      if (message) assert.match(res.body.error, message);
    };

    it('check-doi-local: GET and POST at both addresses, every usual DOI form normalised, absent DOIs available:false', async () => {
      const forms = [
        TABLE_DOI,
        `doi:${TABLE_DOI}`,
        `https://doi.org/${TABLE_DOI.toUpperCase()}`,
        `https://www.biorxiv.org/content/${TABLE_DOI}v2.full.pdf`,
        `${TABLE_DOI}v3`,
        '2021.09.08.459408',
        encodeURIComponent(TABLE_DOI),
      ];
      const article = domainExtraction(real.find((f) => f.includes('459408'))!).extraction.metadata;
      for (const url of bothAddresses('/check-doi-local/')) {
        for (const form of forms) {
          const res = await get(`${url}?doi=${encodeURIComponent(form)}`);
          assert.equal(res.status, 200, form);
          assert.deepEqual(Object.keys(res.body), [
            'success',
            'available',
            'doi',
            'title',
            'file_size',
            'downloaded_at',
            'local_file_available',
            'can_extract_krt',
            'total_sessions',
            'metadata',
          ]);
          assert.equal(res.body.doi, TABLE_DOI, form);
          assert.equal(res.body.available, true);
          assert.equal(res.body.local_file_available, true);
          assert.equal(res.body.can_extract_krt, true);
          assert.equal(res.body.total_sessions, 1);
          assert.equal(res.body.title, article.title);
          assert.deepEqual(res.body.metadata, {
            title: article.title,
            authors: article.authors,
            date: article.publicationDate,
            journal: article.journal,
            is_preprint: true,
            is_demo: false,
          });
          assert.match(res.body.downloaded_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
          assert.equal(res.body.file_size, fs.statSync(real.find((f) => f.includes('459408'))!).size);
        }
        const posted = await post(url, { doi: `https://doi.org/${TABLE_DOI}` });
        assert.equal(posted.status, 200);
        assert.equal(posted.body.doi, TABLE_DOI);
        const absent = await get(`${url}?doi=10.1101/2099.01.01.000001`);
        assert.equal(absent.status, 200);
        assert.deepEqual(absent.body, {
          success: true,
          available: false,
          doi: '10.1101/2099.01.01.000001',
          title: null,
          file_size: null,
          downloaded_at: null,
          local_file_available: false,
          can_extract_krt: false,
          total_sessions: 0,
          metadata: null,
        });
        const demo = await get(`${url}?doi=10.1101/demo.2021.0001`);
        assert.equal(demo.body.metadata.is_demo, true);
        assert.match(demo.body.title, /Generated demo/);
      }
    });

    it('check-doi-local: 400 for a missing or malformed DOI, 415 for a body that is not JSON, 413 for a body over 1 MiB', async () => {
      assertError(await get('/api/check-doi-local/'), 400, /^doi is required$/);
      assertError(await get('/check-doi-local/?doi='), 400, /^doi is required$/);
      assertError(await get('/check-doi-local/?doi=not-a-doi'), 400, /^doi must be a DOI/);
      assertError(await get('/check-doi-local/?doi=https://example.org/page'), 400, /^doi must be a DOI/);
      assertError(await post('/api/check-doi-local/', {}), 400, /^doi is required$/);
      assertError(await post('/api/check-doi-local/', { doi: 'nope' }), 400, /^doi must be a DOI/);
      assertError(
        await request({
          method: 'POST',
          url: '/api/check-doi-local/',
          payload: 'doi=10.1101/x',
          headers: { 'content-type': 'text/plain' },
        }),
        415,
      );
      assertError(
        await request({
          method: 'POST',
          url: '/check-doi-local/',
          payload: `{"doi":"${'x'.repeat(1_100_000)}"}`,
          headers: { 'content-type': 'application/json' },
        }),
        413,
      );
      assertError(
        await request({ method: 'POST', url: '/check-doi-local/', payload: '{"doi":', headers: { 'content-type': 'application/json' } }),
        400,
        /not valid JSON/,
      );
      const wrong = await request({ method: 'DELETE', url: '/api/check-doi-local/' });
      assertError(wrong, 405);
      assert.equal(wrong.headers.allow, 'GET, HEAD, POST');
      assertError(await get('/api/no-such-route/'), 404);
    });

    it('doi-suggestions: q matches DOI and title, best match then newest, limit default 10 and clamped to 50, totals', async () => {
      for (const url of bothAddresses('/doi-suggestions/')) {
        const all = await get(url);
        assert.equal(all.status, 200);
        assert.equal(all.body.total_available, real.length + 6);
        assert.equal(all.body.suggestions.length, 10);
        assert.deepEqual([all.body.query, all.body.limit], ['', 10]);
        const dates = all.body.suggestions.map((s: { publication_date: string }) => s.publication_date);
        assert.deepEqual(dates, [...dates].sort().reverse(), 'newest first');
        for (const s of all.body.suggestions)
          assert.deepEqual(Object.keys(s), ['doi', 'title', 'authors', 'publication_date', 'file_size', 'is_demo']);
        const clamped = await get(`${url}?limit=500`);
        assert.equal(clamped.body.limit, 50);
        assert.equal(clamped.body.suggestions.length, real.length + 6);
        const byDoi = await get(`${url}?q=${encodeURIComponent(`https://doi.org/${TABLE_DOI}v1`)}`);
        assert.equal(byDoi.body.suggestions[0].doi, TABLE_DOI, 'a DOI in any form is looked up as the DOI');
        assert.equal(byDoi.body.total_available, 1);
        const title = domainExtraction(real.find((f) => f.includes('459408'))!).extraction.metadata.title;
        const words = title
          .split(/\s+/)
          .filter((w) => w.length > 4)
          .slice(0, 2)
          .map((w) => w.toUpperCase())
          .join(' ');
        const byWords = await get(`${url}?q=${encodeURIComponent(` ${words} `)}`);
        assert.equal(byWords.body.query, words, 'q is echoed trimmed');
        assert.ok(
          byWords.body.suggestions.some((s: { doi: string }) => s.doi === TABLE_DOI),
          words,
        );
        const demo = await get(`${url}?q=fictional%20study&limit=3`);
        assert.equal(demo.body.total_available, 6);
        assert.equal(demo.body.suggestions.length, 3);
        assert.ok(demo.body.suggestions.every((s: { is_demo: boolean }) => s.is_demo));
        const prefix = await get(`${url}?q=10.1101/demo.2022`);
        assert.deepEqual(prefix.body.suggestions.map((s: { doi: string }) => s.doi).sort(), [
          '10.1101/demo.2022.0002',
          '10.1101/demo.2022.0006',
        ]);
        const prefixDates = prefix.body.suggestions.map((s: { publication_date: string }) => s.publication_date);
        assert.ok(prefixDates[0] > prefixDates[1], 'both match the prefix equally: newest first');
        const exact = await get(`${url}?q=10.1101/demo.2022.0006`);
        assert.equal(exact.body.suggestions[0].doi, '10.1101/demo.2022.0006', 'the exact DOI first');
        const none = await get(`${url}?q=zzzqqqxxx`);
        assert.deepEqual([none.body.suggestions, none.body.total_available], [[], 0]);
        assert.deepEqual((await get(`${url}?q=fictional&limit=4`)).body, (await get(`${url}?q=fictional&limit=4`)).body, 'deterministic');
      }
      assertError(await get('/api/doi-suggestions/?limit=0'), 400, /^limit must be at least 1$/);
      assertError(await get('/api/doi-suggestions/?limit=abc'), 400, /^limit must be an integer$/);
      const first = await get('/api/doi-suggestions/?q=fictional');
      assert.equal(first.headers['cache-control'], 'public, max-age=60');
      const cached = await request({ url: '/api/doi-suggestions/?q=fictional', headers: { 'if-none-match': String(first.headers.etag) } });
      assert.equal(cached.status, 304);
    });

    it('krt by session and by DOI (slashes raw or %2F) at both addresses; the author table is the best table; 404s', async () => {
      const expected = domainExtraction(real.find((f) => f.includes('459408'))!).extraction;
      for (const base of ['/api/api/krt', '/api/krt']) {
        for (const form of [TABLE_DOI, encodeURIComponent(TABLE_DOI), `https://doi.org/${TABLE_DOI}`.replace(/\//g, '%2F')]) {
          const res = await get(`${base}/doi/${form}/`);
          assert.equal(res.status, 200, form);
          assert.deepEqual(Object.keys(res.body), ['success', 'doi', 'session_id', 'krt_data', 'summary', 'article_info']);
          assert.equal(res.body.doi, TABLE_DOI);
          assert.deepEqual(res.body.krt_data, expected.rows);
          const fresh = expected.rows.filter((r) => r['NEW/REUSE'] === 'new').length;
          assert.deepEqual(res.body.summary, {
            total_resources: expected.rows.length,
            new_resources: fresh,
            reused_resources: expected.rows.length - fresh,
            total_sessions: 1,
            provider: 'jats-table',
            model: 'krt-table-1',
          });
          assert.deepEqual(res.body.article_info, {
            title: expected.metadata.title,
            authors: expected.metadata.authors,
            publication_date: expected.metadata.publicationDate,
            journal: expected.metadata.journal,
            is_preprint_paper: true,
            is_biorxiv_paper: true,
            is_demo: false,
          });
        }
        const noSlash = await get(`${base}/doi/${TABLE_DOI}`);
        assert.equal(noSlash.status, 200);
        const id = noSlash.body.session_id;
        const session = await get(`${base}/${id}/`);
        assert.equal(session.status, 200);
        assert.deepEqual(Object.keys(session.body), [
          'success',
          'session_id',
          'doi',
          'title',
          'status',
          'error',
          'created_at',
          'krt_data',
          'summary',
        ]);
        assert.deepEqual(session.body.krt_data, expected.rows);
        assert.equal(session.body.status, 'completed');
        assert.equal(session.body.summary.total_resources, expected.rows.length);
        assert.equal(session.body.summary.provider, 'jats-table');
        assert.equal(session.body.summary.model, 'krt-table-1');
        assert.equal(typeof session.body.summary.processing_time, 'number');
        for (const row of session.body.krt_data) {
          assert.deepEqual(Object.keys(row), [...KRT_COLUMNS]);
          assert.ok((RESOURCE_TYPES as readonly string[]).includes(row['RESOURCE TYPE']));
        }
        assertError(await get(`${base}/00000000-0000-5000-8000-000000000000/`), 404, /not found/);
        assertError(await get(`${base}/doi/10.1101/2099.01.01.000001/`), 404, /no extraction session/);
        assertError(await get(`${base}/doi/not-a-doi/`), 400, /^doi must be a DOI/);
        assertError(await get(`${base}/doi/`), 400, /^doi is required$/);
      }
      const text = real.find((f) => domainExtraction(f).extraction.provider === 'text-pattern')!;
      const textDoi = domainExtraction(text).doi;
      const textTable = await get(`/api/api/krt/doi/${textDoi}/`);
      assert.equal(textTable.body.summary.provider, 'text-pattern');
      assert.deepEqual(textTable.body.krt_data, domainExtraction(text).extraction.rows);
    });

    it("exports json, csv and excel with the contract's file names, read back; 400 for other formats, 404 for unknown sessions", async () => {
      const table = (await get(`/api/api/krt/doi/${TABLE_DOI}/`)).body;
      const id = table.session_id;
      for (const base of ['/api/export', '/export']) {
        const json = await get(`${base}/${id}/json/`);
        assert.equal(json.status, 200);
        assert.match(String(json.headers['content-type']), /^application\/json/);
        assert.equal(json.headers['content-disposition'], `attachment; filename="krt_${id}.json"`);
        assert.ok(json.text.includes('\n  "session_id"'), 'pretty-printed');
        assert.deepEqual(Object.keys(json.body), [
          'title',
          'session_id',
          'doi',
          'processing_date',
          'provider',
          'model',
          'resources_found',
          'krt_data',
          'is_demo',
        ]);
        assert.deepEqual(
          [json.body.session_id, json.body.doi, json.body.provider, json.body.model, json.body.resources_found],
          [id, TABLE_DOI, 'jats-table', 'krt-table-1', table.krt_data.length],
        );
        assert.deepEqual(json.body.krt_data, table.krt_data);

        const csv = await get(`${base}/${id}/csv`);
        assert.match(String(csv.headers['content-type']), /^text\/csv/);
        assert.equal(csv.headers['content-disposition'], `attachment; filename="krt_${id}.csv"`);
        const parsed = Papa.parse<string[]>(csv.text, { header: false, skipEmptyLines: true }).data;
        assert.deepEqual(parsed[0], [...KRT_COLUMNS]);
        assert.deepEqual(
          parsed.slice(1),
          table.krt_data.map((r: Record<string, string>) => KRT_COLUMNS.map((c) => guardFormula(r[c]))),
        );

        const xlsx = await get(`${base}/${id}/excel/`);
        assert.equal(xlsx.headers['content-type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
        assert.equal(xlsx.headers['content-disposition'], `attachment; filename="krt_${id}.xlsx"`);
        const [sheet] = await readXlsxFile(xlsx.raw, { trim: false });
        const rows = sheet.data.map((r: unknown[]) => r.map((c) => (c === null || c === undefined ? '' : String(c))));
        const header = rows.findIndex((r: string[]) => r.join('|') === KRT_COLUMNS.join('|'));
        assert.ok(header > 0, 'title rows, then the header');
        assert.equal(rows[0][0], 'Key Resources Table');
        assert.ok(rows.slice(0, header).some((r: string[]) => r[0] === 'DOI' && r[1] === TABLE_DOI));
        assert.deepEqual(
          rows.slice(header + 1),
          table.krt_data.map((r: Record<string, string>) => KRT_COLUMNS.map((c) => r[c])),
        );

        assertError(await get(`${base}/${id}/pdf/`), 400, /^format must be one of: json, csv, excel/);
        assertError(await get(`${base}/no-such-session/csv/`), 404, /not found/);
      }
    });

    it('validate-rrid: valid (written by a paper of the store), unverified, invalid with the obvious correction, then from the cache', async () => {
      const table = domainExtraction(real.find((f) => f.includes('459408'))!).extraction.rows;
      const known = /RRID:(AB_\d+)/.exec(table.map((r) => r.IDENTIFIER).join(' '))![1];
      const all = real.flatMap((f) => domainExtraction(f).extraction.rows.map((r) => r.IDENTIFIER)).join(' ');
      let unknown = known.replace(/\d$/, (d) => String((Number(d) + 1) % 10));
      while (all.includes(unknown)) unknown = unknown.replace(/\d$/, (d) => String((Number(d) + 1) % 10));
      const valid = await post('/api/api/ai/validate-rrid/', { rrid: `rrid: ${known}` });
      assert.equal(valid.status, 200);
      assert.deepEqual(Object.keys(valid.body.validation), [
        'rrid',
        'is_valid',
        'status',
        'confidence_score',
        'recommendations',
        'last_checked',
        'source',
        'registry',
        'papers',
      ]);
      assert.deepEqual(
        [valid.body.validation.rrid, valid.body.validation.status, valid.body.validation.is_valid, valid.body.validation.source],
        [`RRID:${known}`, 'valid', true, 'fresh'],
      );
      assert.ok(valid.body.validation.papers >= 1);
      const again = await post('/api/ai/validate-rrid/', { rrid: `rrid: ${known}` });
      assert.equal(again.body.validation.source, 'cache');
      assert.equal(again.body.validation.status, 'valid');
      const unverified = (await post('/api/ai/validate-rrid/', { rrid: `RRID:${unknown}` })).body.validation;
      assert.deepEqual([unverified.status, unverified.is_valid], ['unverified', false]);
      assert.match(unverified.recommendations[0], /scicrunch\.org\/resolver\/RRID:/);
      const invalid = (await post('/api/ai/validate-rrid/', { rrid: 'AB-123' })).body.validation;
      assert.deepEqual([invalid.status, invalid.is_valid], ['invalid', false]);
      assert.match(invalid.recommendations[0], /^Did you mean RRID:AB_123\?/);
      assert.equal((await post('/api/ai/validate-rrid/', { rrid: 'XYZ:42' })).body.validation.confidence_score, 0);
      // Demo RRIDs are written only by generated articles: never reported as valid.
      const demo = (await post('/api/ai/validate-rrid/', { rrid: 'RRID:AB_0000101' })).body.validation;
      assert.deepEqual([demo.status, demo.is_valid], ['unverified', false]);
      assert.match(demo.recommendations[0], /only in generated demo articles/);
      assertError(await post('/api/ai/validate-rrid/', {}), 400, /^rrid is required$/);
      assertError(await post('/api/ai/validate-rrid/', { rrid: '  ' }), 400, /^rrid must not be empty$/);
    });

    it('suggest-rrid and recommend: RRIDs only from the store, calibrated confidence, empty when nothing matches', async () => {
      const table = domainExtraction(real.find((f) => f.includes('459408'))!).extraction.rows;
      const row = table.find((r) => /RRID:AB_/.test(r.IDENTIFIER) && /Cat#/.test(r.IDENTIFIER))!;
      const catalog = /Cat# ([^;]+)/.exec(row.IDENTIFIER)![1];
      const res = await post('/api/api/ai/suggest-rrid/', {
        resource_name: row['RESOURCE NAME'],
        resource_type: 'antibody',
        vendor: row.SOURCE,
        catalog_number: catalog,
      });
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body), ['success', 'total_found', 'response_time', 'suggestions']);
      const top = res.body.suggestions[0];
      assert.equal(top.suggested_rrid, /RRID:AB_\d+/.exec(row.IDENTIFIER)![0]);
      assert.deepEqual(Object.keys(top), [
        'id',
        'suggested_rrid',
        'confidence_score',
        'reasoning',
        'vendor',
        'catalog_number',
        'resource_name',
        'resource_type',
        'papers',
      ]);
      assert.ok(top.confidence_score > 0 && top.confidence_score < 1);
      assert.notEqual(top.confidence_score, 0.5, 'calibrated, not the uncalibrated 1/2');
      assert.match(top.reasoning, /catalog number .* is listed with this RRID/);
      assert.equal(res.body.total_found, res.body.suggestions.length);
      const all = real.flatMap((f) => domainExtraction(f).extraction.rows.map((r) => r.IDENTIFIER)).join(' ') + ' AB_00001';
      for (const s of res.body.suggestions) assert.ok(all.includes(s.suggested_rrid.replace('RRID:', '')), s.suggested_rrid);
      const none = await post('/api/ai/suggest-rrid/', { resource_name: 'quantum flux capacitor widget' });
      assert.deepEqual([none.status, none.body.suggestions, none.body.total_found], [200, [], 0]);
      const demo = await post('/api/ai/suggest-rrid/', { resource_name: 'rabbit anti-histone H3 (generated demo)', limit: 1 });
      assert.equal(demo.body.suggestions.length, 1);
      assert.match(demo.body.suggestions[0].reasoning, /generated demo articles/);
      assertError(await post('/api/ai/suggest-rrid/', { vendor: 'Abcam' }), 400, /^resource_name is required$/);
      assertError(await post('/api/ai/suggest-rrid/', { resource_name: 'x', limit: 0 }), 400, /^limit must be at least 1$/);

      const rec = await post('/api/api/ai/recommend/', {
        resource_name: 'rabbit anti-histone H3 antibody',
        context: { vendor: 'Example Biosciences (demo)' },
      });
      assert.equal(rec.status, 200);
      assert.deepEqual(Object.keys(rec.body), ['success', 'recommendations', 'total_found', 'response_time']);
      for (const r of rec.body.recommendations) {
        assert.equal(r.availability_status, 'unknown');
        assert.ok(['functional_equivalent', 'alternative_vendor', 'alternative_clone', 'updated_version'].includes(r.recommendation_type));
        assert.ok(r.confidence_score > 0 && r.confidence_score <= 1);
      }
      assert.deepEqual(
        (await post('/api/ai/recommend/', { resource_name: 'anti-nonexistentprotein999 antibody' })).body.recommendations,
        [],
      );
      assertError(await post('/api/ai/recommend/', { resource_name: 'x', context: 'text' }), 400, /^context must be of type object/);
    });

    it('chat: one session keeps its table across messages, asks for what is missing, exports, and expires after inactivity', async () => {
      const say = async (message: string, session_id?: string) => {
        const res = await post('/api/api/ai/chat/', session_id ? { message, session_id } : { message });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body;
      };
      const first = await say('Add rabbit anti-GFP antibody from Abcam, catalog ab290');
      assert.deepEqual(Object.keys(first), [
        'success',
        'session_id',
        'response',
        'intent',
        'krt_entries',
        'needs_clarification',
        'clarifications',
        'response_time',
        'export',
      ]);
      assert.match(first.session_id, /^[0-9a-f-]{36}$/);
      assert.equal(first.intent, 'add_resource');
      assert.deepEqual(
        first.krt_entries.map((r: Record<string, string>) => [r['RESOURCE TYPE'], r.SOURCE, r.IDENTIFIER.split(';')[0]]),
        [['Antibody', 'Abcam', 'Cat# ab290']],
      );
      const id = first.session_id;
      const ask = await say('add an antibody', id);
      assert.equal(ask.needs_clarification, true);
      assert.ok(ask.clarifications.length >= 1);
      assert.equal(ask.krt_entries.length, 1, 'nothing added without a name');
      const answered = await say('mouse anti-FLAG M2', id);
      assert.equal(answered.intent, 'clarification_answer');
      assert.equal(answered.krt_entries.length, 2);
      await say('Sigma-Aldrich', id);
      const done = await say('F1804', id);
      assert.equal(done.krt_entries[1].IDENTIFIER, 'Cat# F1804');
      const removed = await say('remove row 1', id);
      assert.equal(removed.intent, 'remove_resource');
      assert.deepEqual(
        removed.krt_entries.map((r: Record<string, string>) => r['RESOURCE NAME']),
        ['Mouse anti-FLAG M2'],
      );
      const exported = await say('export as csv', id);
      assert.equal(exported.intent, 'export');
      assert.deepEqual(exported.export, { format: 'csv', url: `/api/export/${id}/csv/` });
      const csv = await get(exported.export.url);
      assert.equal(csv.status, 200);
      assert.deepEqual(Papa.parse<string[]>(csv.text, { skipEmptyLines: true }).data.slice(1), [
        ['Antibody', 'Mouse anti-FLAG M2', 'Sigma-Aldrich', 'Cat# F1804', 'reuse', ''],
      ]);
      // Another session does not see this table.
      assert.equal((await say('list resources')).krt_entries.length, 0);
      // 24 hours without a message: the session has expired, the id starts an empty table.
      await t.db.kysely
        .updateTable('krt_chat_sessions')
        .set({ updated_at: new Date(Date.now() - 25 * 3600 * 1000).toISOString() })
        .where('id', '=', id)
        .execute();
      assert.equal((await say('list resources', id)).krt_entries.length, 0);
      assertError(await post('/api/ai/chat/', { message: '' }), 400, /^message must not be empty$/);
      assertError(await post('/api/ai/chat/', { message: 'hi', session_id: 'bad id!' }), 400, /^session_id /);
    });

    it('rate limits: the 31st AI suggestion of a minute is a 429 with Retry-After, both addresses share a group, browser routes count only in theirs', async () => {
      const client = '198.51.100.31';
      for (let i = 0; i < RATE_LIMITS['ai-suggestions']; i++) {
        const res = await post(i % 2 ? '/api/api/ai/suggest-rrid/' : '/api/ai/suggest-rrid/', { resource_name: 'anti-GFP' }, client);
        assert.equal(res.status, 200);
        assert.equal(res.headers['x-ratelimit-limit'], '30');
        assert.equal(res.headers['x-ratelimit-remaining'], String(29 - i));
        assert.ok(Number(res.headers['x-ratelimit-reset']) > 0);
      }
      const limited = await post('/api/api/ai/suggest-rrid/', { resource_name: 'anti-GFP' }, client);
      assertError(limited, 429, /rate limit exceeded for ai-suggestions: 30 requests per 60 seconds/);
      assert.ok(Number(limited.headers['retry-after']) > 0);
      assert.equal(limited.headers['x-ratelimit-remaining'], '0');
      // Other groups of the same client are not affected; browser requests count in the browser group only.
      const browser = await post('/api/api/browser/suggest-rrid/', { resource_name: 'anti-GFP' }, client);
      assert.equal(browser.status, 200);
      assert.equal(browser.headers['x-ratelimit-limit'], '100');
      const other = '198.51.100.32';
      for (let i = 0; i < 5; i++) await post('/api/browser/suggest-rrid/', { resource_name: 'anti-GFP' }, other);
      await get('/api/suggest-rrid/?resource_name=anti-GFP', other);
      const ai = await post('/api/ai/suggest-rrid/', { resource_name: 'anti-GFP' }, other);
      assert.equal(ai.headers['x-ratelimit-remaining'], '29');
      const lastBrowser = await post('/api/browser/validate-rrid/', { rrid: 'AB_1' }, other);
      assert.equal(lastBrowser.headers['x-ratelimit-remaining'], String(100 - 7));
      // Every group carries the headers, errors included.
      for (const [url, limit] of [
        ['/api/check-doi-local/?doi=x', 100],
        ['/doi-suggestions/', 50],
        ['/api/export/x/csv/', 20],
        ['/api/krt/x/', 100],
      ] as const) {
        const res = await get(url);
        assert.equal(res.headers['x-ratelimit-limit'], String(limit), url);
      }
      assert.equal((await post('/api/ai/validate-rrid/', { rrid: 'AB_1' })).headers['x-ratelimit-limit'], '60');
      assert.equal((await post('/api/ai/recommend/', { resource_name: 'x' })).headers['x-ratelimit-limit'], '20');
      assert.equal((await post('/api/ai/chat/', { message: 'help' })).headers['x-ratelimit-limit'], '10');
    });

    it("browser routes: the AI bodies plus the extension's aliases, with CORS for any origin and preflights answered 204", async () => {
      const origin = { origin: 'https://www.overleaf.com' };
      for (const url of ['/api/api/browser/suggest-rrid/', '/api/browser/suggest-rrid/']) {
        const res = await request({ method: 'POST', url, payload: { resource_name: 'rabbit anti-GFP (generated demo)' }, headers: origin });
        assert.equal(res.status, 200);
        assert.equal(res.headers['access-control-allow-origin'], '*');
        assert.equal(res.body.status, 'success');
        assert.ok(res.body.suggestions.length > 0);
        for (const s of res.body.suggestions) {
          assert.equal(s.rrid, s.suggested_rrid);
          assert.equal(s.confidence, s.confidence_score);
          assert.equal(s.catalog, s.catalog_number);
          assert.deepEqual(s.additional_info, {});
        }
        const preflight = await request({
          method: 'OPTIONS',
          url,
          headers: { ...origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
        });
        assert.equal(preflight.status, 204);
        assert.equal(preflight.headers['access-control-allow-origin'], '*');
        assert.equal(preflight.headers['access-control-allow-methods'], 'GET, POST, OPTIONS');
        assert.equal(preflight.headers['access-control-allow-headers'], 'Content-Type');
        assert.equal(preflight.headers['access-control-max-age'], '86400');
      }
      for (const url of ['/api/api/browser/validate-rrid/', '/api/browser/validate-rrid']) {
        const res = await request({ method: 'POST', url, payload: { rrid: 'AB-123' }, headers: origin });
        assert.equal(res.headers['access-control-allow-origin'], '*');
        assert.deepEqual([res.body.success, res.body.status, res.body.validation.status], [true, 'success', 'invalid']);
        assert.equal(
          (await request({ method: 'OPTIONS', url, headers: { ...origin, 'access-control-request-method': 'POST' } })).status,
          204,
        );
      }
      for (const url of ['/api/api/suggest-rrid/', '/api/suggest-rrid/']) {
        const q = new URLSearchParams({
          resource_name: 'rabbit anti-GFP (generated demo)',
          resource_type: 'antibody',
          vendor: 'Demo Antibody Co. (demo)',
          catalog_number: 'DEMO-AB-0101',
        });
        const res = await request({ url: `${url}?${q}`, headers: origin });
        assert.equal(res.status, 200);
        assert.equal(res.headers['access-control-allow-origin'], '*');
        assert.equal(res.body.suggestions[0].rrid, 'RRID:AB_0000101');
        assert.equal(
          (await request({ method: 'OPTIONS', url, headers: { ...origin, 'access-control-request-method': 'GET' } })).status,
          204,
        );
      }
      // Errors of browser routes are readable by the page too.
      const bad = await request({ method: 'POST', url: '/api/api/browser/suggest-rrid/', payload: {}, headers: origin });
      assertError(bad, 400, /^resource_name is required$/);
      assert.equal(bad.headers['access-control-allow-origin'], '*');
      // The AI routes are not cross-origin, and no other route answers preflights.
      const ai = await request({ method: 'POST', url: '/api/api/ai/suggest-rrid/', payload: { resource_name: 'x' }, headers: origin });
      assert.equal(ai.headers['access-control-allow-origin'], undefined);
      assertError(
        await request({
          method: 'OPTIONS',
          url: '/api/api/ai/suggest-rrid/',
          headers: { ...origin, 'access-control-request-method': 'POST' },
        }),
        405,
      );
      assertError(
        await request({
          method: 'OPTIONS',
          url: '/api/api/browser/nothing/',
          headers: { ...origin, 'access-control-request-method': 'POST' },
        }),
        404,
      );
      assertError(await request({ method: 'GET', url: '/api/api/browser/suggest-rrid/' }), 405);
    });

    it('POST /api/krt/extract/ needs the admin token (401 without, 403 wrong); the same file gives the same session', async () => {
      const url = '/api/api/krt/extract/';
      assertError(await request({ method: 'POST', url, payload: { doi: TABLE_DOI } }), 401, /admin token is required/);
      assertError(await request({ method: 'POST', url, payload: { doi: TABLE_DOI }, headers: { authorization: 'Bearer nope' } }), 403);
      const headers = { authorization: 'Bearer secret-admin' };
      assertError(
        await request({ method: 'POST', url, payload: { doi: '10.1101/2099.01.01.000001' }, headers }),
        404,
        /not in the local store/,
      );
      assertError(await request({ method: 'POST', url, payload: { doi: 'x' }, headers }), 400);
      assertError(
        await request({ method: 'POST', url, payload: { doi: TABLE_DOI, provider: 'llm' }, headers }),
        400,
        /no language-model provider is configured/,
      );
      const before_ = (await get(`/api/krt/doi/${TABLE_DOI}/`)).body.session_id;
      const res = await request({ method: 'POST', url: '/api/krt/extract/', payload: { doi: `doi:${TABLE_DOI}` }, headers });
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.body.sessions.map((s: { session_id: string; change: string; provider: string }) => [s.session_id, s.change, s.provider]),
        [[before_, 'unchanged', 'jats-table']],
      );
    });

    it("publishes OpenAPI with the specification's addresses only", async () => {
      const doc = (await get('/openapi.json')).body;
      const paths = Object.keys(doc.paths);
      for (const p of [
        '/api/check-doi-local/',
        '/api/doi-suggestions/',
        '/api/api/krt/{session_id}/',
        '/api/export/{session_id}/{format}/',
        '/api/api/ai/suggest-rrid/',
        '/api/api/ai/validate-rrid/',
        '/api/api/ai/recommend/',
        '/api/api/ai/chat/',
        '/api/api/browser/suggest-rrid/',
        '/api/api/browser/validate-rrid/',
        '/api/api/suggest-rrid/',
      ]) {
        assert.ok(paths.includes(p), `${p} in ${paths.join(' ')}`);
      }
      assert.ok(!paths.includes('/check-doi-local/'));
      assert.ok(!paths.includes('/api/krt/{session_id}/'));
    });
  },
  { migrations: krtService.migrations },
);

describeEachDatabase(
  'krt without an admin token',
  (t) => {
    it('POST /api/krt/extract/ answers 404: extraction over HTTP is not enabled', async () => {
      const ctx = testContext(krtService, t.db, { env: { ...process.env, PDI_KRT_ADMIN_TOKEN: '' } });
      const app = await buildTestApp(krtService, ctx);
      try {
        const res = await app.inject({
          method: 'POST',
          url: '/api/api/krt/extract/',
          payload: { doi: TABLE_DOI },
          headers: { authorization: 'Bearer anything' },
        });
        assert.equal(res.statusCode, 404);
        assert.deepEqual(res.json(), {
          success: false,
          error: 'extraction over HTTP is not enabled on this server (set PDI_KRT_ADMIN_TOKEN to enable it)',
        });
        // With no data at all, the AI routes answer honestly: nothing to suggest.
        const none = await app.inject({ method: 'POST', url: '/api/api/ai/suggest-rrid/', payload: { resource_name: 'anti-GFP' } });
        assert.deepEqual([none.statusCode, none.json().suggestions], [200, []]);
        assert.equal(
          (await app.inject({ method: 'POST', url: '/api/api/ai/validate-rrid/', payload: { rrid: 'RRID:AB_2107436' } })).json().validation
            .status,
          'unverified',
        );
      } finally {
        await app.close();
      }
    });
  },
  { migrations: krtService.migrations },
);
