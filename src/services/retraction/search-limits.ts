// The bounds and order of E's record search, apart from the search itself so that its schema can name them without
// importing the queries (and, through them, the repository the schema's types feed).
export const SEARCH_MIN_QUERY = 3;
export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 100;
/** Values per facet. */
export const FACET_SIZE = 10;
export const SEARCH_ORDER =
  'with q: the autocomplete ranking (exact DOI, exact title, title prefix, title word, title, author prefix, author, DOI part; then more ' +
  'post-retraction citations, the more recent notice); a DOI-shaped q: the exact DOI, then DOIs in alphabetical order; without q: notice date, newest ' +
  'first (records without one last); ties by row id';
