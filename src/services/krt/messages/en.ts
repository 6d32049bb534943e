// Service B's pages in English (ICU MessageFormat: {n, plural, …}, {x, number}). Data values (titles, DOIs, table
// cells, the API's reasons) are the store's and the API's, not messages. Write ’ rather than ' (ICU's quote).
export const en = {
  'service.title': 'Key resources tables',
  'nav.lookup': 'Look up a paper',
  'nav.build': 'Build from a DOI or file',
  'nav.chat': 'Build a table',
  'nav.statistics': 'Statistics',

  'stats.title': 'Statistics of the key resources tables',
  'stats.description': 'Resource types, vendors and the share of rows with a valid RRID in the key resources tables of the store, by year.',
  'stats.lead':
    'Counted over each article’s best built-in table (the authors’ own key resources table, else the one the text extractor found), the tables the RRID knowledge base is built from; tables written by a language model are not counted.',
  'stats.corpus':
    '{articles, plural, one {# article} other {# articles}} in the store, {withRows, plural, one {# with} other {# with}} a table of at least one row: {rows, plural, one {# row} other {# rows}} in all.',
  'stats.valid':
    '{valid, number} of {rows, plural, one {# row} other {# rows}} ({share}; 95% interval {low} to {high}) write a valid RRID; {withRrid, number} write an RRID at all.',
  'stats.validDefinition':
    'An RRID is valid as the validation endpoint says: listed by its registry when that registry’s dump is imported, or written by at least two papers of the store. An RRID that only generated demo articles write is never valid. The interval is Wilson’s score interval for a proportion.',
  'stats.empty': 'The store has no key resources table yet: import articles to see statistics.',
  'stats.typesHeading': 'Resource types',
  'stats.typesChart': 'Rows by resource type',
  'stats.typesChartDescription': 'Rows of each resource type, and those of them with a valid RRID ({rows, number} rows in all).',
  'stats.vendorsHeading': 'Vendors',
  'stats.vendorsLead':
    '{vendorRows, plural, one {# row} other {# rows}} of reused resources name a source, from {vendors, plural, one {# vendor} other {# vendors}}; known vendors are counted under one name. The {shown, number} with the most rows:',
  'stats.vendorsChart': 'Rows by vendor',
  'stats.vendorsChartDescription':
    'Rows of reused resources naming each of the {shown, number} vendors with the most rows, of {vendorRows, number}.',
  'stats.yearsHeading': 'Valid RRIDs by year',
  'stats.yearsChart': 'Share of rows with a valid RRID, by year of the article',
  'stats.yearsChartDescription': 'For each year of publication, the share of the year’s rows that write a valid RRID.',
  'stats.noYear': 'no date',
  'column.resourceType': 'Resource type',
  'column.vendor': 'Vendor',
  'column.year': 'Year',
  'column.rows': 'Rows',
  'column.shareOfRows': 'Share of rows',
  'column.articles': 'Articles',
  'column.rowsWithRrid': 'Rows with an RRID',
  'column.rowsWithValidRrid': 'Rows with a valid RRID',
  'column.shareValid': 'Share valid',
  'column.interval': '95% interval',
  'series.rows': 'Rows',
  'series.validRows': 'Rows with a valid RRID',
  'series.shareValid': 'Share valid (%)',
  'common.range': '{low} to {high}',

  'build.title': 'Build a key resources table from a DOI or a JATS file',
  'build.description':
    'Extract the key resources table of a preprint from its DOI or from a JATS XML file you upload, check its RRIDs and download it.',
  'build.lead':
    'Give a DOI to fetch the paper, or upload its full text as JATS XML (the format bioRxiv, medRxiv and PubMed Central publish): the service extracts its key resources table as it does for the papers of its store — the authors’ own table when the paper has one, else the resources named in its methods text — and checks its RRIDs.',
  'build.doiHeading': 'From a DOI',
  'build.doiLabel': 'DOI of a bioRxiv or medRxiv preprint',
  'build.doiHelp': 'For example 10.1101/2021.09.08.459408. A paper the store already holds opens at once.',
  'build.doiSubmit': 'Fetch and build',
  'build.doiDisabled':
    'Fetching papers by DOI is not enabled on this server (its operator can enable it with PDI_KRT_PAGE_FETCH), so the DOI field is disabled. Papers the store already holds can be looked up by DOI on the look-up page; any other paper can be uploaded below.',
  'build.doiEnabled': 'The paper is fetched from bioRxiv or medRxiv (else Europe PMC) and added to the store with its table.',
  'build.fileHeading': 'From a JATS XML file',
  'build.fileLabel': 'JATS XML file',
  'build.fileHelp':
    'At most {max} MiB, well-formed XML. Document type declarations are ignored and no entity is resolved outside the file. The file is read, not stored: the store’s articles stay as they are.',
  'build.fileSubmit': 'Upload and build',
  'build.resultHeading': 'The key resources table of the uploaded file',
  'build.resultFrom': 'Extracted from {file} ({bytes, number} bytes) by {extractor}.',
  'build.resultDoi': 'The file names the DOI {doi}.',
  'build.resultDoiStored': 'The store holds this DOI: its stored table is on the paper’s page.',
  'build.resultNoDoi': 'The file names no DOI.',
  'build.resultKept':
    'This table is kept for 24 hours as a table you can download or edit in the chat; the article itself is not added to the store.',
  'build.extractorTable': 'the authors’ own key resources table ({model})',
  'build.extractorText': 'the text extractor ({model})',
  'build.authorTables': 'Author tables found: {tables}.',
  'build.noRows': 'The extractor found no key resource in this file.',
  'build.tableCaption': 'Key resources of “{title}” (uploaded file)',
  'build.editInChat': 'Edit this table in the chat',
  'build.another': 'Build another table',
  'build.untitled': 'untitled article',
  'error.fileMissing': 'choose a JATS XML file to upload (the field “file”)',
  'error.fileEmpty': 'the uploaded file is empty',
  'error.fileTooLarge': 'the file is larger than {max} MiB, the limit of a JATS file; nothing was read',
  'error.notXml': 'the file is not a well-formed JATS XML document: {reason}',
  'error.noElement': 'the file is not an XML document: no element found',
  'error.entities':
    'the file declares entities (<!ENTITY …>); the service reads no document type declaration and expands no entity, so the file would be read otherwise than it says: remove the declarations and upload it again',
  'error.notJats': 'the file is XML but not a JATS article (its root element is <{root}>, not <article>)',
  'error.notMultipart': 'send the file as multipart/form-data (the page’s form does)',
  'error.fetchDisabled': 'fetching papers by DOI is not enabled on this server (PDI_KRT_PAGE_FETCH)',
  'error.extractFailed': 'the file could not be extracted: {reason}',
} as const;

export type KrtKey = keyof typeof en;
