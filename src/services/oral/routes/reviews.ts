// GET /api/reviews/ (and /api/cochrane/, its old address, hidden from the documents) and GET /api/reviews/:review_id/.
import type { Static } from 'typebox';
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import { notFound } from '../../../core/http/errors.ts';
import { cleanText } from '../../../core/http/params.ts';
import { getReview, listReviews } from '../repository.ts';
import { getReviewSchema, listReviewsSchema } from '../schemas/index.ts';
import type { ReviewQuery } from '../schemas/index.ts';
import type { OralState } from '../state.ts';
import { listConfig, listEnvelope, pageOf } from './common.ts';

export function reviewRoutes(app: ServiceApp, ctx: ServingContext<OralState>): void {
  const { db } = ctx.state;
  const list = async (request: { query: Static<typeof ReviewQuery> }) => {
    const text = cleanText(request.query.q);
    const page = pageOf(request.query);
    // Reviews have no country; the key is kept so that every list envelope has the same filters_applied shape.
    return listEnvelope(await listReviews(db, { q: text }, page), page, { query: text ?? '', country: '' });
  };
  const config = listConfig('review search');
  app.get('/api/reviews/', { schema: listReviewsSchema, config }, list);
  app.get('/api/cochrane/', { schema: { ...listReviewsSchema, hide: true }, config }, list);

  app.get(
    '/api/reviews/:review_id/',
    { schema: getReviewSchema, config: { operation: 'review lookup', responseCache: true } },
    async (request) => {
      const review = await getReview(db, request.params.review_id);
      if (!review) throw notFound(`review ${request.params.review_id} not found`);
      return { success: true as const, data: review };
    },
  );
}
