// Every page of Service D on its demo data, for the browser suites (test/pages.browser.test.ts, pages-french): the next
// draws, a page per category (a forecast one, with its whole history too, and a dormant one when the data has one),
// every draw and one category's, the models, the "my score" form empty and answered (for a forecast category and for
// one without a forecast), and the track record of every category and of one. Real ids are read from the API.
import type { ServiceApp } from '../../../src/core/service.ts';

interface ModelsCategory {
  category_id: number;
  status: string;
}

export async function pageTour(app: ServiceApp): Promise<string[]> {
  const models = (await app.inject({ url: '/api/models/' })).json<{ categories: ModelsCategory[] }>();
  const forecast = models.categories.find((c) => c.status === 'predicted') ?? models.categories.find((c) => c.status === 'young');
  const young = models.categories.find((c) => c.status === 'young');
  const dormant = models.categories.find((c) => c.status === 'dormant');
  const next = forecast
    ? (await app.inject({ url: `/api/predict/${forecast.category_id}/` })).json<{
        data: { predictions: { predicted_crs_score: number }[] }[];
      }>().data[0]?.predictions[0]
    : undefined;
  return [
    '/',
    ...(forecast ? [`/categories/${forecast.category_id}`, `/categories/${forecast.category_id}?history=all`] : []),
    ...(young ? [`/categories/${young.category_id}`] : []),
    ...(dormant ? [`/categories/${dormant.category_id}`] : []),
    '/draws',
    ...(forecast ? [`/draws?category=${forecast.category_id}`] : []),
    '/models',
    '/my-score',
    ...(forecast && next ? [`/my-score?crs=${Math.round(next.predicted_crs_score)}&category=${forecast.category_id}`] : []),
    ...(dormant ? [`/my-score?crs=480&category=${dormant.category_id}`] : []),
    '/track-record',
    ...(forecast ? [`/track-record?category=${forecast.category_id}`] : []),
  ];
}
