// Which X-Forwarded-For entries name the client (the rate-limit key), for each PDI_TRUST_PROXY
// setting, with clients that forge the header.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, parseTrustProxy } from '../src/core/config.ts';
import type { Config } from '../src/core/config.ts';
import { openDatabase } from '../src/core/db/database.ts';
import type { Db } from '../src/core/db/database.ts';
import type { ServiceApp } from '../src/core/service.ts';
import { buildTestApp } from './support/app.ts';
import { PROBE_LIMIT, probeService } from './support/probe-service.ts';

const PROXY = '10.0.0.1';

describe('PDI_TRUST_PROXY is read as false, true, a hop count or addresses', () => {
  const cases: [string | undefined, Config['trustProxy']][] = [
    [undefined, false],
    ['', false],
    ['false', false],
    ['0', false],
    ['true', true],
    ['1', 1],
    [' 2 ', 2],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.0/8, 192.168.1.1 ,loopback', ['10.0.0.0/8', '192.168.1.1', 'loopback']],
  ];
  for (const [raw, expected] of cases)
    it(`${JSON.stringify(raw)} → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(parseTrustProxy(raw), expected);
      assert.deepEqual(loadConfig({ PDI_TRUST_PROXY: raw }).trustProxy, expected);
    });
});

describe('rate limits per client behind proxies, with forged X-Forwarded-For', () => {
  let db: Db;
  const apps: ServiceApp[] = [];
  before(() => {
    db = openDatabase('sqlite::memory:');
  });
  after(async () => {
    for (const app of apps) await app.close();
    await db.close();
  });

  async function appWith(trustProxy: Config['trustProxy']): Promise<ServiceApp> {
    const app = await buildTestApp(probeService, db, { trustProxy });
    apps.push(app);
    return app;
  }

  /** Statuses of PROBE_LIMIT + 1 requests, each with its own X-Forwarded-For, from one socket address. */
  async function burst(app: ServiceApp, remoteAddress: string, forwarded: (i: number) => string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i <= PROBE_LIMIT; i++) {
      const res = await app.inject({ url: '/api/limited/', remoteAddress, headers: { 'x-forwarded-for': forwarded(i) } });
      statuses.push(res.statusCode);
    }
    return statuses;
  }
  const limited = [...Array<number>(PROBE_LIMIT).fill(200), 429];
  const free = Array<number>(PROBE_LIMIT + 1).fill(200);

  it('false: the socket address is the client; a forged header changes nothing', async () => {
    const app = await appWith(false);
    assert.deepEqual(await burst(app, '198.51.100.1', (i) => `203.0.113.${i}`), limited);
    const ip = (
      await app.inject({ url: '/api/limited/', remoteAddress: '198.51.100.2', headers: { 'x-forwarded-for': '1.2.3.4' } })
    ).json();
    assert.equal(ip.ip, '198.51.100.2');
  });

  it('1 (one proxy): the address the proxy appended is the client, whatever the client wrote before it', async () => {
    const app = await appWith(1);
    // The real client 203.0.113.7 forges a different leftmost entry on each request: one bucket all the same.
    assert.deepEqual(await burst(app, PROXY, (i) => `6.6.6.${i}, 203.0.113.7`), limited);
    // Another client behind the same proxy has its own bucket (with the hop count ignored, all shared the proxy's).
    assert.deepEqual(await burst(app, PROXY, () => '203.0.113.8'), limited);
    const other = await app.inject({ url: '/api/limited/', remoteAddress: PROXY, headers: { 'x-forwarded-for': '203.0.113.9' } });
    assert.equal(other.statusCode, 200);
    assert.equal(other.json().ip, '203.0.113.9');
  });

  it('2 (two proxies): the second entry from the right is the client', async () => {
    const app = await appWith(2);
    const res = await app.inject({
      url: '/api/limited/',
      remoteAddress: PROXY,
      headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.5, 10.0.0.2' },
    });
    assert.equal(res.json().ip, '203.0.113.5');
  });

  it('addresses: only the listed proxies are believed; a client connecting directly cannot forge', async () => {
    const app = await appWith(['10.0.0.0/8']);
    assert.deepEqual(await burst(app, PROXY, (i) => `6.6.6.${i}, 203.0.113.20`), limited);
    // Directly from the internet with a forged header: the socket address counts.
    assert.deepEqual(await burst(app, '198.51.100.30', (i) => `203.0.113.${100 + i}`), limited);
    const chain = await app.inject({
      url: '/api/limited/',
      remoteAddress: PROXY,
      headers: { 'x-forwarded-for': '203.0.113.21, 10.9.9.9' },
    });
    assert.equal(chain.json().ip, '203.0.113.21', 'two trusted proxies in the chain');
  });

  it('true: the leftmost entry is believed, so a client can pick its bucket (only behind a proxy that overwrites the header)', async () => {
    const app = await appWith(true);
    assert.deepEqual(await burst(app, '198.51.100.40', (i) => `6.6.6.${i}`), free);
  });
});
