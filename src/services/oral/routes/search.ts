// GET /api/search/: recommendations, guidelines and reviews in one ranked list, with facet counts.
import type { Static } from 'typebox';
import { cleanText } from '../../../core/http/params.ts';
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import { searchEvidence } from '../evidence-search.ts';
import type { DocumentKind, Certainty, EvidenceSearchResult } from '../evidence-search.ts';
import type { Page } from '../repository.ts';
import { searchEvidenceSchema } from '../schemas/index.ts';
import type { EvidenceSearchQuery } from '../schemas/index.ts';
import { EVIDENCE_QUALITIES, STRENGTHS, TOPICS, countryFilterLabel } from '../sources/index.ts';
import type { OralState } from '../state.ts';
import { listConfig, listEnvelope, pageOf, parseCountry, parseVocabulary } from './common.ts';

/** A search as the route and the page read their query: the result, the page asked for and the echoed filters. */
export async function runEvidenceSearch(
  state: OralState,
  q: Omit<Static<typeof EvidenceSearchQuery>, 'page' | 'limit'>,
  page: Page,
): Promise<{ result: EvidenceSearchResult; filters: Record<string, string> }> {
  const country = parseCountry(q.country);
  const topic = parseVocabulary(TOPICS, 'topic', q.topic);
  const strength = parseVocabulary(STRENGTHS, 'strength', q.strength);
  const quality = parseVocabulary(EVIDENCE_QUALITIES, 'evidence_quality', q.evidence_quality);
  const text = cleanText(q.q);
  // choiceParam accepts any case and surrounding spaces.
  const kind = q.kind?.trim().toLowerCase() || undefined;
  const certainty = q.certainty?.trim().toLowerCase() || undefined;
  const result = await searchEvidence(
    state,
    {
      q: text,
      kind: kind as DocumentKind | undefined, // validated against DOCUMENT_KINDS by the schema
      country: country?.code,
      topic: topic?.slug,
      year: q.year,
      strength: strength?.slug,
      evidenceQuality: quality?.slug,
      certainty: certainty as Certainty | undefined, // validated against CERTAINTIES by the schema
    },
    page,
  );
  const filters = {
    query: text ?? '',
    kind: kind ?? '',
    country: country ? countryFilterLabel(country) : '',
    topic: topic?.slug ?? '',
    year: q.year === undefined ? '' : String(q.year),
    strength: strength?.slug ?? '',
    evidence_quality: quality?.slug ?? '',
    certainty: certainty ?? '',
  };
  return { result, filters };
}

export function searchRoutes(app: ServiceApp, ctx: ServingContext<OralState>): void {
  const { state } = ctx;
  app.get('/api/search/', { schema: searchEvidenceSchema, config: listConfig('evidence search') }, async (request) => {
    const page = pageOf(request.query);
    const { result, filters } = await runEvidenceSearch(state, request.query, page);
    return { ...listEnvelope(result, page, filters), facets: result.facets };
  });
}
