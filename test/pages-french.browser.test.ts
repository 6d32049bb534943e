// C's and D's pages in French in a real browser (Debian's chromium through playwright-core, as pages.browser.test.ts):
// every page of each service's tour (test/support/<svc>/page-tour.ts) opened with ?lang=fr, on its demo data, on
// SQLite and PostgreSQL:
//  - status 200, <html lang="fr">, and no English message left: no English catalogue message that differs from its
//    French one shows in the rendered text (a phrase of two words or more anywhere in the page; a one-word message as
//    the whole text of a label, heading, button, column header, option or navigation link, where data cannot be);
//  - every internal link keeps lang=fr;
//  - chart axes name months and group thousands as French does (no Jan, Feb…, no 1,000);
//  - on D's pages (whose every text is translated, including the texts its code writes in English), nothing is marked
//    lang="en" but the switch's own label, and no date is written as YYYY-MM-DD;
//  - the language switch round-trips: fr → en → fr on every page with a query keeps the query;
// and on SQLite (the markup is the same on both databases) axe-core finds no serious or critical violation and no
// content outside a landmark ("region").
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext } from 'playwright-core';
import type { Catalogue } from '../src/core/i18n/catalogue.ts';
import { layoutMessages } from '../src/core/i18n/messages/index.ts';
import type { ServiceApp, ServiceModule } from '../src/core/service.ts';
import { drawsMessages } from '../src/services/draws/messages/index.ts';
import { grantsMessages } from '../src/services/grants/messages/index.ts';
import { SERVICES } from '../src/services/registry.ts';
import { buildTestApp, testContext } from './support/app.ts';
import { describeEachDatabase, skipUnlessAvailable } from './support/databases.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.PDI_CHROMIUM ?? '/usr/bin/chromium';
const browserGate = skipUnlessAvailable(fs.existsSync(CHROMIUM) ? null : `${CHROMIUM} not found (apt-get install chromium)`);
const AXE_SOURCE = path.join(ROOT, 'node_modules/axe-core/axe.min.js');
const DEMO_OPTIONS: Partial<Record<string, { size?: number }>> = { grants: { size: 5000 } };

/** The literal text of a message (its words, every plural branch included), without its placeholders. */
function literals(message: string): string[] {
  const out: string[] = [];
  const walk = (nodes: unknown): void => {
    if (!Array.isArray(nodes)) return;
    for (const node of nodes as Array<Record<string, unknown>>) {
      if (node.type === 0 && typeof node.value === 'string') out.push(node.value);
      const options = node.options as Record<string, { value: unknown }> | undefined;
      if (options) for (const option of Object.values(options)) walk(option.value);
    }
  };
  walk(new IntlMessageFormat(message, 'en-CA', undefined, { ignoreTag: true }).getAst());
  return out.map((text) => text.replace(/\s+/g, ' ').trim()).filter((text) => /[A-Za-z]{2}/.test(text));
}

/**
 * Names that data values may contain as they are stored (a generated recipient "… of British Columbia"): checked as
 * whole labels (a form's options), not as phrases anywhere in the text.
 */
const NAMES = /^province\./;

/**
 * English fragments a French page must not show: phrases (two words or more) anywhere, and every fragment as a whole
 * label. The switch's own label names the other language in that language, by design.
 */
function englishLeft(catalogues: Array<Catalogue<string>>): { phrases: string[]; words: Set<string> } {
  const phrases = new Set<string>();
  const words = new Set<string>();
  for (const catalogue of catalogues) {
    for (const [key, en] of Object.entries(catalogue.tables.en)) {
      const fr = catalogue.tables.fr[key];
      if (en === fr || key === 'layout.languageName') continue;
      const french = literals(fr).join(' ');
      for (const fragment of literals(en)) {
        const text = fragment.replace(/^[\s,.;:()–—]+|[\s,.;:()–—]+$/g, '');
        if (text === '' || french.includes(text)) continue;
        words.add(text);
        if (/\s/.test(text) && text.length >= 8 && !NAMES.test(key)) phrases.add(text);
      }
    }
  }
  return { phrases: [...phrases], words };
}

// Scripts that run in the page are text: this program's TypeScript has no DOM types.
// Text inside an element of another language (lang="en": the switch's own label, text a page marks as not yet
// translated) is left out; the rest is what a reader of the French page reads.
const PAGE_TEXT_SCRIPT = `(() => {
  const french = (el) => (el.closest('[lang]')?.getAttribute('lang') ?? 'fr') === 'fr';
  const parts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (el && !el.closest('script, style') && french(el)) parts.push(walker.currentNode.textContent);
  }
  return {
  lang: document.documentElement.lang,
  text: parts.join(' ').replace(/\\s+/g, ' '),
  labels: [...document.querySelectorAll('h1, h2, h3, button, th[scope="col"], option, summary, legend, dt, caption, nav a, label')]
    .filter(french)
    .map((e) => (e.tagName === 'LABEL' ? [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join(' ') : e.textContent).replace(/\\s+/g, ' ').trim()),
  links: [...document.querySelectorAll('a[href^="/"]')].map((a) => a.getAttribute('href')),
  axes: [...document.querySelectorAll('svg text')].map((e) => e.textContent.trim()),
  english: [...document.body.querySelectorAll('[lang="en"]')]
    .filter((e) => !e.matches('nav.languages a'))
    .map((e) => e.textContent.replace(/\\s+/g, ' ').trim().slice(0, 80)),
  };
})()`;

const AXE_SCRIPT = `(async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'region')
    .map((v) => v.impact + ' ' + v.id + ' (' + v.help + ') at ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; '));
})()`;

let browser: Browser | undefined;
before(async () => {
  if (browserGate.skip) return;
  if (browserGate.problem) throw new Error(browserGate.problem);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'], timeout: 60_000 });
});
after(async () => browser?.close());

