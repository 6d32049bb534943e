// The one real-browser check: a page served from one origin (http://127.0.0.1:<port1>) calls the browser route of
// the service on another origin (http://localhost:<port2>) with fetch, a JSON body and Content-Type
// application/json, so Chromium sends a CORS preflight first; the page must be able to read the answer. Debian's
// chromium through playwright-core. Without /usr/bin/chromium the test is skipped outside CI and fails in CI.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';
import type { Static } from 'typebox';
import { describeEachDatabase, skipUnlessAvailable } from '../../../test/support/databases.ts';
import { buildTestApp, testContext } from '../../../test/support/app.ts';
import type { ServiceApp } from '../../core/service.ts';
import { krtService } from './service.ts';
import { loadKrtDemo } from './demo.ts';
import type { BrowserSuggestResponse } from './schemas/browser.ts';

type BrowserSuggest = Static<typeof BrowserSuggestResponse>;

const CHROMIUM = process.env.PDI_CHROMIUM ?? '/usr/bin/chromium';
const browserGate = skipUnlessAvailable(fs.existsSync(CHROMIUM) ? null : `${CHROMIUM} not found (apt-get install chromium)`);

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>extension page</title></head><body><pre id="out">pending</pre>
<script>
async function ask(serviceUrl) {
  const res = await fetch(serviceUrl + '/api/api/browser/suggest-rrid/', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    // With the catalog number: a name and vendor alone are too weak to be shown (abstention).
    body: JSON.stringify({ resource_name: 'rabbit anti-GFP (generated demo)', vendor: 'Example Immunoreagents (demo)', catalog_number: 'DEMO-AB-0101' }),
  });
  return { status: res.status, body: await res.json() };
}
window.ask = ask;
</script></body></html>`;

describeEachDatabase(
  'krt browser extension route in a real browser',
  (t) => {
    let app: ServiceApp;
    let page: http.Server;
    let context: BrowserContext | undefined;
    let dir: string;
    const seen: string[] = [];
    let pageOrigin = '';
    let serviceOrigin = '';

    before(async () => {
      if (browserGate.skip) return; // outside CI without chromium: the test below is reported as skipped
      if (browserGate.problem) throw new Error(browserGate.problem);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'krt-browser-'));
      const ctx = testContext(krtService, t.db, { dataDir: dir });
      await loadKrtDemo(ctx, {});
      app = await buildTestApp(krtService, ctx);
      // Both IPv4 and IPv6 where the machine has them, so "localhost" reaches the service either way.
      const address = await app.listen({ port: 0, host: '::' }).catch(() => app.listen({ port: 0, host: '127.0.0.1' }));
      serviceOrigin = `http://localhost:${new URL(address).port}`;
      app.server.on('request', (req: http.IncomingMessage) => seen.push(`${req.method} ${req.url}`));
      page = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE));
      await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
      pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
      context = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(dir, 'profile-')), {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
        timeout: 60_000,
      });
    });
    after(async () => {
      await context?.close();
      await app?.close();
      await new Promise<void>((resolve) => (page ? page.close(() => resolve()) : resolve()));
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('a page on another origin reads the suggestions after a preflight', { skip: browserGate.skip, timeout: 90_000 }, async () => {
      const tab = await context!.newPage();
      await tab.goto(`${pageOrigin}/extension.html`);
      // `ask` is the page's own function (PAGE's script): TypeScript cannot know the page's globals.
      const result = await tab.evaluate(
        async (url) => (globalThis as unknown as { ask(u: string): Promise<{ status: number; body: BrowserSuggest }> }).ask(url),
        serviceOrigin,
      );
      assert.equal(result.status, 200);
      assert.equal(result.body.status, 'success');
      assert.equal(result.body.suggestions[0].rrid, 'RRID:AB_0000101');
      assert.equal(result.body.suggestions[0].additional_info && typeof result.body.suggestions[0].additional_info, 'object');
      assert.ok(seen.includes('OPTIONS /api/api/browser/suggest-rrid/'), `a preflight was sent: ${seen.join(', ')}`);
      assert.ok(seen.includes('POST /api/api/browser/suggest-rrid/'));
      assert.ok(seen.indexOf('OPTIONS /api/api/browser/suggest-rrid/') < seen.indexOf('POST /api/api/browser/suggest-rrid/'));
      // The same page cannot read a route without CORS: the browser blocks it.
      const blocked = await tab.evaluate(async (url) => {
        try {
          await fetch(`${url}/api/api/ai/suggest-rrid/`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: '{"resource_name":"x"}',
          });
          return 'readable';
        } catch (error) {
          return `blocked: ${(error as Error).name}`;
        }
      }, serviceOrigin);
      assert.equal(blocked, 'blocked: TypeError');
    });
  },
  { migrations: krtService.migrations },
);
