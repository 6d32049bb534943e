// `/`: what this listener is and where its documentation lives (a small JSON until the service has a page there).
import type { ServiceApp, ServiceModule } from '../service.ts';
import { OPENAPI_30_PATH } from './openapi.ts';

export function registerHome(app: ServiceApp, service: ServiceModule): void {
  const body = {
    service: service.name,
    title: service.title,
    description: service.description,
    version: service.version,
    links: { docs: '/docs', openapi: '/openapi.json', openapi_3_0: OPENAPI_30_PATH, metrics: '/metrics' },
  };
  app.get('/', { schema: { hide: true }, config: { cacheSeconds: 300 } }, async () => body);
}
