// Every page of Service B on its demo data, for the browser suite (test/pages.browser.test.ts): the look-up with and
// without words, a paper's table, a text-built table with identifier candidates and further mentions, the statistics, the build page, the empty chat, and a chat holding a copy of that paper's table (opened as a
// visitor would, with the page's own form post). Real DOIs and session ids are read through the app.
import type { ServiceApp } from '../../../src/core/service.ts';

export async function pageTour(app: ServiceApp): Promise<string[]> {
  const newest = (await app.inject({ url: '/api/doi-suggestions/?limit=1' })).json() as { suggestions: { doi: string; title: string }[] };
  const paper = newest.suggestions[0];
  if (!paper) return ['/', '/statistics', '/build', '/chat'];
  const word = paper.title.split(/\s+/).find((w) => /^\p{L}{6,}$/u.test(w)) ?? 'study';
  const start = await app.inject({
    method: 'POST',
    url: '/chat/start',
    payload: new URLSearchParams({ doi: paper.doi }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const chatWithTable = start.statusCode === 303 ? [String(start.headers.location)] : [];
  const all = (await app.inject({ url: '/api/doi-suggestions/?limit=50' })).json() as typeof newest;
  let textBuilt: string[] = [];
  for (const { doi } of all.suggestions) {
    const table = (await app.inject({ url: `/api/krt/doi/${doi}/` })).json() as {
      further_mentions?: unknown[];
      row_evidence?: { identifier_candidates: unknown[] }[] | null;
    };
    if (table.further_mentions?.length && table.row_evidence?.some((e) => e.identifier_candidates.length)) {
      textBuilt = [`/paper?doi=${encodeURIComponent(doi)}`];
      break;
    }
  }
  return [
    '/',
    `/?q=${encodeURIComponent(word)}`,
    `/paper?doi=${encodeURIComponent(paper.doi)}`,
    ...textBuilt,
    '/statistics',
    '/build',
    '/chat',
    ...chatWithTable,
  ];
}
