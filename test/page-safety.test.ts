// What a client or a data file can put into the pages the services cache and share: a forged Host header never
// reaches another visitor (the navigation between services is configured or relative), and an address stored in
// the data is a link only when it is http(s) (a `javascript:` one is shown as text). Every page a visitor can reach
// from `/` is read, for every service, on demo data, on SQLite and PostgreSQL.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { ServiceApp, ServiceModule } from '../src/core/service.ts';
import { SERVICES } from '../src/services/registry.ts';
import { AS_OF_VARIABLE } from '../src/services/draws/as-of.ts';
import { buildTestApp, testContext } from './support/app.ts';
import { describeEachDatabase, needsSharedData } from './support/databases.ts';

const DEMO_SIZES: Record<string, number> = { oral: 40, krt: 3, grants: 1500, draws: 120, retraction: 150 };
const MAX_PAGES = 40;
const HOSTILE_URL = 'javascript:alert(document.domain)';
/** Stored addresses the pages render, set to a script address before the pages are read. */
const STORED_ADDRESSES: Record<string, Array<[table: string, column: string]>> = {
  oral: [
    ['oral_organizations', 'website'],
    ['oral_guidelines', 'url'],
    ['oral_recommendations', 'source_url'],
    ['oral_reviews', 'url'],
  ],
  draws: [['draws_draws', 'url']],
};

/** The hrefs of a page, entities decoded. */
function hrefs(page: string): string[] {
  return [...page.matchAll(/\shref="([^"]*)"/g)].map((m) =>
    m[1]
      .replace(/&amp;/g, '&')
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"'),
  );
}

/** Pages of this service worth following: its own HTML addresses (not the API, documents, downloads or assets). */
function followable(href: string): boolean {
  return (
    href.startsWith('/') &&
    !href.startsWith('//') &&
    !/^\/(api|docs|openapi|assets|static|services|metrics)\b/.test(href) &&
    !/\.(css|js|svg|csv|json|xlsx)$/.test(href)
  );
}

function suite(service: ServiceModule): void {
  const gate = service.name === 'retraction' ? needsSharedData('retraction') : { problem: null };
  describeEachDatabase(
    `pages of ${service.name}: no forged Host, no stored script address`,
    (t) => {
      let dir: string;
      let app: ServiceApp;
      let pages: string[] = [];
      let ctx: ReturnType<typeof testContext>;
      before(async () => {
        if (gate.problem) throw new Error(gate.problem);
        dir = fs.mkdtempSync(path.join(os.tmpdir(), `pdi-page-safety-${service.name}-`));
        ctx = testContext(service, t.db, { dataDir: dir, env: { ...process.env, [AS_OF_VARIABLE]: '2025-12-17' } });
        await service.loadDemo(ctx, { size: DEMO_SIZES[service.name], seed: 7 });
        for (const [table, column] of STORED_ADDRESSES[service.name] ?? [])
          await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${HOSTILE_URL}`.execute(t.db.kysely);
        app = await buildTestApp(service, ctx);
        // Every page reachable from / (breadth first, a bounded number).
        const seen = new Set(['/']);
        const queue = ['/'];
        while (queue.length > 0 && pages.length < MAX_PAGES) {
          const url = queue.shift()!;
          const res = await app.inject({ url, headers: { host: 'pdi.test' } });
          if (res.statusCode !== 200 || !String(res.headers['content-type']).startsWith('text/html')) continue;
          pages.push(url);
          for (const href of hrefs(res.body).filter(followable)) {
            const key = href.split('#')[0];
            if (!seen.has(key)) {
              seen.add(key);
              queue.push(key);
            }
          }
        }
      });
      after(async () => {
        await app?.close();
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
        pages = [];
      });

      it('pages requested with a forged Host never send it to the next visitors', async () => {
        assert.ok(pages.length >= 2, `pages reached: ${pages.join(', ')}`);
        // A new app (an empty response cache): the forged requests come first.
        const fresh = await buildTestApp(service, ctx);
        const problems: string[] = [];
        try {
          const forged = { host: 'attacker.example', 'x-forwarded-host': 'attacker.example' };
          for (const url of pages)
            for (let i = 0; i < 4; i++) {
              const res = await fresh.inject({ url, headers: forged });
              if (res.body.includes('attacker.example')) problems.push(`${url} answered the forged request with its Host`);
            }
          for (const url of pages) {
            const res = await fresh.inject({ url, headers: { host: `pdi.test:${8000 + SERVICES.indexOf(service) + 1}` } });
            assert.equal(res.statusCode, 200, url);
            if (res.body.includes('attacker.example')) problems.push(`${url} showed an honest visitor the forged Host`);
          }
        } finally {
          await fresh.close();
        }
        assert.deepEqual(problems, []);
      });

      it('the navigation to another service leads to its port on the host the browser named, and is never stored', async () => {
        const other = SERVICES.find((s) => s.name !== service.name)!;
        const home = await app.inject({ url: '/', headers: { host: 'pdi.test' } });
        assert.ok(hrefs(home.body).includes(`/services/${other.name}/`), `/ links ${hrefs(home.body).join(', ')}`);
        const res = await app.inject({ url: `/services/${other.name}/`, headers: { host: 'pdi.test:9999' } });
        assert.equal(res.statusCode, 302);
        assert.equal(res.headers.location, `http://pdi.test:${testContext(other, t.db).config.ports[other.name]}/`);
        assert.equal(res.headers['cache-control'], 'no-store');
        const again = await app.inject({ url: `/services/${other.name}/`, headers: { host: 'elsewhere.test' } });
        assert.match(String(again.headers.location), /^http:\/\/elsewhere\.test:\d+\/$/);
      });

      it('a stored address is a link only when it is http(s)', async () => {
        assert.ok(pages.length >= 2);
        let shown = 0;
        for (const url of pages) {
          const res = await app.inject({ url, headers: { host: 'pdi.test' } });
          for (const href of hrefs(res.body))
            assert.ok(/^(https?:\/\/|\/|\?|#)/.test(href) || /^[\w.-]+(\/|$|\?)/.test(href), `${url} links ${JSON.stringify(href)}`);
          if (res.body.includes(HOSTILE_URL)) shown++;
        }
        // not vacuous: where a page prints the address itself (A's guideline and review sources), it is there, as text
        if (service.name === 'oral') assert.ok(shown > 0, `no page read shows a stored address: ${pages.join(', ')}`);
      });
    },
    { migrations: service.migrations },
  );
}

for (const service of SERVICES) suite(service);

it('a configured public address replaces the derived one in every page', async () => {
  const { PageKit } = await import('../src/core/pages/index.ts');
  const { openDatabase } = await import('../src/core/db/database.ts');
  const db = openDatabase('sqlite::memory:');
  try {
    const ctx = {
      name: 'oral' as const,
      db,
      config: { env: { PDI_PUBLIC_URL_KRT: 'https://krt.example.org/', PDI_PUBLIC_URL_GRANTS: 'javascript:alert(1)' }, ports: {} as never },
      dataVersion: { current: async () => null },
    };
    const kit = new PageKit(ctx, { serviceTitle: 'Oral', sections: [] });
    const links = Object.fromEntries(kit.serviceLinks().map((l) => [l.name, l.url]));
    assert.deepEqual(links, {
      oral: '/',
      krt: 'https://krt.example.org/',
      grants: '/services/grants/',
      draws: '/services/draws/',
      retraction: '/services/retraction/',
    });
  } finally {
    await db.close();
  }
});
