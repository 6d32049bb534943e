// The substring index of the article store (DOI suggestions): one folded column, "doi title".
import type { SubstringIndex } from '../../core/db/search-index.ts';

export const ARTICLE_SEARCH: SubstringIndex = {
  name: 'krt_articles_search',
  table: 'krt_articles',
  idColumn: 'id',
  columns: ['search_text'],
};

/** Lower case without diacritics: the same folding as the suggestion ranking (jats/doi-search.ts). */
export function foldSearchText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}
