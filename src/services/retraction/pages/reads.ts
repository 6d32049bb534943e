// Reads the pages need beyond the API's functions, written here beside the pages on the service's typed database:
// the kind of notice of search results (the autocomplete body does not carry it), a record's descriptive fields
// (the citations body carries the few the API contract names) and the search form's lists of subjects and countries.
import type { RetractionDb } from '../tables.ts';

export interface RecordDetails {
  author: string;
  subject: string;
  country: string;
  institution: string | null;
  publisher: string | null;
  article_type: string | null;
  reason: string | null;
  retraction_doi: string | null;
  notes: string | null;
}

/** A Retraction Watch record's descriptive fields, or null when the record does not exist. */
export async function recordDetails(db: RetractionDb, recordId: string): Promise<RecordDetails | null> {
  const row = await db
    .selectFrom('retraction_papers')
    .select(['author', 'subject', 'country', 'institution', 'publisher', 'article_type', 'reason', 'retraction_doi', 'notes'])
    .where('record_id', '=', recordId)
    .executeTakeFirst();
  return row ?? null;
}

/** Every subject and every country of the records, most frequent first: the search form's select lists. */
export async function filterChoices(db: RetractionDb): Promise<{ subjects: string[]; countries: string[] }> {
  const subjects = await db
    .selectFrom('retraction_paper_subjects')
    .select(['subject', (eb) => eb.fn.countAll().as('n')])
    .groupBy('subject')
    .orderBy('n', 'desc')
    .orderBy('subject')
    .execute();
  const countries = await db
    .selectFrom('retraction_paper_countries')
    .select(['country', (eb) => eb.fn.countAll().as('n')])
    .groupBy('country')
    .orderBy('n', 'desc')
    .orderBy('country')
    .execute();
  return { subjects: subjects.map((r) => r.subject), countries: countries.map((r) => r.country) };
}
