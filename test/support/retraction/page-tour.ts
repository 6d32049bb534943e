// Every page of Service E on its demo data, for the browser suite (test/pages.browser.test.ts): the search with and
// without a query, with filters and the download of its results, a retracted paper (and the second page of its
// citing works) and a notice of another kind, the analytics of retractions and of expressions of concern, and the
// democracy analysis. Real ids and filter values are read from the API.
import type { ServiceApp } from '../../../src/core/service.ts';

export async function pageTour(app: ServiceApp): Promise<string[]> {
  const get = async (url: string) => (await app.inject({ url })).json();
  const report = await get('/api/post-retraction-analytics/');
  const top = report.top_papers[0] as { record_id: string; title: string } | undefined;
  const concern = (await get('/api/post-retraction-analytics/?nature=expression_of_concern')).top_papers[0] as
    { record_id: string } | undefined;
  const word = top?.title.split(/\s+/).find((w) => /^\p{L}{5,}$/u.test(w));
  const facets = (await get('/api/search/')).facets as Record<string, Array<{ value: string }>>;
  const filtered = `country=${encodeURIComponent(facets.country[0]?.value ?? '')}&nature=retraction&retracted_from=2010-01-01`;
  return [
    '/',
    ...(word ? [`/?q=${encodeURIComponent(word)}`] : []),
    `/?${filtered}`,
    `/export-search?${filtered}`,
    ...(top ? [`/papers/${encodeURIComponent(top.record_id)}`, `/papers/${encodeURIComponent(top.record_id)}?when=after`] : []),
    ...(concern ? [`/papers/${encodeURIComponent(concern.record_id)}`] : []),
    '/analytics',
    '/analytics?nature=expression_of_concern&time_filter=5y',
    '/democracy',
  ];
}
