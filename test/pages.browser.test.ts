// The pages of every service in a real browser: Debian's chromium through playwright-core, one
// browser, pages in sequence. For each service that has pages and a tour (test/support/<svc>/page-tour.ts),
// on its demo data on SQLite and PostgreSQL:
//  - every page of the tour loads with status 200, no console error, no uncaught script error and no failed
//    or refused request (a content-security-policy violation is a console error);
//  - with JavaScript disabled, every page has the same headings, charts, tables and forms;
// and on SQLite (the markup is the same code on both databases; only the data path differs, which the two
// checks above cover), to keep the run time reasonable:
//  - axe-core finds no serious or critical violation and no content outside a landmark ("region"), with the demo
//    notice shown and again (the first pages) with the stale-data notice too, and a full-page screenshot of each
//    page is written to test-artifacts/screenshots/;
//  - the first form of a page that has a text field works with the keyboard alone: Tab reaches the field,
//    typing and Enter submit it, and the answer is a page (a form found on several pages is tried once);
//  - no page (nor /docs) is wider than a 390 px phone screen.
// For every service, on both databases, /docs draws the interactive reference, shows the recorded example of an
// answer, and runs a request from it.
// Services without pages or without a tour are reported as skipped by name. Without chromium the suite is
// skipped outside CI and fails in CI. PDI_DOCS_SCREENSHOTS=1 also writes the README's screenshot of each
// service (the tour's first page, SQLite, 1200×800; B's chat holding a paper's table, 1200×1500) to
// docs/screenshots/<svc>.png; PDI_PAGES_SERVICES=a,b runs
// those services only.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildTestApp, testContext } from './support/app.ts';
import { describeEachDatabase, skipUnlessAvailable } from './support/databases.ts';
import type { ServiceApp, ServiceModule } from '../src/core/service.ts';
import { SERVICES } from '../src/services/registry.ts';
import { listDataVersions, recordDataVersion } from '../src/core/db/datasets.ts';
import { coreTables } from '../src/core/db/tables.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.PDI_CHROMIUM ?? '/usr/bin/chromium';
const browserGate = skipUnlessAvailable(fs.existsSync(CHROMIUM) ? null : `${CHROMIUM} not found (apt-get install chromium)`);
const AXE_SOURCE = path.join(ROOT, 'node_modules/axe-core/axe.min.js');
const SCREENSHOTS = path.join(ROOT, 'test-artifacts/screenshots');
const DOCS_SCREENSHOTS = process.env.PDI_DOCS_SCREENSHOTS === '1' ? path.join(ROOT, 'docs/screenshots') : null;
/** The page of a service's tour that docs/screenshots/<svc>.png shows (else the first, 800 px high), and its height. */
const DOCS_SHOT: Partial<Record<string, { page: (paths: string[]) => string | undefined; height: number }>> = {
  // B's: the chat holding a copy of a demo paper's table (docs/krt.md), high enough to show the table under it.
  krt: { page: (paths) => paths.find((p) => p.startsWith('/chat?')), height: 1500 },
};
/** Demo sizes that keep the suite's run time reasonable (the grants demo's default 50,000 rows are slow to import on each database). */
const DEMO_OPTIONS: Partial<Record<string, { size?: number; seed?: number }>> = { grants: { size: 5000 } };

