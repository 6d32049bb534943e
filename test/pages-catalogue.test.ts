// A's and E's pages say nothing that is not from a message catalogue or from the data, on SQLite and PostgreSQL: every
// catalogue's output is wrapped in markers (a private-use character before and after), each page of the service's
// tour (test/support/<svc>/page-tour.ts) is rendered on its demo data, the marked text is taken out, and every
// fragment with letters that is left (in the text, in the SVG charts and in the attributes people read: aria-label,
// title, placeholder, alt) must be a part of a value stored in the service's tables or the data versions, or of a
// text the service's API serves for the page to show (E's model notes, interpretations and definitions): a string
// written into a page's code shows up as a fragment that is in none of them, naming the page and the fragment.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { Catalogue } from '../src/core/i18n/catalogue.ts';
import type { ServiceApp, ServiceModule } from '../src/core/service.ts';
import { SERVICES } from '../src/services/registry.ts';
import { buildTestApp, testContext } from './support/app.ts';
import { describeEachDatabase } from './support/databases.ts';
import { pageTour as oralTour } from './support/oral/page-tour.ts';
import { pageTour as retractionTour } from './support/retraction/page-tour.ts';
import { COUNTRIES, EVIDENCE_QUALITIES, STRENGTHS, TOPICS } from '../src/services/oral/sources/vocabulary.ts';

const OPEN = '\uE000';
const CLOSE = '\uE001';

/**
 * Pages whose strings are not all in the catalogue yet, each with why: the test skips them and says so. Kept short on
 * purpose: an entry is work left, not a rule.
 */
const NOT_YET: Record<string, string> = {};

/** The dates pages write (loc.date, Intl's) and the month abbreviations of the charts' time axes (ECharts' own). */
const DATES =
  /\b(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}\b|^(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)$/g;

/** The vocabularies A reads its sources with (the names and descriptions its pages show are these, not messages). */
const VOCABULARIES = [
  ...COUNTRIES.map((c) => c.name),
  ...[TOPICS, STRENGTHS, EVIDENCE_QUALITIES].flatMap((v) => v.entries.flatMap((e) => [e.name, e.description])),
];

function decode(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&');
}

/** What a reader reads of a page: its text nodes (script and style left out) and its readable attributes. */
function readable(page: string): string[] {
  const body = page.replace(/<(script|style)\b[\s\S]*?<\/\1>/g, '');
  const attributes = [...body.matchAll(/\s(?:aria-label|title|placeholder|alt)="([^"]*)"/g)].map((m) => m[1]);
  const texts = body.split(/<[^>]*>/);
  return [...texts, ...attributes].map(decode);
}

/** A text without its marked parts (nested marks included; a mark a chart cut short runs to the end of the text). */
function unmarked(text: string): string {
  let out = text;
  for (;;) {
    const next = out.replace(new RegExp(`${OPEN}[^${OPEN}${CLOSE}]*(?:${CLOSE}|$)`, 'g'), ' ');
    if (next === out) return out.replace(new RegExp(`[${OPEN}${CLOSE}]`, 'g'), ' ');
    out = next;
  }
}

/** Every text value stored for the service: its own tables and the data versions (the footer's sources). */
async function storedText(service: ServiceModule, db: Parameters<typeof testContext>[1]): Promise<string> {
  const tables = (await db.kysely.introspection.getTables()).map((t) => t.name).filter((name) => name.startsWith(`${service.name}_`));
  const parts: string[] = [];
  for (const table of [...tables, 'data_versions']) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db.kysely);
    for (const row of rows.rows)
      for (const value of Object.values(row)) {
        // PostgreSQL gives a json column as the value it holds, SQLite as its text.
        if (typeof value === 'string') parts.push(value);
        else if (value !== null && typeof value === 'object' && !(value instanceof Date)) parts.push(JSON.stringify(value));
      }
  }
  if (service.name === 'oral') parts.push(...VOCABULARIES);
  return parts.join('\n');
}

/**
 * The texts of the API bodies a page shows as they are served (the democracy model's notes, interpretations,
 * definitions and methodology are the API's, in the API's language), for every model source the page can show.
 */
const SERVED: Record<string, string[]> = {
  retraction: [
    'overview',
    'visualizations',
    'statistical-results',
    'model-diagnostics',
    'posterior-predictive',
    'methodology',
    'model-comparison',
  ].flatMap((name) => [`/api/democracy/${name}/`, `/api/democracy/${name}/?source=fitted`, `/api/democracy/${name}/?source=imported`]),
};

/** Every string of the JSON bodies a service serves for its pages (a refused source adds nothing). */
async function servedText(app: ServiceApp, name: string): Promise<string> {
  const parts: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') parts.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const url of SERVED[name] ?? []) {
    const res = await app.inject(url);
    if (res.statusCode === 200) walk(res.json());
  }
  return parts.join('\n');
}

const TOURS: Array<[string, (app: ServiceApp) => Promise<string[]>]> = [
  ['oral', oralTour],
  ['retraction', retractionTour],
];

for (const [name, tour] of TOURS) {
  const service = SERVICES.find((s) => s.name === name)!;
  describeEachDatabase(
    `${name} pages: every word from the catalogue or the data`,
    (t) => {
      let app: ServiceApp;
      let haystack = '';
      const format = Catalogue.prototype.format;
      before(async () => {
        const ctx = testContext(service, t.db, { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), `pdi-${name}-catalogue-`)) });
        await service.loadDemo(ctx, name === 'retraction' ? { size: 300 } : {});
        Catalogue.prototype.format = function marked(this: Catalogue<string>, ...args: Parameters<typeof format>) {
          return `${OPEN}${format.apply(this, args)}${CLOSE}`;
        };
        app = await buildTestApp(service, ctx);
        haystack = `${await storedText(service, t.db)}\n${await servedText(app, name)}`.toLowerCase();
      });
      after(async () => {
        Catalogue.prototype.format = format;
        await app?.close();
      });

      it('no page of the tour shows a fragment that is in neither a catalogue nor the data', async (context) => {
        const left: string[] = [];
        for (const url of await tour(app)) {
          const skip = Object.keys(NOT_YET).find((prefix) => url.split('?')[0] === prefix);
          if (skip) {
            context.diagnostic(`${url}: skipped, ${NOT_YET[skip]}`);
            continue;
          }
          const res = await app.inject(url);
          assert.equal(res.statusCode, 200, url);
          for (const text of readable(res.body)) {
            for (const fragment of unmarked(text)
              .replace(DATES, ' ')
              .split(/\s*[·|;,:()\[\]«»“”"–—]\s*|\s{2,}/)) {
              // A forest plot's label starts with its table row and the GRADE symbols; an address shown as text is no word.
              const words = fragment
                .replace(/^\d+\s+[⊕◯—]+\s*/u, '')
                .replace(/\p{Regional_Indicator}/gu, '')
                .replace(/^[\s.…'’\-–—/]+|[\s.…'’\-–—/]+$/g, '')
                .replace(/…$|\.\.\.$/, '');
              if (!/\p{L}{2}/u.test(words) || /^\/?api\//.test(words)) continue;
              if (!haystack.includes(words.toLowerCase())) left.push(`${url}: “${words}”`);
            }
          }
        }
        assert.deepEqual([...new Set(left)].slice(0, 40), [], 'text neither from a catalogue nor from the data');
      });
    },
    { migrations: service.migrations },
  );
}
