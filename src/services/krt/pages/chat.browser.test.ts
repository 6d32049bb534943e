// The chat panel of /chat in a real browser (Debian's chromium through playwright-core), SQLite and PostgreSQL.
// With JavaScript: a message typed and sent with the keyboard alone goes to POST /api/api/ai/chat/, the reply joins
// the conversation and the table is swapped in place from GET /chat/table, without a reload, under the content
// security policy, with no console error. Without JavaScript: the same form posts to POST /chat and the page that
// the 303 leads to shows the reply and the table. Without /usr/bin/chromium: skipped outside CI, failed in CI.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { buildTestApp, testContext } from '../../../../test/support/app.ts';
import { describeEachDatabase, skipUnlessAvailable } from '../../../../test/support/databases.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { loadKrtDemo } from '../demo.ts';
import { krtService } from '../service.ts';

const CHROMIUM = process.env.PDI_CHROMIUM ?? '/usr/bin/chromium';
const gate = skipUnlessAvailable(fs.existsSync(CHROMIUM) ? null : `${CHROMIUM} not found (apt-get install chromium)`);
const MESSAGE = 'Add rabbit anti-histone H3 antibody from Example Biosciences (demo), catalog DEMO-AB-0104';

describeEachDatabase(
  'krt chat page in a real browser',
  (t) => {
    let app: ServiceApp;
    let browser: Browser | undefined;
    let dir: string;
    let origin = '';
    const requests: string[] = [];

    before(async () => {
      if (gate.skip) return;
      if (gate.problem) throw new Error(gate.problem);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'krt-chat-browser-'));
      const ctx = testContext(krtService, t.db, { dataDir: dir });
      await loadKrtDemo(ctx, {});
      app = await buildTestApp(krtService, ctx);
      origin = await app.listen({ port: 0, host: '127.0.0.1' });
      app.server.on('request', (req: { method?: string; url?: string }) => requests.push(`${req.method} ${req.url}`));
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
        timeout: 60_000,
      });
    });
    after(async () => {
      await browser?.close();
      await app?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    /** Types the message and sends it with the keyboard alone (Tab from the text area to the Send button, Enter). */
    async function send(tab: Page, message: string): Promise<void> {
      await tab.focus('textarea[name="message"]');
      await tab.keyboard.type(message);
      await tab.keyboard.press('Tab');
      // Locators, not evaluated strings: the page's CSP (script-src 'self') refuses string evaluation in the page.
      assert.equal((await tab.locator(':focus').textContent())?.trim(), 'Send');
      await tab.keyboard.press('Enter');
    }

    function watch(tab: Page): string[] {
      const problems: string[] = [];
      tab.on('console', (m) => {
        // Any error but one about the icon: the icon has its own check in the pages suite.
        if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) problems.push(`${m.text()} (${m.location().url})`);
      });
      tab.on('pageerror', (e) => problems.push(e.message));
      tab.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`));
      return problems;
    }

    it(
      'with JavaScript, the reply joins the conversation and the table updates in place',
      { skip: gate.skip, timeout: 120_000 },
      async () => {
        const context = await browser!.newContext();
        const tab = await context.newPage();
        const problems = watch(tab);
        await tab.goto(`${origin}/chat`);
        await tab.evaluate(() => ((globalThis as unknown as { sameDocument: boolean }).sameDocument = true));
        requests.length = 0;
        await send(tab, MESSAGE);
        await tab.waitForSelector('ol.chat-log li.assistant');
        await tab.waitForSelector('#chat-table td.rrid-cell');
        assert.equal(await tab.evaluate(() => (globalThis as unknown as { sameDocument?: boolean }).sameDocument), true, 'no reload');
        assert.ok(requests.includes('POST /api/api/ai/chat/'), requests.join(', '));
        assert.ok(!requests.some((r) => r.startsWith('POST /chat')), 'the form was not posted');
        const session = await tab.inputValue('input[name="session_id"]');
        assert.match(session, /^[0-9a-f-]{36}$/);
        assert.equal(new URL(tab.url()).search, `?session=${session}`);
        assert.ok(requests.includes(`GET /chat/table?session=${session}`));
        assert.equal(await tab.locator('#chat-table td.rrid-cell').count(), 1);
        assert.match(await tab.locator('ol.chat-log li.you').first().innerText(), /Add rabbit anti-histone H3/);
        assert.equal(await tab.inputValue('textarea[name="message"]'), '');
        assert.equal(await tab.locator(':focus').getAttribute('name'), 'message');

        await send(tab, 'remove row 1');
        await tab.locator('ol.chat-log li.assistant').nth(1).waitFor();
        assert.equal(await tab.locator('ol.chat-log li.assistant').count(), 2);
        await tab.waitForSelector('#chat-table p.note');
        assert.equal(await tab.locator('#chat-table td.rrid-cell').count(), 0);
        assert.deepEqual(problems, []);
        await context.close();
      },
    );

    it(
      'without JavaScript, the form posts and the page it is sent back to shows the reply and the table',
      { skip: gate.skip, timeout: 120_000 },
      async () => {
        const context = await browser!.newContext({ javaScriptEnabled: false });
        const tab = await context.newPage();
        const problems = watch(tab);
        await tab.goto(`${origin}/chat`);
        requests.length = 0;
        await send(tab, MESSAGE);
        await tab.waitForURL(/\/chat\?session=[0-9a-f-]{36}$/);
        assert.ok(requests.includes('POST /chat'), requests.join(', '));
        assert.ok(!requests.includes('POST /api/api/ai/chat/'));
        assert.match(await tab.locator('ol.chat-log li.assistant').innerText(), /Table builder/);
        assert.equal(await tab.locator('#chat-table td.rrid-cell').count(), 1);
        assert.deepEqual(problems, []);
        await context.close();
      },
    );
  },
  { migrations: krtService.migrations },
);
