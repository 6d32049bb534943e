// Every page of Service E on its demo data, for the browser suite (test/pages.browser.test.ts): the search with and
// without a query, a retracted paper and a notice of another kind, the analytics of retractions and of expressions of
// concern, and the democracy analysis. Real ids are read from the API.
import type { ServiceApp } from '../../../src/core/service.ts';

export async function pageTour(app: ServiceApp): Promise<string[]> {
  const get = async (url: string) => (await app.inject({ url })).json();
  const report = await get('/api/post-retraction-analytics/');
  const top = report.top_papers[0] as { record_id: string; title: string } | undefined;
  const concern = (await get('/api/post-retraction-analytics/?nature=expression_of_concern')).top_papers[0] as
    { record_id: string } | undefined;
  const word = top?.title.split(/\s+/).find((w) => /^\p{L}{5,}$/u.test(w));
  return [
    '/',
    ...(word ? [`/?q=${encodeURIComponent(word)}`] : []),
    ...(top ? [`/papers/${encodeURIComponent(top.record_id)}`] : []),
    ...(concern ? [`/papers/${encodeURIComponent(concern.record_id)}`] : []),
    '/analytics',
    '/analytics?nature=expression_of_concern&time_filter=5y',
    '/democracy',
  ];
}
