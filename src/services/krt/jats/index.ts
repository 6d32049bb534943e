// Public API of the JATS layer (safe parsing, element tree, metadata, DOIs).
export { parseJats, readJatsFile, type JatsArticle, type JatsFile } from './article.ts';
export { readArticleMetadata, initialsOf, type ArticleMetadata, type ArticleAuthor } from './metadata.ts';
export { normalizeDoi, storePathOfDoi, doiOfStorePath } from './doi.ts';
export {
  rankDoiSuggestions,
  doiMatchScore,
  foldForMatching,
  prepareDoiQuery,
  preparedMatchScore,
  newestFirst,
  type PreparedDoiQuery,
  type SuggestableArticle,
} from './doi-search.ts';
export {
  parseXml,
  textOf,
  findAll,
  findFirst,
  firstChild,
  childElements,
  removeAll,
  XmlParseError,
  type XmlElement,
  type XmlNode,
} from './tree.ts';
export { prepareXml, stripDoctype } from './entities.ts';
