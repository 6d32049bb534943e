// Where `pdi sync draws` and `serve --sync-every` fetch D's data: IRCC's Express Entry rounds feed, read by the
// same importer as `pdi import draws` (src/core/sync runs it).
import type { SyncDefinition } from '../../core/sync/source.ts';
import { IRCC_ROUNDS_FEED_URL } from './feed/rounds-feed.ts';

export const drawsSync: SyncDefinition = {
  service: 'draws',
  title: "IRCC's Express Entry rounds feed (JSON)",
  defaultUrl: IRCC_ROUNDS_FEED_URL,
  publisherPage:
    'https://www.canada.ca/en/immigration-refugees-citizenship/corporate/mandate/policies-operational-instructions-agreements/ministerial-instructions/express-entry-rounds.html',
  files: [
    {
      name: 'rounds',
      fileName: 'ee_rounds_123_en.json',
      importer: 'rounds',
      contentTypes: ['application/json', 'text/json', 'text/plain'],
    },
  ],
  // The feed is about 0.6 MB (389 rounds in December 2025).
  maxBytes: 64 * 1024 * 1024,
};
