// Where `pdi sync draws` and `serve --sync-every` fetch D's data: IRCC's Express Entry rounds feed in English, then
// its French twin, each read by the same importer as `pdi import draws` (src/core/sync runs them). The English feed
// is the data; the French one only gives the stored rounds their French texts, so its failure is a warning and the
// English import stands.
//
// PDI_SYNC_URL_DRAWS (or --source) names the English file, as it did when it was the only one; the French file is
// beside it, its name with `_en.json` replaced by `_fr.json` (else ee_rounds_123_fr.json in the same folder). An
// address ending in "/" names a folder holding both files under IRCC's names.
import type { SyncDefinition } from '../../core/sync/source.ts';
import { IRCC_ROUNDS_FEED_URL } from './feed/rounds-feed.ts';

const JSON_TYPES = ['application/json', 'text/json', 'text/plain'];
const FRENCH_FILE = 'ee_rounds_123_fr.json';

/** The French feed's address from the English feed's. */
function frenchFeedUrl(english: URL): string {
  const url = new URL(english);
  if (url.pathname.endsWith('_en.json')) {
    url.pathname = `${url.pathname.slice(0, -'_en.json'.length)}_fr.json`;
    return url.toString();
  }
  return new URL(FRENCH_FILE, english).toString();
}

export const drawsSync: SyncDefinition = {
  service: 'draws',
  title: "IRCC's Express Entry rounds feed (JSON), in English and French",
  defaultUrl: IRCC_ROUNDS_FEED_URL,
  publisherPage:
    'https://www.canada.ca/en/immigration-refugees-citizenship/corporate/mandate/policies-operational-instructions-agreements/ministerial-instructions/express-entry-rounds.html',
  addressNamesFirstFile: true,
  files: [
    { name: 'rounds', fileName: 'ee_rounds_123_en.json', importer: 'rounds', contentTypes: JSON_TYPES },
    {
      name: 'rounds_fr',
      fileName: FRENCH_FILE,
      importer: 'rounds_fr',
      contentTypes: JSON_TYPES,
      optional: true,
      besideFirst: frenchFeedUrl,
    },
  ],
  // The feed is about 0.6 MB (389 rounds in December 2025).
  maxBytes: 64 * 1024 * 1024,
};
