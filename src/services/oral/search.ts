// The text fields each list endpoint searches, as substring indexes (see core/db/search-index.ts); accents and
// case are both ignored ("behcet" finds "Behçet").
import type { SubstringIndex } from '../../core/db/search-index.ts';

/** `q` of /api/recommendations/: title, text and keywords. */
export const RECOMMENDATION_SEARCH: SubstringIndex = {
  name: 'oral_recommendations_search',
  table: 'oral_recommendations',
  idColumn: 'id',
  columns: ['title', 'text', 'keywords_text'],
  accents: 'fold',
};

/** `q` of /api/guidelines/: title, description and organization name. */
export const GUIDELINE_SEARCH: SubstringIndex = {
  name: 'oral_guidelines_search',
  table: 'oral_guidelines',
  idColumn: 'id',
  columns: ['title', 'description', 'organization_name'],
  accents: 'fold',
};

/**
 * `q` of /api/reviews/: review id, title, description and abstract. The listed title is not searched where the
 * review's rows do not confirm it (then `title` is the description): a topic search must not find a review by a
 * title that belongs to another.
 */
export const REVIEW_SEARCH: SubstringIndex = {
  name: 'oral_reviews_search',
  table: 'oral_reviews',
  idColumn: 'id',
  columns: ['review_id', 'title', 'description', 'abstract'],
  accents: 'fold',
};
