// Every page of Service A on its demo data, for the browser suite (test/pages.browser.test.ts): real ids are
// found through the API. The first path is the README's screenshot.
import type { ServiceApp } from '../../../src/core/service.ts';

export async function pageTour(app: ServiceApp): Promise<string[]> {
  const guideline = (await app.inject('/api/guidelines/?limit=1')).json().data[0] as { id: number };
  const reviews = (await app.inject('/api/reviews/?limit=100')).json().data as Array<{ review_id: string; outcome_count: number }>;
  // the review with the most outcomes: the richest forest plots
  const review = [...reviews].sort((a, b) => b.outcome_count - a.outcome_count)[0];
  return [
    `/reviews/${review.review_id}`,
    '/',
    '/?q=fluoride&country=UK&strength=strong',
    '/search?q=fluoride%20varnish',
    '/guidelines',
    `/guidelines/${guideline.id}`,
    '/reviews',
    '/statistics',
  ];
}
