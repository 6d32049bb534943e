// Where `pdi sync retraction` and `serve --sync-every` fetch E's data: the Retraction Watch database CSV as Crossref
// publishes it (its GitLab repository, updated on working days), read by the same importer as
// `pdi import retraction --kind retraction-watch`.
import type { SyncDefinition } from '../../core/sync/source.ts';

const RETRACTION_WATCH_CSV_URL = 'https://gitlab.com/crossref/retraction-watch-data/-/raw/main/retraction_watch.csv';

export const retractionSync: SyncDefinition = {
  service: 'retraction',
  title: 'the Retraction Watch database (CSV), published by Crossref',
  defaultUrl: RETRACTION_WATCH_CSV_URL,
  publisherPage: 'https://gitlab.com/crossref/retraction-watch-data',
  files: [
    {
      name: 'retraction-watch',
      fileName: 'retraction_watch.csv',
      importer: 'retraction-watch',
      contentTypes: ['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel'],
    },
  ],
  // About 60,000 records, some tens of megabytes.
  maxBytes: 1024 ** 3,
};