function withLang(url: string, language: string): string {
  const parsed = new URL(url, 'http://x');
  parsed.searchParams.set('lang', language);
  return `${parsed.pathname}${parsed.search}`;
}

const ENGLISH_MONTHS = new Set(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']);

/** `strict`: every text of the service's pages is translated (nothing marked as English, no YYYY-MM-DD dates). */
function frenchSuite(service: ServiceModule, catalogue: Catalogue<string>, strict: boolean): void {
  describeEachDatabase(
    `${service.name} pages in French in a real browser`,
    (t) => {
      let app: ServiceApp | undefined;
      let dir = '';
      let origin = '';
      let paths: string[] = [];
      let context: BrowserContext | undefined;
      const english = englishLeft([layoutMessages as Catalogue<string>, catalogue]);

      before(async () => {
        if (browserGate.skip) return;
        dir = fs.mkdtempSync(path.join(os.tmpdir(), `pdi-fr-${service.name}-`));
        const ctx = testContext(service, t.db, { dataDir: dir });
        await service.loadDemo(ctx, DEMO_OPTIONS[service.name] ?? {});
        app = await buildTestApp(service, ctx);
        origin = await app.listen({ port: 0, host: '127.0.0.1' });
        const tour = path.join(ROOT, 'test/support', service.name, 'page-tour.ts');
        const { pageTour } = (await import(tour)) as { pageTour(app: ServiceApp): Promise<string[]> };
        paths = [...(await pageTour(app)), ...(service.name === 'grants' ? ['/calculator'] : [])];
        context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
      });
      after(async () => {
        await context?.close();
        await app?.close();
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
      });

      it(
        t.kind === 'sqlite'
          ? 'every page with ?lang=fr is French (no English message left), keeps lang in its links, and passes axe'
          : 'every page with ?lang=fr is French (no English message left) and keeps lang in its links',
        { skip: browserGate.skip, timeout: 300_000 },
        async () => {
          assert.ok(paths.length > 0);
          const axe = t.kind === 'sqlite' ? fs.readFileSync(AXE_SOURCE, 'utf8') : '';
          const problems: string[] = [];
          const page = await context!.newPage();
          for (const url of paths.map((p) => withLang(p, 'fr'))) {
            const response = await page.goto(origin + url, { waitUntil: 'load' });
            if (response?.status() !== 200) problems.push(`${url}: status ${response?.status()}`);
            const seen = await page.evaluate<{
              lang: string;
              text: string;
              labels: string[];
              links: string[];
              axes: string[];
              english: string[];
            }>(PAGE_TEXT_SCRIPT);
            if (seen.lang !== 'fr') problems.push(`${url}: <html lang="${seen.lang}">`);
            for (const phrase of english.phrases) if (seen.text.includes(phrase)) problems.push(`${url}: English left: “${phrase}”`);
            for (const label of seen.labels) if (english.words.has(label)) problems.push(`${url}: English label left: “${label}”`);
            for (const label of seen.axes) {
              if (ENGLISH_MONTHS.has(label) || /^\d{1,3}(,\d{3})+$/.test(label)) problems.push(`${url}: English chart label: “${label}”`);
            }
            if (strict) {
              for (const text of seen.english) problems.push(`${url}: marked as English: “${text}”`);
              for (const date of seen.text.match(/\b\d{4}-\d{2}-\d{2}\b/g) ?? []) problems.push(`${url}: date as YYYY-MM-DD: ${date}`);
            }
            for (const link of seen.links) {
              if (/^\/(api\/|docs|openapi|services\/|assets\/)/.test(link)) continue;
              if (!new URL(link, 'http://x').searchParams.has('lang')) problems.push(`${url}: link without lang: ${link}`);
            }
            if (axe) {
              await page.evaluate(axe);
              for (const v of await page.evaluate<string[]>(AXE_SCRIPT)) problems.push(`${url}: axe: ${v}`);
            }
          }
          await page.close();
          assert.deepEqual(problems, [], problems.join('\n'));
        },
      );

      it('the language switch round-trips: fr → en → fr keeps the query', { skip: browserGate.skip, timeout: 120_000 }, async () => {
        const withQuery = paths.filter((p) => p.includes('?'));
        assert.ok(withQuery.length > 0, 'the tour has a page with a query');
        const page = await context!.newPage();
        const query = (u: string) => {
          const params = new URL(u).searchParams;
          params.delete('lang');
          return params.toString();
        };
        try {
          for (const url of withQuery) {
            await page.goto(origin + withLang(url, 'fr'), { waitUntil: 'load' });
            const start = query(page.url());
            await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.locator('nav.languages a[lang="en"]').click()]);
            assert.equal(await page.evaluate<string>('document.documentElement.lang'), 'en', url);
            assert.equal(new URL(page.url()).searchParams.get('lang'), 'en', url);
            assert.equal(query(page.url()), start, url);
            await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.locator('nav.languages a[lang="fr"]').click()]);
            assert.equal(await page.evaluate<string>('document.documentElement.lang'), 'fr', url);
            assert.equal(new URL(page.url()).searchParams.get('lang'), 'fr', url);
            assert.equal(query(page.url()), start, url);
          }
        } finally {
          await page.close();
        }
      });
    },
    { migrations: service.migrations },
  );
}

const chosen = process.env.PDI_PAGES_SERVICES?.split(',').map((s) => s.trim());
for (const [name, catalogue, strict] of [
  ['grants', grantsMessages, false],
  ['draws', drawsMessages, true],
] as const) {
  const service = SERVICES.find((s) => s.name === name);
  if (service && (!chosen || chosen.includes(name))) frenchSuite(service, catalogue as Catalogue<string>, strict);
}
