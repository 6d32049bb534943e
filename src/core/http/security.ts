// Security headers on every response, in one place for the API, /docs and the pages.
//
// Two sets, chosen by the answer's media type once it is known (onSend):
//  - documents (HTML: the pages and /docs) get helmet's full set (Helmet.js, the library @fastify/helmet wraps),
//    with the options below: a content security policy for scripts and styles, COOP, Origin-Agent-Cluster,
//    X-DNS-Prefetch-Control and the rest, which only a browsing context reads;
//  - everything else (JSON, CSV, XML, scripts, errors) gets the set the OWASP REST Security Cheat Sheet
//    ("Security headers") recommends for API responses: `Content-Security-Policy: default-src 'none';
//    frame-ancestors 'none'` (nothing in a JSON answer a browser is tricked into rendering may load or run),
//    `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`, plus `Referrer-Policy: no-referrer` and
//    `Cross-Origin-Resource-Policy: cross-origin` (public data, other sites may load it).
// The header values are computed once at start-up: @fastify/helmet builds a new helmet middleware on every
// request, far dearer than one built once; and the six document-only headers
// cost every API answer about 400 bytes that its client must read too (a cached answer's cost).
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HelmetOptions } from 'helmet';
import type { ServiceApp } from '../service.ts';

// helmet is @fastify/helmet's own dependency: resolved from there, so it is the version the plugin is tested with.
const helmet = createRequire(import.meta.resolve('@fastify/helmet'))('helmet') as (
  options: Readonly<HelmetOptions>,
) => (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * The content security policy. HTML here (/docs, the pages) loads scripts only from its own origin, never
 * inline; styles may be inline (the /docs page is one self-contained file); nothing may frame it; forms post
 * only to the service itself. (Answers that are not HTML carry API_HEADERS' stricter policy instead.)
 */
const CONTENT_SECURITY_POLICY: Record<string, string[]> = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
};

const HELMET_OPTIONS: Readonly<HelmetOptions> = {
  // useDefaults off: helmet's defaults add upgrade-insecure-requests, which breaks pages served over plain
  // HTTP on a LAN address (their scripts would be fetched over https).
  contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
  // Public data: other sites may load it (CORS still decides which cross-origin scripts may read it).
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  referrerPolicy: { policy: 'no-referrer' },
  xFrameOptions: { action: 'deny' },
  // The listeners speak plain HTTP; HSTS belongs to the proxy that terminates TLS for the real host name.
  strictTransportSecurity: false,
};

type HeaderList = ReadonlyArray<readonly [string, string]>;

/** The headers helmet's middleware sets with these options, read once from a response that records them. */
function documentHeaders(): HeaderList {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.push([name.toLowerCase(), String(value)]),
    removeHeader: () => undefined,
    getHeader: () => undefined,
  };
  let failure: unknown = null;
  helmet(HELMET_OPTIONS)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => (failure = error ?? null));
  if (failure) throw failure as Error;
  return headers;
}

/** Headers of an HTML answer (a page, /docs). */
const DOCUMENT_HEADERS: HeaderList = documentHeaders();

/** Headers of every other answer (OWASP REST Security Cheat Sheet, "Security headers"). */
const API_HEADERS: HeaderList = [
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
  ['cross-origin-resource-policy', 'cross-origin'],
  ['referrer-policy', 'no-referrer'],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
];

/** The set for an answer of this media type. */
export function securityHeadersFor(contentType: unknown): HeaderList {
  return typeof contentType === 'string' && contentType.startsWith('text/html') ? DOCUMENT_HEADERS : API_HEADERS;
}

export function registerSecurityHeaders(app: ServiceApp): void {
  app.addHook(
    'onSend',
    (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
      for (const [name, value] of securityHeadersFor(reply.getHeader('content-type')))
        if (!reply.hasHeader(name)) reply.header(name, value);
      done(null, payload);
    },
  );
}
