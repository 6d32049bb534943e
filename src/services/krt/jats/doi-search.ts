// Ranking for DOI suggestions (GET /doi-suggestions/?q=): q matches the DOI and the title, case- and
// accent-insensitively; best match first (a title holding the query with its accents as written before one that
// holds it folded only), then newest, then DOI, so the order is deterministic. Pure: the repository may pre-filter
// in SQL and rank the candidates here, or rank an in-memory list.
import { foldCase } from '../../../core/db/dialect.ts';

export interface SuggestableArticle {
  doi: string;
  title: string;
  authors: string;
  publicationDate: string;
  fileSize: number;
}

/** Lower case without diacritics: what titles and queries are compared in. */
export const foldForMatching = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** A query prepared once for scoring many articles. */
export interface PreparedDoiQuery {
  /** The folded, trimmed query ('' matches every article with score 1). */
  q: string;
  /** q without a doi.org or `doi:` prefix, compared with DOIs. */
  bareQuery: string;
  /** bareQuery as a bioRxiv DOI suffix: `10.1101/` + bareQuery. */
  biorxivQuery: string;
  /** Words of q (two characters or more) looked for in titles. */
  words: string[];
  /** The query and its words in lower case with their accents: a title holding them ranks first among equals. */
  asWritten: string;
  asWrittenWords: string[];
}

/** Added to a title match's score when the title holds the query (or its words) with the accents as written. */
const AS_WRITTEN_BONUS = 0.5;

export function prepareDoiQuery(query: string): PreparedDoiQuery {
  const q = foldForMatching(query.trim());
  const bareQuery = q.replace(/^(https?:\/\/(dx\.)?doi\.org\/|doi:\s*)/, '');
  const asWritten = foldCase(query.trim());
  return {
    q,
    bareQuery,
    biorxivQuery: `10.1101/${bareQuery}`,
    words: q.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1),
    asWritten,
    asWrittenWords: asWritten.split(/[^\p{L}\p{N}\p{M}]+/u).filter((w) => w.length > 1),
  };
}

/**
 * doiMatchScore with the query prepared and the article's DOI already in lower case; the folded title is a string
 * (held in memory) or computed when the DOI alone does not decide; `title` is the title as stored.
 */
export function preparedMatchScore(doiLower: string, titleFolded: string | (() => string), query: PreparedDoiQuery, title: string): number {
  const { q, bareQuery, biorxivQuery, words } = query;
  if (!q) return 1;
  const doi = doiLower;
  if (doi === bareQuery || doi === biorxivQuery) return 100;
  if (doi.startsWith(bareQuery) || doi.startsWith(biorxivQuery)) return 80;
  if (doi.includes(bareQuery)) return 60;
  const folded = typeof titleFolded === 'string' ? titleFolded : titleFolded();
  if (folded.includes(q)) return 40 + (foldCase(title).includes(query.asWritten) ? AS_WRITTEN_BONUS : 0);
  if (words.length === 0) return 0;
  const found = words.filter((w) => folded.includes(w)).length;
  if (found !== words.length) return 0;
  const asWritten = foldCase(title);
  return 20 + found / words.length + (query.asWrittenWords.every((w) => asWritten.includes(w)) ? AS_WRITTEN_BONUS : 0);
}

/** Newest first (publication date, '' when unknown), then by DOI: the order among articles that match equally well. */
export function newestFirst(
  a: Pick<SuggestableArticle, 'publicationDate' | 'doi'>,
  b: Pick<SuggestableArticle, 'publicationDate' | 'doi'>,
): number {
  return b.publicationDate.localeCompare(a.publicationDate) || a.doi.localeCompare(b.doi);
}

/** Matching articles, best first, then newest, then by DOI; with the total number that match. */
export function rankDoiSuggestions<T extends SuggestableArticle>(
  articles: Iterable<T>,
  query: string,
  limit: number,
): { items: T[]; total: number } {
  const prepared = prepareDoiQuery(query);
  const scored: { article: T; score: number }[] = [];
  for (const article of articles) {
    const score = preparedMatchScore(article.doi.toLowerCase(), () => foldForMatching(article.title), prepared, article.title);
    if (score > 0) scored.push({ article, score });
  }
  scored.sort((a, b) => b.score - a.score || newestFirst(a.article, b.article));
  return { items: scored.slice(0, Math.max(0, limit)).map((s) => s.article), total: scored.length };
}
