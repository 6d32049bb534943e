// Security headers on every response (@fastify/helmet), in one place for the API, /docs and the pages.
import helmet from '@fastify/helmet';
import type { ServiceApp } from '../service.ts';

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

export async function registerSecurityHeaders(app: ServiceApp): Promise<void> {
  await app.register(helmet, {
    global: true,
    // useDefaults off: helmet's defaults add upgrade-insecure-requests, which breaks pages served over plain
    // HTTP on a LAN address (their scripts would be fetched over https).
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    // Public data: other sites may load it (CORS still decides which cross-origin scripts may read it).
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // The listeners speak plain HTTP; HSTS belongs to the proxy that terminates TLS for the real host name.
    strictTransportSecurity: false,
  });
}