let browser: Browser | undefined;
before(async () => {
  if (browserGate.skip) return;
  if (browserGate.problem) throw new Error(browserGate.problem);
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
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
after(async () => browser?.close());

/** What a page shows that must not depend on JavaScript. */
interface Structure {
  h1: string;
  headings: number;
  charts: number;
  tables: number;
  forms: number;
}

// Scripts that run in the page are written as text: this program's TypeScript has no DOM types.
const STRUCTURE_SCRIPT = `(() => {
  const main = document.querySelector('main');
  return {
    h1: document.querySelector('main h1')?.textContent?.trim() ?? '',
    headings: main?.querySelectorAll('h1, h2, h3').length ?? 0,
    charts: main?.querySelectorAll('figure.chart svg[role="img"]').length ?? 0,
    tables: main?.querySelectorAll('table').length ?? 0,
    forms: main?.querySelectorAll('form').length ?? 0,
  };
})()`;

// "region" (content outside every landmark) is moderate in axe's scale, and checked all the same: the layout's notices
// (stale data, demo data) are content a screen reader's landmark navigation must reach.
const AXE_SCRIPT = `(async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'region')
    .map((v) => v.impact + ' ' + v.id + ' (' + v.help + ') at ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; '));
})()`;

/** Marks the first enabled text field of the first form that has one; returns its name, type and the form's method. */
const FORM_FIELD_SCRIPT = `(() => {
  for (const form of document.querySelectorAll('main form')) {
    // A disabled field (B's DOI field when fetching is off) cannot be focused, by design.
    const field = form.querySelector('input[type="search"]:not([disabled]), input[type="text"]:not([disabled]), input[type="number"]:not([disabled]), input:not([type]):not([disabled])');
    if (!field) continue;
    field.setAttribute('data-keyboard-target', '');
    return { name: field.name, type: field.type, method: form.method, action: form.getAttribute('action') ?? '', min: field.min, max: field.max };
  }
  return null;
})()`;

const FOCUSED_SCRIPT = `document.activeElement?.hasAttribute('data-keyboard-target') ?? false`;

/** A number a field accepts: the middle of its range when it has one (a browser does not submit a form whose value is out of range). */
function numberWithin(min: string, max: string): string {
  if (min !== '' && max !== '') return String(Math.round((Number(min) + Number(max)) / 2));
  return String(Math.max(50000, min === '' ? 0 : Number(min)));
}

const structureOf = (page: Page): Promise<Structure> => page.evaluate<Structure>(STRUCTURE_SCRIPT);

/** Records what went wrong on a page while it is used: console errors, script errors, failed or refused requests. */
function watch(page: Page, problems: string[], where: () => string): void {
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const source = message.location().url || 'http://x/';
    // The page's own status is checked where it is loaded (a form may rightly answer 404); its console line is not a second fault.
    if (message.text().startsWith('Failed to load resource') && source === page.url()) return;
    problems.push(`${where()}: console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${where()}: script error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A script's fetch cut short by the page itself (a newer keystroke, or the navigation a form submit starts) is not a failure.
    const aborted = request.failure()?.errorText === 'net::ERR_ABORTED' && ['fetch', 'xhr'].includes(request.resourceType());
    if (!aborted) problems.push(`${where()}: request failed: ${request.url()} (${request.failure()?.errorText})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && response.request().resourceType() !== 'document')
      problems.push(`${where()}: ${response.status()} for ${response.url()}`);
  });
}

