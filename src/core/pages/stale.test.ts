// The stale notice of the pages: real data older than PDI_SYNC_STALE_AFTER is said on every page,
// re-read with time (not only when the data changes); demo data and fresh data carry no notice.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyRequest } from 'fastify';
import { describeEachDatabase } from '../../../test/support/databases.ts';
import { coreTables } from '../db/tables.ts';
import { recordDataVersion } from '../db/datasets.ts';
import { DEFAULT_PORTS } from '../config.ts';
import { PageKit } from './index.ts';
import { formatDate } from '../i18n/format.ts';

const request = { hostname: '127.0.0.1', protocol: 'http', headers: {}, query: {}, url: '/' } as FastifyRequest;

describeEachDatabase('pages: stale data notice', (t) => {
  const kit = (env: Record<string, string>) =>
    new PageKit(
      { name: 'draws', db: t.db, config: { env, ports: DEFAULT_PORTS }, dataVersion: { current: async () => 'v1' } },
      { serviceTitle: 'Express Entry draws', sections: [] },
    );
  const page = async (k: PageKit) => (await k.render(request, { title: 'Next draws', body: 'x' })).text;

  it('says when real data was last confirmed once it is older than the limit, and not before', async () => {
    await recordDataVersion(t.db.kysely, {
      service: 'draws',
      dataset: 'rounds',
      version: 'v1',
      source: 'feed.json',
      isDemo: false,
      report: {},
    });
    assert.doesNotMatch(await page(kit({ PDI_SYNC_STALE_AFTER: '7d' })), /stale-banner/);
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000).toISOString();
    await coreTables(t.db.kysely).updateTable('data_versions').set({ imported_at: tenDaysAgo }).where('service', '=', 'draws').execute();
    const html = await page(kit({ PDI_SYNC_STALE_AFTER: '7d' }));
    assert.match(html, /<p class="stale-banner" role="note">\s*<strong>Data may be out of date\.<\/strong>/);
    assert.match(html, new RegExp(`last confirmed against its source on ${formatDate('en', tenDaysAgo)}\\s*\\(10 days ago\\)`));
    assert.doesNotMatch(await page(kit({ PDI_SYNC_STALE_AFTER: 'off' })), /stale-banner/);
    assert.doesNotMatch(await page(kit({ PDI_SYNC_STALE_AFTER: '30d' })), /stale-banner/);
  });

  it('never calls generated demo data stale', async () => {
    await recordDataVersion(t.db.kysely, { service: 'oral', dataset: 'demo', version: 'd1', source: null, isDemo: true, report: {} });
    await coreTables(t.db.kysely)
      .updateTable('data_versions')
      .set({ imported_at: '2020-01-01T00:00:00.000Z' })
      .where('service', '=', 'oral')
      .execute();
    const k = new PageKit(
      {
        name: 'oral',
        db: t.db,
        config: { env: { PDI_SYNC_STALE_AFTER: '1d' }, ports: DEFAULT_PORTS },
        dataVersion: { current: async () => 'd1' },
      },
      { serviceTitle: 'Oral health evidence', sections: [] },
    );
    assert.doesNotMatch(await page(k), /stale-banner/);
  });
});
