// The fetch policy of B's fetch: which addresses are public, which hosts and ports the allow-list admits, and that a
// name with any non-public address is refused before a connection is made (every address checked, IPv4 and IPv6).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FetchRefusedError } from './fetch-guard.ts';
import { DEFAULT_FETCH_HOSTS, checkUrl, fetchPolicy, guardedFetch, isNonPublicAddress } from './fetch-guard.ts';

describe('isNonPublicAddress', () => {
  it('refuses loopback, private, link-local, shared, multicast and reserved addresses, IPv4 and IPv6', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '0.0.0.0',
      '10.1.2.3',
      '100.64.0.1',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::7f00:1',
      '64:ff9b::10.0.0.1',
      'not an address',
    ])
      assert.equal(isNonPublicAddress(address), true, address);
    for (const address of ['8.8.8.8', '172.32.0.1', '193.62.193.80', '2606:4700::6810:84e5', '::ffff:8.8.8.8', '64:ff9b::808:808'])
      assert.equal(isNonPublicAddress(address), false, address);
  });
});

describe('fetchPolicy', () => {
  it('allows the real upstream hosts by default, on 443 and 80 only, and the configured endpoints on their own port', () => {
    const policy = fetchPolicy({}, ['https://api.biorxiv.org', 'http://mirror.example:8080/rest']);
    assert.equal(policy.privateAddresses, false);
    for (const host of DEFAULT_FETCH_HOSTS) assert.ok(policy.origins.has(`${host}:443`), host);
    assert.ok(policy.origins.has('mirror.example:8080'));
    assert.equal(checkUrl(policy, 'https://www.biorxiv.org/content/x.source.xml', 'x').host, 'www.biorxiv.org');
    for (const [url, message] of [
      ['https://www.biorxiv.org:8443/x.xml', /www\.biorxiv\.org:8443 is not an allowed host/],
      ['https://evil.example/x.xml', /evil\.example:443 is not an allowed host/],
      ['http://mirror.example/x.xml', /mirror\.example:80 is not an allowed host/],
      ['file:///etc/passwd', /\(file:\) is not an http\(s\) address/],
      ['no address', /is not an address/],
    ] as const)
      assert.throws(() => checkUrl(policy, url, 'x'), message, url);
  });

  it('takes PDI_KRT_FETCH_HOSTS instead of the default list (IPv6 in brackets) and PDI_KRT_FETCH_ALLOW_PRIVATE', () => {
    const policy = fetchPolicy(
      { PDI_KRT_FETCH_HOSTS: ' Mirror.Example , [::1]:9000,10.0.0.5:81', PDI_KRT_FETCH_ALLOW_PRIVATE: 'true' },
      [],
    );
    assert.deepEqual([...policy.origins].sort(), ['10.0.0.5:81', '::1:9000', 'mirror.example:443', 'mirror.example:80']);
    assert.equal(policy.privateAddresses, true);
    assert.throws(() => checkUrl(policy, 'https://www.biorxiv.org/x', 'x'), /not an allowed host/);
    assert.throws(
      () => fetchPolicy({ PDI_KRT_FETCH_HOSTS: 'host/path' }, []),
      /PDI_KRT_FETCH_HOSTS: "host\/path" is not a host or host:port/,
    );
  });
});

describe('guardedFetch', () => {
  it('refuses a name when any of its addresses is not public, before connecting', async () => {
    const policy = fetchPolicy({ PDI_KRT_FETCH_HOSTS: 'upstream.example' }, []);
    const refusals: FetchRefusedError[] = [];
    const guarded = guardedFetch(policy, {
      onRefused: (error) => refusals.push(error),
      lookup: async () => [
        { address: '93.184.215.14', family: 4 },
        { address: '::1', family: 6 },
      ],
    });
    await assert.rejects(guarded('https://upstream.example/x.xml'), {
      name: 'FetchRefusedError',
      message: 'upstream.example resolves to ::1, which is not a public address (PDI_KRT_FETCH_ALLOW_PRIVATE); not fetched',
    });
    await assert.rejects(guarded('https://169.254.169.254/latest/meta-data/'), /169\.254\.169\.254:443 is not an allowed host/);
    assert.equal(refusals.length, 2);
  });
});