function screenshotName(service: string, kind: string, index: number, url: string): string {
  const slug =
    url
      .replace(/^\//, '')
      .replace(/[^a-z0-9]+/gi, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'home';
  return `${service}-${kind}-${String(index + 1).padStart(2, '0')}-${slug}.png`;
}

function suiteFor(service: ServiceModule): void {
  const tour = path.join(ROOT, 'test/support', service.name, 'page-tour.ts');
  if (!service.pages) {
    describe(`${service.name} pages in a real browser`, { skip: `${service.name} has no pages (ServiceModule.pages)` }, () => {});
    return;
  }
  if (!fs.existsSync(tour)) {
    describe(
      `${service.name} pages in a real browser`,
      { skip: `${service.name} has no page tour (test/support/${service.name}/page-tour.ts)` },
      () => {},
    );
    return;
  }
  describeEachDatabase(
    `${service.name} pages in a real browser`,
    (t) => {
      let app: ServiceApp | undefined;
      let dir = '';
      let origin = '';
      let paths: string[] = [];
      let context: BrowserContext | undefined;
      const structures = new Map<string, Structure>();

      before(async () => {
        if (browserGate.skip) return;
        dir = fs.mkdtempSync(path.join(os.tmpdir(), `pdi-pages-${service.name}-`));
        const ctx = testContext(service, t.db, { dataDir: dir });
        await service.loadDemo(ctx, DEMO_OPTIONS[service.name] ?? {});
        app = await buildTestApp(service, ctx);
        origin = await app.listen({ port: 0, host: '127.0.0.1' });
        const { pageTour } = (await import(tour)) as { pageTour(app: ServiceApp): Promise<string[]> };
        paths = await pageTour(app);
        context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
      });
      after(async () => {
        await context?.close();
        await app?.close();
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
      });

      const full = t.kind === 'sqlite';
      it(
        full
          ? 'every page loads with no console error or failed request, axe finds nothing serious, and is written as a screenshot'
          : 'every page loads with no console error or failed request',
        { skip: browserGate.skip, timeout: 300_000 },
        async () => {
          assert.ok(paths.length > 0, 'the tour lists pages');
          const axe = full ? fs.readFileSync(AXE_SOURCE, 'utf8') : '';
          const problems: string[] = [];
          const page = await context!.newPage();
          let current = '';
          watch(page, problems, () => current);
          for (const [index, url] of paths.entries()) {
            current = url;
            const response = await page.goto(origin + url, { waitUntil: 'load' });
            if (response?.status() !== 200) problems.push(`${url}: status ${response?.status()}`);
            structures.set(url, await structureOf(page));
            if (!full) continue;
            // Evaluated through the debugging protocol, so the page's content security policy does not block it.
            await page.evaluate(axe);
            const violations = await page.evaluate<string[]>(AXE_SCRIPT);
            for (const v of violations) problems.push(`${url}: axe: ${v}`);
            await page.screenshot({ path: path.join(SCREENSHOTS, screenshotName(service.name, t.kind, index, url)), fullPage: true });
            const docsShot = DOCS_SHOT[service.name];
            if (DOCS_SCREENSHOTS && url === (docsShot?.page(paths) ?? paths[0]) && t.kind === 'sqlite') {
              fs.mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
              await page.setViewportSize({ width: 1200, height: docsShot?.height ?? 800 });
              await page.screenshot({ path: path.join(DOCS_SCREENSHOTS, `${service.name}.png`) });
              await page.setViewportSize({ width: 1280, height: 900 });
            }
          }
          await page.close();
          assert.deepEqual(problems, [], problems.join('\n'));
        },
      );

      // The stale-data notice needs real data older than its limit: an old real dataset beside the demo ones shows
      // both notices. The service's other real datasets (E's published fit) are made as old for the test and put
      // back after it; a separate app, as a page kit re-reads staleness once a minute.
      if (full) {
        it(
          'with the stale-data and demo notices shown, axe finds no content outside a landmark',
          { skip: browserGate.skip, timeout: 180_000 },
          async () => {
            const base = testContext(service, t.db, { dataDir: dir });
            const ctx = { ...base, config: { ...base.config, env: { ...base.config.env, PDI_SYNC_STALE_AFTER: '1d' } } };
            const versions = coreTables(t.db.kysely);
            const real = (await listDataVersions(t.db.kysely, service.name)).filter((v) => !v.is_demo);
            const check = 'stale-notice-check';
            await recordDataVersion(t.db.kysely, {
              service: service.name,
              dataset: check,
              version: check,
              source: null,
              isDemo: false,
              report: {},
            });
            const age = (dataset: string, importedAt: string) =>
              versions
                .updateTable('data_versions')
                .set({ imported_at: importedAt })
                .where('service', '=', service.name)
                .where('dataset', '=', dataset)
                .execute();
            for (const dataset of [check, ...real.map((v) => v.dataset)]) await age(dataset, '2020-01-01T00:00:00.000Z');
            const staleApp = await buildTestApp(service, ctx);
            // A context of its own, closed before the app: the browser's kept-alive and preconnected sockets go with it,
            // so closing the app does not wait on them.
            const staleContext = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
            const page = await staleContext.newPage();
            const problems: string[] = [];
            try {
              const staleOrigin = await staleApp.listen({ port: 0, host: '127.0.0.1' });
              const axe = fs.readFileSync(AXE_SOURCE, 'utf8');
              for (const url of paths.slice(0, 3)) {
                await page.goto(staleOrigin + url, { waitUntil: 'load' });
                const notices = await page.evaluate<number>(`document.querySelectorAll('.stale-banner, .demo-banner').length`);
                if (notices !== 2) problems.push(`${url}: ${notices} notices shown, not the stale and the demo notice`);
                await page.evaluate(axe);
                for (const v of await page.evaluate<string[]>(AXE_SCRIPT)) problems.push(`${url}: axe: ${v}`);
              }
            } finally {
              await staleContext.close();
              await staleApp.close();
              await versions.deleteFrom('data_versions').where('service', '=', service.name).where('dataset', '=', check).execute();
              for (const v of real) await age(v.dataset, v.imported_at);
            }
            assert.deepEqual(problems, [], problems.join('\n'));
          },
        );
      }

      it(
        'every page has the same headings, charts, tables and forms with JavaScript disabled',
        { skip: browserGate.skip, timeout: 120_000 },
        async () => {
          const noScript = await browser!.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
          try {
            const page = await noScript.newPage();
            for (const url of paths) {
              const response = await page.goto(origin + url, { waitUntil: 'load' });
              assert.equal(response?.status(), 200, url);
              const withScripts = structures.get(url);
              assert.ok(withScripts, `${url} was loaded with JavaScript first`);
              const without = await structureOf(page);
              assert.deepEqual(without, withScripts, url);
              assert.ok(without.h1.length > 0, `${url} has a heading`);
            }
          } finally {
            await noScript.close();
          }
        },
      );

      // The phone-width check runs on SQLite only: the markup is the same code on both databases.
      if (full) {
        it('no page scrolls sideways at 390 px (a phone)', { skip: browserGate.skip, timeout: 180_000 }, async () => {
          const phone = await browser!.newContext({ viewport: { width: 390, height: 844 } });
          try {
            const page = await phone.newPage();
            const wide: string[] = [];
            for (const url of [...paths, '/docs']) {
              await page.goto(origin + url, { waitUntil: 'load' });
              const width = await page.evaluate<number>('document.documentElement.scrollWidth');
              if (width > 390) wide.push(`${url}: ${width} px wide`);
            }
            assert.deepEqual(wide, [], wide.join('\n'));
          } finally {
            await phone.close();
          }
        });
      }

      // The keyboard check runs on SQLite only: the markup is the same code on both databases (no skip counted on PostgreSQL).
      if (full) {
        it(
          'the first form with a text field works with the keyboard alone: Tab to it, type, Enter',
          { skip: browserGate.skip, timeout: 180_000 },
          async () => {
            const problems: string[] = [];
            const page = await context!.newPage();
            let current = '';
            watch(page, problems, () => current);
            let forms = 0;
            const triedForms = new Set<string>();
            for (const [index, url] of paths.entries()) {
              current = `${url} (keyboard)`;
              await page.goto(origin + url, { waitUntil: 'load' });
              const target = await page.evaluate<{
                name: string;
                type: string;
                method: string;
                action: string;
                min: string;
                max: string;
              } | null>(FORM_FIELD_SCRIPT);
              if (!target) continue;
              // The same form on several pages (a search box in every list) is tried once.
              const form = `${target.method} ${target.action} ${target.name}`;
              if (triedForms.has(form)) continue;
              triedForms.add(form);
              forms++;
              let reached = false;
              for (let presses = 0; presses < 100 && !reached; presses++) {
                await page.keyboard.press('Tab');
                reached = await page.evaluate<boolean>(FOCUSED_SCRIPT);
              }
              if (!reached) {
                problems.push(`${url}: Tab never reaches the field "${target.name}"`);
                continue;
              }
              const typed = target.type === 'number' ? numberWithin(target.min, target.max) : 'care';
              await page.keyboard.press('ControlOrMeta+A');
              await page.keyboard.type(typed);
              let response;
              try {
                [response] = await Promise.all([
                  page.waitForNavigation({ waitUntil: 'load', timeout: 15_000 }),
                  page.keyboard.press('Enter'),
                ]);
              } catch {
                problems.push(`${url}: Enter in "${target.name}" (${typed}) did not submit the form`);
                continue;
              }
              const status = response?.status();
              // A search may rightly find nothing (a recipient named "care": 404); a refused request (4xx other than 404) or a failure is a fault.
              if (status !== 200 && status !== 404) problems.push(`${url}: submitting "${target.name}" answered ${status}`);
              if (target.method === 'get' && !new URL(page.url()).searchParams.getAll(target.name).includes(typed))
                problems.push(`${url}: the submitted address ${page.url()} does not carry ${target.name}=${typed}`);
              if (!(await page.locator('main h1').count())) problems.push(`${url}: the answer to the form has no heading`);
              await page.screenshot({
                path: path.join(SCREENSHOTS, screenshotName(service.name, `${t.kind}-keyboard`, index, url)),
                fullPage: true,
              });
            }
            await page.close();
            assert.ok(forms > 0, 'the tour has at least one page with a form');
            assert.deepEqual(problems, [], problems.join('\n'));
          },
        );
      }
    },
    { migrations: service.migrations },
  );
}

/**
 * The first GET operation that needs no parameter: the request the /docs test runs from the page, with the names
 * of the top-level properties of its recorded 200 example (the page shows the example before the request runs).
 */
async function firstPlainGet(app: ServiceApp): Promise<{ path: string; exampleKeys: string[] }> {
  const doc = (await app.inject('/openapi.json')).json() as {
    paths: Record<
      string,
      {
        get?: {
          parameters?: Array<{ required?: boolean }>;
          responses?: Record<string, { content?: Record<string, { examples?: Record<string, { value?: unknown }> }> }>;
        };
      }
    >;
  };
  const found = Object.entries(doc.paths).find(([, item]) => item.get && !(item.get.parameters ?? []).some((p) => p.required));
  assert.ok(found, 'the service has a GET operation without required parameters');
  const example = Object.values(found[1].get?.responses?.['200']?.content?.['application/json']?.examples ?? {})[0]?.value;
  return { path: found[0], exampleKeys: example !== null && typeof example === 'object' ? Object.keys(example).slice(0, 3) : [] };
}

function docsSuiteFor(service: ServiceModule): void {
  describeEachDatabase(
    `${service.name} /docs in a real browser`,
    (t) => {
      let app: ServiceApp | undefined;
      let dir = '';
      after(async () => {
        await app?.close();
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
      });
      it(
        'shows the interactive reference and runs a request from it (try it out, execute, 200)',
        { skip: browserGate.skip, timeout: 120_000 },
        async () => {
          dir = fs.mkdtempSync(path.join(os.tmpdir(), `pdi-docs-${service.name}-`));
          const ctx = testContext(service, t.db, { dataDir: dir });
          await service.loadDemo(ctx, DEMO_OPTIONS[service.name] ?? {});
          app = await buildTestApp(service, ctx);
          const origin = await app.listen({ port: 0, host: '127.0.0.1' });
          const { path: operation, exampleKeys } = await firstPlainGet(app);
          assert.ok(exampleKeys.length > 0, `${operation} has a recorded 200 example`);
          const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
          try {
            const page = await context.newPage();
            const problems: string[] = [];
            watch(page, problems, () => `${service.name} /docs`);
            const response = await page.goto(`${origin}/docs`, { waitUntil: 'load' });
            assert.equal(response?.status(), 200);
            const block = page.locator('.opblock-get', { has: page.locator(`.opblock-summary-path[data-path="${operation}"]`) }).first();
            await block.locator('.opblock-summary').first().click();
            const example = block.locator('.responses-table .response-col_description .highlight-code').first();
            await example.waitFor({ timeout: 30_000 });
            const exampleText = (await example.textContent()) ?? '';
            for (const key of exampleKeys) assert.ok(exampleText.includes(`"${key}"`), `the 200 example shows "${key}"`);
            const [answer] = await Promise.all([
              page.waitForResponse((r) => new URL(r.url()).pathname === operation && r.request().resourceType() === 'fetch'),
              block.locator('button.execute').click(),
            ]);
            assert.equal(answer.status(), 200, `${operation} from /docs`);
            const shown = block.locator('.live-responses-table tbody .response-col_status').first();
            await shown.waitFor({ timeout: 30_000 });
            assert.match((await shown.textContent()) ?? '', /^\s*200\b/, 'the page shows the answer');
            assert.equal(await page.locator('#reference').isHidden(), true, 'the interactive reference replaces the static one');
            if (t.kind === 'sqlite') await page.screenshot({ path: path.join(SCREENSHOTS, `${service.name}-docs.png`), fullPage: false });
            assert.deepEqual(problems, [], problems.join('\n'));
          } finally {
            await context.close();
          }
        },
      );
    },
    { migrations: service.migrations },
  );
}

// PDI_PAGES_SERVICES=oral,grants runs those services only (the others are reported as skipped).
const chosen = process.env.PDI_PAGES_SERVICES?.split(',').map((s) => s.trim());
for (const service of SERVICES) {
  if (chosen && !chosen.includes(service.name))
    describe(`${service.name} pages in a real browser`, { skip: `not in PDI_PAGES_SERVICES (${chosen.join(', ')})` }, () => {});
  else {
    suiteFor(service);
    docsSuiteFor(service);
  }
}
