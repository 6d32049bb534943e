// Ranking for DOI suggestions (GET /doi-suggestions/?q=): q matches the DOI and the title, case- and
// accent-insensitively; best match first, then newest, then DOI, so the order is deterministic. Pure: the
// repository may pre-filter in SQL and rank the candidates here, or rank an in-memory list.

export interface SuggestableArticle {
  doi: string;
  title: string;
  authors: string;
  publicationDate: string;
  fileSize: number;
}

const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/**
 * Match score of an article for a query (0 = no match): 100 exact DOI, 80 DOI prefix, 60 DOI substring,
 * 40 title phrase, 20 + share of query words found in the title when all words are found.
 */
export function doiMatchScore(article: SuggestableArticle, query: string): number {
  const q = fold(query.trim());
  if (!q) return 1;
  const doi = article.doi.toLowerCase();
  const bareQuery = q.replace(/^(https?:\/\/(dx\.)?doi\.org\/|doi:\s*)/, '');
  if (doi === bareQuery || doi === `10.1101/${bareQuery}`) return 100;
  if (doi.startsWith(bareQuery) || doi.startsWith(`10.1101/${bareQuery}`)) return 80;
  if (doi.includes(bareQuery)) return 60;
  const title = fold(article.title);
  if (title.includes(q)) return 40;
  const words = q.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1);
  if (words.length === 0) return 0;
  const found = words.filter((w) => title.includes(w)).length;
  return found === words.length ? 20 + found / words.length : 0;
}

/** Matching articles, best first, then newest, then by DOI; with the total number that match. */
export function rankDoiSuggestions<T extends SuggestableArticle>(
  articles: Iterable<T>,
  query: string,
  limit: number,
): { items: T[]; total: number } {
  const scored: { article: T; score: number }[] = [];
  for (const article of articles) {
    const score = doiMatchScore(article, query);
    if (score > 0) scored.push({ article, score });
  }
  scored.sort(
    (a, b) =>
      b.score - a.score || b.article.publicationDate.localeCompare(a.article.publicationDate) || a.article.doi.localeCompare(b.article.doi),
  );
  return { items: scored.slice(0, Math.max(0, limit)).map((s) => s.article), total: scored.length };
}
