// What Service B's route plugins share: the addresses every route is served at, the rate limits of the groups,
// and the parsing of parameters several groups read.
import { badRequest, missingParameter } from '../../../core/http/errors.ts';
import { clampLimit, cleanText } from '../../../core/http/params.ts';
import { normalizeDoi } from '../jats/index.ts';
import type { SuggestionQuery } from '../answers.ts';
import { RRID_SUGGESTIONS_DEFAULT, RRID_SUGGESTIONS_MAX } from '../schemas/ai.ts';

/** Requests per client per minute, by group (spec §8); `tables`, `extraction`, `statistics` and `build` (the build page) are not in the spec (docs/krt.md). */
export const RATE_LIMITS = {
  'doi-checks': 100,
  suggestions: 50,
  exports: 20,
  'ai-suggestions': 30,
  'ai-validation': 60,
  'ai-recommendations': 20,
  chat: 10,
  browser: 100,
  tables: 100,
  extraction: 10,
  statistics: 100,
  build: 10,
} as const;

/** Base = host/api: the specification's address (/api + path) and the old host-root address, which clients call. */
export const ADDRESSES = { spec: '/api', aliases: [''] };

export function parseDoi(raw: string | undefined): string {
  const text = raw?.trim() ?? '';
  if (!text) throw missingParameter('doi');
  const doi = normalizeDoi(text);
  if (!doi) {
    throw badRequest(
      `doi must be a DOI such as 10.1101/2020.08.27.269738 (doi:…, https://doi.org/…, a bioRxiv URL and a vN suffix are accepted), got "${text.slice(0, 100)}"`,
    );
  }
  return doi;
}

export function required(value: string | undefined, name: string): string {
  const text = value?.trim() ?? '';
  if (!text) throw badRequest(`${name} must not be empty`);
  return text;
}

/** An RRID suggestion request, from a JSON body (AI and browser routes) or a query string (the extension's GET). */
export function suggestionQuery(raw: {
  resource_name: string;
  resource_type?: string;
  vendor?: string;
  catalog_number?: string;
  limit?: number;
}): SuggestionQuery {
  return {
    resourceName: required(raw.resource_name, 'resource_name'),
    resourceType: cleanText(raw.resource_type),
    vendor: cleanText(raw.vendor),
    catalogNumber: cleanText(raw.catalog_number),
    limit: clampLimit(raw.limit ?? RRID_SUGGESTIONS_DEFAULT, RRID_SUGGESTIONS_MAX),
  };
}
