// Service A's routes: the four endpoints of the specification (recommendations, guidelines, reviews, stats),
// the review detail, the search over all three kinds and metadata additions, and /api/cochrane/ as the old address of /api/reviews/. One plugin
// per endpoint group, registered in the order the OpenAPI document lists them.
import type { ServiceApp, ServiceRoutes, ServingContext } from '../../../core/service.ts';
import type { OralState } from '../state.ts';
import { guidelineRoutes } from './guidelines.ts';
import { metadataRoutes } from './metadata.ts';
import { recommendationRoutes } from './recommendations.ts';
import { reviewRoutes } from './reviews.ts';
import { searchRoutes } from './search.ts';
import { statsRoutes } from './stats.ts';

const GROUPS: readonly ServiceRoutes<OralState>[] = [
  recommendationRoutes,
  guidelineRoutes,
  reviewRoutes,
  searchRoutes,
  statsRoutes,
  metadataRoutes,
];

export async function oralRoutes(app: ServiceApp, ctx: ServingContext<OralState>): Promise<void> {
  for (const group of GROUPS) await group(app, ctx);
}
