// Service A's routes: the four endpoints of the specification (recommendations, guidelines, reviews, stats),
// the review detail, the search over all three kinds and metadata additions, and /api/cochrane/ as the old address of /api/reviews/. One plugin
// per endpoint group, registered in the order the OpenAPI document lists them.
import type { ServiceApp, ServiceContext } from '../../../core/service.ts';
import { readVersionThrough } from '../repository.ts';
import { oralDatabase } from '../tables.ts';
import { guidelineRoutes } from './guidelines.ts';
import { metadataRoutes } from './metadata.ts';
import { recommendationRoutes } from './recommendations.ts';
import { reviewRoutes } from './reviews.ts';
import { searchRoutes } from './search.ts';
import { statsRoutes } from './stats.ts';

export async function oralRoutes(app: ServiceApp, ctx: ServiceContext): Promise<void> {
  const db = oralDatabase(ctx.db);
  readVersionThrough(db, ctx.dataVersion);
  for (const group of [recommendationRoutes, guidelineRoutes, reviewRoutes, searchRoutes, statsRoutes, metadataRoutes]) group(app, db);
}
