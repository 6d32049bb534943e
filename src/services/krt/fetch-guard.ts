// Where B's fetch may download from. The upstream's answers name further addresses (bioRxiv's `jatsxml`, a
// redirect's Location), so a hostile or compromised upstream could point the server at itself or at the private
// network (a metrics page, a cloud metadata address). Every request of a fetch goes through a fetch that:
// - accepts only http(s) addresses whose host and port are on the allow-list (PDI_KRT_FETCH_HOSTS, plus the
//   configured endpoints' own hosts);
// - follows redirects itself, each hop checked the same way;
// - resolves the name and refuses it when any of its addresses is loopback, private, link-local, shared, multicast
//   or reserved (IPv4 and IPv6, IPv4-mapped included), unless PDI_KRT_FETCH_ALLOW_PRIVATE says so; and connects to
//   exactly the addresses it checked (no second lookup that a rebinding name could answer differently).
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Readable } from 'node:stream';

/** The real upstream hosts: bioRxiv's and medRxiv's API and sites (JATS files), Europe PMC's REST API. */
export const DEFAULT_FETCH_HOSTS: readonly string[] = [
  'api.biorxiv.org',
  'biorxiv.org',
  'www.biorxiv.org',
  'connect.biorxiv.org',
  'medrxiv.org',
  'www.medrxiv.org',
  'connect.medrxiv.org',
  'www.ebi.ac.uk',
];

/** Redirects followed per request, as browsers and undici bound them. */
const MAX_REDIRECTS = 5;

/** A download the policy refuses: nothing was requested from that address. */
export class FetchRefusedError extends Error {
  override name = 'FetchRefusedError';
}

