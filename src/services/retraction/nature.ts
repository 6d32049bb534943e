// What a Retraction Watch notice is: its RetractionNature, read into one of five kinds. Only a notice of
// nature "Retraction" is a retracted paper; expressions of concern, corrections and reinstatements are
// counted apart in every analytics and export body.
export const NATURES = ['retraction', 'expression_of_concern', 'correction', 'reinstatement', 'other'] as const;
export type Nature = (typeof NATURES)[number];

/** The `nature=` filter: one kind, or every record. */
export const NATURE_FILTERS = [...NATURES, 'all'] as const;
export type NatureFilter = (typeof NATURE_FILTERS)[number];

/** The kind of a RetractionNature cell (case and surrounding spaces ignored). */
export function natureOf(text: string | null | undefined): Nature {
  switch ((text ?? '').trim().toLowerCase().replace(/\s+/g, ' ')) {
    case 'retraction':
      return 'retraction';
    case 'expression of concern':
      return 'expression_of_concern';
    case 'correction':
      return 'correction';
    case 'reinstatement':
      return 'reinstatement';
    default:
      return 'other';
  }
}

/** The same reading in SQL, for the migration that fills the column on rows stored before it. */
export const NATURE_SQL = `CASE lower(trim(retraction_nature)) WHEN 'retraction' THEN 'retraction' WHEN 'expression of concern' THEN 'expression_of_concern' WHEN 'correction' THEN 'correction' WHEN 'reinstatement' THEN 'reinstatement' ELSE 'other' END`;
