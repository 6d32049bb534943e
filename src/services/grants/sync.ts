// Where `pdi sync grants` and `serve --sync-every` fetch C's data: the federal "Proactive Publication – Grants and
// Contributions" CSV on the Open Government portal, read by the same importer as `pdi import grants`; and, when
// PDI_SYNC_URL_GRANTS_INTERNATIONAL names it, Global Affairs Canada's Project Browser CSV (international/): the
// publisher gives no stable address of the file, so it has no default and is optional (its failure keeps the grants).
import type { SyncDefinition } from '../../core/sync/source.ts';

/** The CSV resource of dataset 432527ab-7aac-45b5-81d6-7597107a7013 on open.canada.ca. */
const GRANTS_CSV_URL =
  'https://open.canada.ca/data/dataset/432527ab-7aac-45b5-81d6-7597107a7013/resource/1d15a62f-5656-49ad-8c88-f40ce689d831/download/grants.csv';

/** The address of Global Affairs Canada's Project Browser CSV (projects of international assistance). */
const INTERNATIONAL_SYNC_VARIABLE = 'PDI_SYNC_URL_GRANTS_INTERNATIONAL';

export const grantsSync: SyncDefinition = {
  service: 'grants',
  title: 'Proactive Publication – Grants and Contributions (CSV), Open Government portal',
  defaultUrl: GRANTS_CSV_URL,
  publisherPage: 'https://open.canada.ca/data/en/dataset/432527ab-7aac-45b5-81d6-7597107a7013',
  files: [
    {
      name: 'grants',
      fileName: 'grants.csv',
      importer: 'csv',
      contentTypes: ['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel'],
    },
    {
      name: 'international',
      fileName: 'international-projects.csv',
      importer: 'international',
      contentTypes: ['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel'],
      optional: true,
      ownAddress: { variable: INTERNATIONAL_SYNC_VARIABLE, defaultUrl: null },
    },
  ],
  // The whole federal history is a CSV of a few gigabytes.
  maxBytes: 8 * 1024 ** 3,
};
