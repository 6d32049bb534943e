// The browser extension's routes (CORS): the AI bodies plus the names the extension reads.
import { Type } from 'typebox';
import { CONFIDENCE_NOTE, SuggestBody, SuggestQuery, ValidateBody, Validation, suggestionFields, suggestionList } from './ai.ts';

export const BrowserSuggestResponse = Type.Object({
  ...suggestionList,
  status: Type.Literal('success'),
  suggestions: Type.Array(
    Type.Object({
      ...suggestionFields,
      rrid: Type.String({ description: 'Same as suggested_rrid (the browser extension reads this name).' }),
      confidence: Type.Number({ description: 'Same as confidence_score.' }),
      catalog: Type.String({ description: 'Same as catalog_number.' }),
      additional_info: Type.Object({}, { description: 'Always {} (kept for the extension).' }),
    }),
  ),
});

export const BrowserValidateResponse = Type.Object({
  success: Type.Literal(true),
  status: Type.Literal('success'),
  validation: Validation,
});

const NOTE =
  'For the browser extension: CORS for any origin (preflight OPTIONS answers 204). The body adds the names the extension reads: ';

export const browserSuggestSchema = {
  summary: 'Suggest RRIDs (browser extension)',
  description: `${NOTE}status "success", and per suggestion rrid, confidence, catalog and additional_info {}. Otherwise as /api/ai/suggest-rrid/. ${CONFIDENCE_NOTE}`,
  body: SuggestBody,
  response: { 200: BrowserSuggestResponse },
};

export const browserValidateSchema = {
  summary: 'Validate an RRID (browser extension)',
  description: `${NOTE}status "success". Otherwise as /api/ai/validate-rrid/.`,
  body: ValidateBody,
  response: { 200: BrowserValidateResponse },
};

export const browserSuggestQuerySchema = {
  summary: 'Suggest RRIDs from query parameters (browser extension)',
  description: `The address the shipped extension calls, with the body of /api/browser/suggest-rrid/. ${NOTE}as there.`,
  querystring: SuggestQuery,
  response: { 200: BrowserSuggestResponse },
};
