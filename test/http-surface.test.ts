// Security headers on every answer (JSON, errors, /docs), the /docs page working
// under its content security policy (links with and without the trailing slash; in a real browser: styled, no
// violation), and `/` naming the service with working links.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { openDatabase } from '../src/core/db/database.ts';
import type { Db } from '../src/core/db/database.ts';
import type { ServiceApp } from '../src/core/service.ts';
import { buildTestApp } from './support/app.ts';
import { skipUnlessAvailable } from './support/databases.ts';
import { probeService } from './support/probe-service.ts';

const CHROMIUM = process.env.PDI_CHROMIUM ?? '/usr/bin/chromium';
const browserGate = skipUnlessAvailable(fs.existsSync(CHROMIUM) ? null : `${CHROMIUM} not found (apt-get install chromium)`);

let db: Db;
let app: ServiceApp;
before(async () => {
  db = openDatabase('sqlite::memory:');
  app = await buildTestApp(probeService, db);
});
after(async () => {
  await app?.close();
  await db?.close();
});

describe('security headers', () => {
  const answers: [string, () => Promise<{ statusCode: number; headers: Record<string, unknown> }>][] = [
    ['a JSON answer', () => app.inject('/api/one/')],
    ['a 404', () => app.inject('/api/nothing/')],
    ['a 405', () => app.inject({ method: 'DELETE', url: '/api/one/' })],
    ['a 400', () => app.inject({ method: 'POST', url: '/api/echo/', payload: {} })],
    ['/docs', () => app.inject('/docs')],
    ['/openapi.json', () => app.inject('/openapi.json')],
  ];
  for (const [what, send] of answers)
    it(`on ${what}: nosniff, no referrer, no framing, a content security policy`, async () => {
      const res = await send();
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
      assert.equal(res.headers['x-frame-options'], 'DENY');
      const csp = String(res.headers['content-security-policy']);
      assert.match(csp, /frame-ancestors 'none'/);
      if (String(res.headers['content-type']).startsWith('text/html')) {
        // a document: helmet's set, scripts from the service only
        assert.match(csp, /default-src 'self'/);
        assert.match(csp, /script-src 'self'(;|$)/);
        assert.match(csp, /object-src 'none'/);
        assert.equal(res.headers['cross-origin-opener-policy'], 'same-origin');
      } else {
        // an API answer: nothing in it may load or run (OWASP REST), and no document-only headers
        assert.match(csp, /default-src 'none'/);
        assert.equal(res.headers['cross-origin-opener-policy'], undefined);
        assert.equal(res.headers['x-dns-prefetch-control'], undefined);
      }
      assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
      assert.equal(res.headers['strict-transport-security'], undefined, 'HSTS is the TLS proxy’s business');
    });

  it('/docs carries no script the policy would block, and its links and scripts resolve with and without the slash', async () => {
    for (const page of ['/docs', '/docs/']) {
      const res = await app.inject(page);
      assert.equal(res.statusCode, 200);
      const scripts = [...res.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/gi)];
      assert.ok(scripts.length > 0, 'the interactive reference is started by a script');
      for (const [, attributes, inline] of scripts) {
        assert.equal(inline.trim(), '', 'no inline script');
        const src = /src="([^"]+)"/.exec(attributes)?.[1];
        assert.ok(src && !/^(https?:)?\/\//.test(src), `a script from the service itself: ${attributes}`);
        const script = await app.inject(new URL(src, `http://host${page}`).pathname);
        assert.equal(script.statusCode, 200, src);
        assert.match(String(script.headers['content-type']), /^text\/javascript/);
      }
      const links = [...res.body.matchAll(/href="([^"]+)"/g)].map((m) => new URL(m[1], `http://host${page}`).pathname);
      assert.ok(links.includes('/favicon.ico'), `${page} names its icon`);
      assert.ok(links.includes('/openapi.json'), `${page} links ${links.join(', ')}`);
      assert.ok(links.includes('/openapi-3.0.json'), `${page} links ${links.join(', ')}`);
      for (const link of links) assert.equal((await app.inject(link)).statusCode, 200, `${page} → ${link}`);
    }
  });
});

describe('methods', () => {
  for (const method of ['TRACE', 'PROPFIND', 'QUERY', 'MKCOL', 'PURGE', 'PUT'] as const)
    it(`${method} on a path that exists answers 405 with Allow; on one that does not, 404`, async () => {
      const res = await app.inject({ method, url: '/api/one/' });
      assert.equal(res.statusCode, 405, res.body);
      assert.equal(res.headers.allow, 'GET, HEAD');
      assert.match(res.json().error, /GET method required/);
      // (Fastify answers a QUERY without Content-Type 400 before routing, as RFC 10008 asks)
      assert.equal((await app.inject({ method, url: '/api/nothing/' })).statusCode, method === 'QUERY' ? 400 : 404);
    });
});

describe('/', () => {
  it('names the service and links its documentation', async () => {
    const res = await app.inject('/');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const body = res.json();
    assert.equal(body.service, 'oral');
    assert.equal(body.title, 'Probe service');
    for (const link of [body.links.docs, body.links.openapi, body.links.openapi_3_0])
      assert.equal((await app.inject(link)).statusCode, 200, link);
    assert.equal((await app.inject({ method: 'POST', url: '/' })).statusCode, 405);
  });
});

describe('/docs in a real browser', () => {
  it(
    'renders with its styles, without a content security policy violation, and its link opens the document',
    { skip: browserGate.skip, timeout: 90_000 },
    async () => {
      if (browserGate.problem) throw new Error(browserGate.problem);
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-docs-browser-'));
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
        timeout: 60_000,
      });
      try {
        const tab = await context.newPage();
        const problems: string[] = [];
        // Chromium reports a blocked style or script as a console error naming the policy ("Refused to …").
        tab.on('console', (message) => {
          if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
        });
        const res = await tab.goto(`${address}/docs/`);
        assert.equal(res?.status(), 200);
        assert.equal(await tab.evaluate<string>('getComputedStyle(document.body).maxWidth'), '960px', 'the inline style applies');
        assert.deepEqual(problems, []);
        await Promise.all([tab.waitForURL(/openapi\.json$/), tab.click('a[href$="openapi.json"]')]);
        assert.match((await tab.content()) ?? '', /"openapi":\s*"3\.1/);
      } finally {
        await context.close();
        fs.rmSync(profile, { recursive: true, force: true });
      }
    },
  );
});
