// The columns and order of E's exports, apart from the queries so that the schemas can name them without importing
// the repository (whose types the schemas feed).
export const EXPORT_COLUMNS = [
  'record_id',
  'title',
  'authors',
  'journal',
  'publisher',
  'country',
  'subject',
  'article_type',
  'original_paper_date',
  'retraction_date',
  'retraction_nature',
  'reason',
  'doi',
  'total_citations',
  'post_retraction_citations',
  'post_retraction_percentage',
] as const;

export type ExportPaper = {
  [K in (typeof EXPORT_COLUMNS)[number]]: K extends 'total_citations' | 'post_retraction_citations'
    ? number
    : K extends 'post_retraction_percentage'
      ? number | null
      : K extends 'record_id' | 'title' | 'authors' | 'country' | 'subject'
        ? string
        : string | null;
};

export const EXPORT_ORDER = 'retraction date, newest first (papers without one last), then by row id';
