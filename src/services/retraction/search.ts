// The text the autocomplete searches: title, authors and the original paper's DOI (core substring index), with
// accents and case ignored.
import type { SubstringIndex } from '../../core/db/search-index.ts';

export const PAPER_SEARCH: SubstringIndex = {
  name: 'retraction_papers_search',
  table: 'retraction_papers',
  idColumn: 'id',
  columns: ['title', 'author', 'original_paper_doi'],
  accents: 'fold',
};
