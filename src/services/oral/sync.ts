// Where `pdi sync oral` and `serve --sync-every` fetch A's data: the two JSON files its importers read (England's
// "Delivering better oral health" toolkit and SIGN 138), from a folder the deployment names. Their publishers
// (GOV.UK, SIGN) publish the guidance as web pages and PDF, not as these files, so there is no official address to
// default to; the Cochrane summary-of-findings tables are not published for download either and stay with
// `pdi import oral <dir>`.
import type { SyncDefinition } from '../../core/sync/source.ts';

const JSON_TYPES = ['application/json', 'text/json', 'text/plain'];

export const oralSync: SyncDefinition = {
  service: 'oral',
  title: "England's oral health toolkit and SIGN 138 recommendations (JSON), from a folder you publish",
  defaultUrl: null,
  noDefault:
    'GOV.UK and SIGN publish the guidance as web pages and PDF, not as the JSON files the importers read; serve a folder holding uk_guidelines.json and sign138_recommendations.json (laid out like ../shared/data/oral) and name it.',
  publisherPage: 'https://www.gov.uk/government/publications/delivering-better-oral-health-an-evidence-based-toolkit-for-prevention',
  files: [
    { name: 'toolkit', fileName: 'uk_guidelines.json', importer: 'toolkit', contentTypes: JSON_TYPES },
    { name: 'sign', fileName: 'sign138_recommendations.json', importer: 'sign', contentTypes: JSON_TYPES },
  ],
  maxBytes: 64 * 1024 * 1024,
};
