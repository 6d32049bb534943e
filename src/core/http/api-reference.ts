// /docs: the interactive API reference (Swagger UI, from the swagger-ui-dist package, served by the service itself:
// no CDN), started by a script file (the content security policy allows no inline script), with the
// server-rendered reference under it for readers without scripts. And /favicon.ico, which browsers ask every page for.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { ServiceApp } from '../service.ts';
import { AssetRegistry } from '../pages/assets.ts';
import { renderDocsPage } from './docs.ts';
import type { OpenApiDocument } from './docs.ts';

const STATIC = path.join(import.meta.dirname, 'static');
const YEAR = 31_536_000;

let shared: { assets: AssetRegistry; favicon: Buffer } | null = null;

/** Read once per process (Swagger UI's bundle is 1.8 MB), shared by every service's app. */
function files(): { assets: AssetRegistry; favicon: Buffer } {
  if (shared) return shared;
  const dist = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const assets = new AssetRegistry();
  assets.addFile(path.join(dist, 'swagger-ui.css'));
  assets.addFile(path.join(dist, 'swagger-ui-bundle.js'));
  assets.addFile(path.join(STATIC, 'api-docs.js'));
  shared = { assets, favicon: fs.readFileSync(path.join(STATIC, 'favicon.ico')) };
  return shared;
}

/** The /docs page: Swagger UI over the server-rendered reference. `base` leads from the page to the service's root. */
function renderApiReference(doc: OpenApiDocument, base: string): string {
  const { assets } = files();
  const at = (name: string) => `${base}${assets.url(name).slice(1)}`;
  return renderDocsPage(doc, base, {
    head: `<link rel="icon" href="${base}favicon.ico"><link rel="stylesheet" href="${at('swagger-ui.css')}">`,
    interactive: `<div id="swagger-ui" data-openapi="${base}openapi.json"></div>`,
    scripts: `<script src="${at('swagger-ui-bundle.js')}"></script><script src="${at('api-docs.js')}"></script>`,
  });
}

export function registerApiReference(app: ServiceApp): void {
  const { assets, favicon } = files();
  app.get('/docs', { schema: { hide: true }, config: { cacheSeconds: 300 } }, async (request, reply) => {
    reply.header('content-type', 'text/html; charset=utf-8');
    // Relative links, so the page works behind a proxy that serves the service under a path prefix.
    const base = request.url.split('?')[0].endsWith('/') ? '../' : './';
    return renderApiReference(app.swagger() as OpenApiDocument, base);
  });
  for (const asset of assets.all())
    app.get(asset.url, { schema: { hide: true }, config: { cacheSeconds: YEAR } }, async (_request, reply) => {
      reply.header('content-type', asset.contentType).header('cache-control', `public, max-age=${YEAR}, immutable`);
      return asset.body;
    });
  app.get('/favicon.ico', { schema: { hide: true }, config: { cacheSeconds: 86_400 } }, async (_request, reply) => {
    reply.header('content-type', 'image/x-icon');
    return favicon;
  });
}
