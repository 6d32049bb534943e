// Public API of the JATS layer (safe parsing, element tree, metadata, DOIs).
export { parseJats } from './article.ts';
export { normalizeDoi, storePathOfDoi, doiOfStorePath } from './doi.ts';
export { rankDoiSuggestions, foldForMatching, prepareDoiQuery, preparedMatchScore, newestFirst } from './doi-search.ts';
export { textOf, findAll, findFirst, type XmlElement } from './tree.ts';
