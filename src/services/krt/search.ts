// The substring index of the article store (DOI suggestions): one folded column, "doi title"; and how a query
// becomes the words every candidate must contain (the SQL path in repository.ts and the held one in
// held-articles.ts read it from here).
import type { SubstringIndex } from '../../core/db/search-index.ts';
import { foldForMatching, normalizeDoi } from './jats/index.ts';

export const ARTICLE_SEARCH: SubstringIndex = {
  name: 'krt_articles_search',
  table: 'krt_articles',
  idColumn: 'id',
  columns: ['search_text'],
};

/** Lower case without diacritics: the same folding as the suggestion ranking (jats/doi-search.ts). */
export const foldSearchText = foldForMatching;

/**
 * A suggestion query: `query` is what the ranking compares (a DOI in any of its written forms — URL, doi: prefix,
 * version suffix — becomes the store's DOI), `words` its distinct folded words of two characters or more, each of
 * which a candidate's search text contains.
 */
export function articleQuery(q: string): { query: string; words: string[] } {
  const query = normalizeDoi(q) ?? q;
  const folded = foldSearchText(query).replace(/^(https?:\/\/(dx\.)?doi\.org\/|doi:\s*)/, '');
  return { query, words: [...new Set(folded.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1))] };
}
