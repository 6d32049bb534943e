// Registers a service's pages on its app: the page routes (hidden from OpenAPI) and the assets they use. Kept apart
// from index.ts, which the service contract (core/service.ts) names: this file needs the contract, index.ts must not.
import type { ServiceApp, ServicePages, ServingContext } from '../service.ts';
import type { NewestObservationReader } from '../sync/status.ts';
import { coreAssets } from './assets.ts';
import { SERVICE_NAMES } from '../config.ts';
import { PageKit } from './index.ts';

/** A page route as registered: its method, address and schemas (the parameters it validates). */
interface PageRoute {
  method: string;
  url: string;
  schema: { querystring?: unknown; params?: unknown; body?: unknown };
}

const pageRoutes = new WeakMap<object, PageRoute[]>();

/** The page routes of a service's app (what every page validates, for the tests that go over them all). */
export function pageRoutesOf(app: object): readonly PageRoute[] {
  return pageRoutes.get(app) ?? [];
}

/** Registers a service's pages and the assets they use (core's and the service's own scripts), hidden from OpenAPI. */
export async function registerPages(
  app: ServiceApp,
  pages: ServicePages,
  ctx: ServingContext,
  newestObservation?: NewestObservationReader,
): Promise<void> {
  const assets = coreAssets();
  for (const [name, file] of Object.entries(pages.scripts ?? {})) assets.addFile(file, name);
  const kit = new PageKit(ctx, {
    serviceTitle: pages.title,
    sections: pages.sections,
    assets,
    newestObservation,
    languages: pages.languages,
    header: pages.header,
  });
  registerAssets(app, kit);
  registerServiceHops(app, kit);
  const routes: PageRoute[] = [];
  pageRoutes.set(app, routes);
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method: String(method), url: route.url, schema: route.schema ?? {} });
      route.schema = { ...(route.schema ?? {}), hide: true };
      // A page in several languages answers each in its own: the response cache keys it by the negotiated one.
      if (kit.languages.length > 1) route.config = { ...(route.config ?? {}), languages: kit.languages };
    });
    await pages.routes(scope as ServiceApp, ctx, kit);
  });
}

/** Serves the kit's assets at their hashed addresses with a year-long immutable cache (hidden from OpenAPI). */
function registerAssets(app: ServiceApp, kit: PageKit): void {
  for (const asset of kit.assets.all()) {
    app.get(asset.url, { schema: { hide: true }, config: { cacheSeconds: 31536000 } }, async (_request, reply) => {
      reply.header('content-type', asset.contentType).header('cache-control', 'public, max-age=31536000, immutable');
      return asset.body;
    });
  }
}

/**
 * `/services/<name>/`: the navigation's link to another service when its public address is not configured. The
 * redirect is built per request from the host that request named and is never stored, so a forged Host reaches no
 * one but its sender.
 */
function registerServiceHops(app: ServiceApp, kit: PageKit): void {
  for (const name of SERVICE_NAMES) {
    app.get(`/services/${name}/`, { schema: { hide: true }, config: { cacheSeconds: 0 } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.redirect(kit.serviceAddress(request, name), 302);
    });
  }
}
