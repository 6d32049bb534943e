// Security headers on every response, in one place for the API, /docs and the pages. The values come from helmet
// (Helmet.js, the library @fastify/helmet wraps), with the options below. The middleware is built once: the
// @fastify/helmet plugin builds a new helmet middleware on every request (its onRequest hook calls
// `helmet(options)` each time), which measured 57 µs a request against 2 µs for applying a middleware built once
// (bench/scratch, 20,000 calls, this 2-core machine under load); the headers do not depend on the request.
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HelmetOptions } from 'helmet';
import type { ServiceApp } from '../service.ts';

// helmet is @fastify/helmet's own dependency: resolved from there, so it is the version the plugin is tested with.
const helmet = createRequire(import.meta.resolve('@fastify/helmet'))('helmet') as (
  options: Readonly<HelmetOptions>,
) => (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * The content security policy. HTML here (/docs, the pages) loads scripts only from its own origin, never
 * inline; styles may be inline (the /docs page is one self-contained file); nothing may frame it; forms post
 * only to the service itself. On JSON it costs nothing and keeps a response that a browser is tricked into
 * rendering inert.
 */
export const CONTENT_SECURITY_POLICY: Record<string, string[]> = {
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

export const HELMET_OPTIONS: Readonly<HelmetOptions> = {
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

export function registerSecurityHeaders(app: ServiceApp): void {
  const setHeaders = helmet(HELMET_OPTIONS);
  app.addHook('onRequest', (request, reply, done) => setHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)));
}