export interface FetchPolicy {
  /** Allowed `host:port` pairs (host lowercased, IPv6 without brackets). */
  readonly origins: ReadonlySet<string>;
  /** Whether loopback, private and link-local addresses may be connected to. */
  readonly privateAddresses: boolean;
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

function originKey(url: URL): string {
  return `${url.hostname.replace(/^\[|\]$/g, '').toLowerCase()}:${url.port || defaultPort(url.protocol)}`;
}

/**
 * The policy from the environment: PDI_KRT_FETCH_HOSTS (comma-separated `host` or `host:port`, IPv6 in brackets; a
 * host without a port allows 443 and 80) replaces DEFAULT_FETCH_HOSTS; the hosts of `endpoints` (the configured
 * APIs) are always allowed; PDI_KRT_FETCH_ALLOW_PRIVATE=true allows non-public addresses (a local mirror, tests).
 */
export function fetchPolicy(env: NodeJS.ProcessEnv, endpoints: readonly string[]): FetchPolicy {
  const origins = new Set<string>();
  const raw = env.PDI_KRT_FETCH_HOSTS?.trim();
  const entries = raw
    ? raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : DEFAULT_FETCH_HOSTS;
  for (const entry of entries) {
    let url: URL;
    try {
      url = new URL(`http://${entry}`);
    } catch {
      throw new Error(`PDI_KRT_FETCH_HOSTS: "${entry}" is not a host or host:port`);
    }
    if (url.pathname !== '/' || url.username || url.search) throw new Error(`PDI_KRT_FETCH_HOSTS: "${entry}" is not a host or host:port`);
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (url.port) origins.add(`${host}:${url.port}`);
    else origins.add(`${host}:443`).add(`${host}:80`);
  }
  for (const endpoint of endpoints) {
    try {
      origins.add(originKey(new URL(endpoint)));
    } catch {
      // An endpoint that is not an address fails on its own request, with its own message.
    }
  }
  const allow = env.PDI_KRT_FETCH_ALLOW_PRIVATE?.trim().toLowerCase();
  return { origins, privateAddresses: allow === 'true' || allow === '1' || allow === 'yes' };
}

// Addresses that are not on the public internet (IANA special-purpose registries), IPv4-mapped IPv6 included.
const NON_PUBLIC = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  NON_PUBLIC.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  NON_PUBLIC.addSubnet(prefix, bits, 'ipv6');

/** Whether an address (IPv4 or IPv6) is loopback, private, link-local or otherwise not public. */
export function isNonPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true; // not an address at all: never connect to it
  if (family === 6) {
    // NAT64 (64:ff9b::/96) carries an IPv4 address in its last 32 bits: judge that.
    const nat64 = /^64:ff9b::(?:([0-9a-f]{1,4}):([0-9a-f]{1,4})|(\d+\.\d+\.\d+\.\d+))$/i.exec(address);
    if (nat64) {
      const v4 =
        nat64[3] ??
        [nat64[1], nat64[2]]
          .map((h) => Number.parseInt(h, 16))
          .flatMap((n) => [n >> 8, n & 255])
          .join('.');
      return NON_PUBLIC.check(v4, 'ipv4');
    }
  }
  return NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Refuses an address the policy does not allow (scheme, host, port), before anything is asked of it. */
export function checkUrl(policy: FetchPolicy, raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchRefusedError(`${what} "${raw.slice(0, 200)}" is not an address; not fetched`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new FetchRefusedError(`${what} (${url.protocol}) is not an http(s) address; not fetched`);
  const key = originKey(url);
  if (!policy.origins.has(key))
    throw new FetchRefusedError(
      `${what} ${url.protocol}//${url.host}${url.pathname}: ${key} is not an allowed host (PDI_KRT_FETCH_HOSTS); not fetched`,
    );
  return url;
}

type LookupAll = (hostname: string) => Promise<dns.LookupAddress[]>;
const systemLookup: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** The name's addresses, every one checked against the policy; FetchRefusedError if any is not public. */
async function checkedAddresses(policy: FetchPolicy, url: URL, lookup: LookupAll): Promise<dns.LookupAddress[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = net.isIP(host);
  const addresses = family !== 0 ? [{ address: host, family }] : await lookup(host);
  if (addresses.length === 0) throw new FetchRefusedError(`${url.host} has no address`);
  if (!policy.privateAddresses) {
    const bad = addresses.find((a) => isNonPublicAddress(a.address));
    if (bad)
      throw new FetchRefusedError(
        `${url.host} resolves to ${bad.address}, which is not a public address (PDI_KRT_FETCH_ALLOW_PRIVATE); not fetched`,
      );
  }
  return addresses;
}

/** A `lookup` for http.request that answers with the addresses already checked, never asking DNS again. */
function pinnedLookup(addresses: dns.LookupAddress[]): net.LookupFunction {
  return ((_hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    if (wanted.length === 0) {
      callback(Object.assign(new Error('no address of the family asked'), { code: 'ENOTFOUND' }));
      return;
    }
    if (options.all) callback(null, wanted);
    else callback(null, wanted[0].address, wanted[0].family);
  }) as net.LookupFunction;
}

/**
 * A fetch (the subset download() uses: GET with headers and a signal) bound to the policy: every address checked,
 * redirects followed here and each hop checked. A refusal throws FetchRefusedError and calls `onRefused` with it.
 */
export function guardedFetch(
  policy: FetchPolicy,
  options: { onRefused?: (error: FetchRefusedError) => void; lookup?: LookupAll } = {},
): typeof fetch {
  const lookup = options.lookup ?? systemLookup;
  const guarded = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    let current = String(input instanceof Request ? input.url : input);
    let from: string | null = null;
    try {
      for (let hop = 0; ; hop++) {
        const url = checkUrl(policy, current, from === null ? 'the address' : `a redirect from ${from} to`);
        const addresses = await checkedAddresses(policy, url, lookup);
        const response = await request(url, addresses, init);
        const location = response.headers.get('location');
        if (![301, 302, 303, 307, 308].includes(response.status) || location === null) return response;
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) throw new FetchRefusedError(`more than ${MAX_REDIRECTS} redirects from ${url.host}; not followed`);
        from = `${url.host}${url.pathname}`;
        current = new URL(location, url).href;
      }
    } catch (error) {
      if (error instanceof FetchRefusedError) options.onRefused?.(error);
      throw error;
    }
  };
  return guarded as typeof fetch;
}

function request(url: URL, addresses: dns.LookupAddress[], init: RequestInit | undefined): Promise<Response> {
  const headers = new Headers(init?.headers);
  const signal = init?.signal ?? undefined;
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'GET',
      headers: Object.fromEntries(headers),
      lookup: pinnedLookup(addresses),
      signal,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      try {
        const responseHeaders = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        const status = res.statusCode ?? 0;
        const noBody = status === 204 || status === 304;
        if (noBody) res.resume();
        resolve(
          new Response(noBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
            status,
            statusText: res.statusMessage ?? '',
            headers: responseHeaders,
          }),
        );
      } catch (error) {
        // A status fetch cannot represent (below 200 or above 599), or a header it refuses.
        res.destroy();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    req.end();
  });
}
