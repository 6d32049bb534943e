// RRID suggestion, validation and recommendation: request, response and route schemas.
import { Type } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';
import { MAX_TEXT, text } from './common.ts';

export const RRID_SUGGESTIONS_DEFAULT = 5;
export const RRID_SUGGESTIONS_MAX = 20;
export const RECOMMENDATIONS_DEFAULT = 10;
export const RECOMMENDATIONS_MAX = 50;

/** How suggestion confidences are computed (the AI and browser suggestion routes say it). */
export const CONFIDENCE_NOTE =
  'An equal catalog number with the same vendor (or company group) always ranks above name similarity; ties are explained in reasoning. ' +
  'confidence_score is calibrated: the share of right answers among suggestions with that ranking score in a leave-one-paper-out experiment on the ' +
  'knowledge base (isotonic regression, recomputed at every import). Suggestions below 0.5 are not shown: no suggestion is better than a likely wrong one. ' +
  'A query with a name only (no catalog number, no vendor) is answered by the consensus of the papers that write that name with an RRID ' +
  '("HEK293T" → CVCL_0063), from a calibrated probability of 0.8, the consensus score calibrated the same way (apart for software, ' +
  'cell lines and organisms, whose names are their own, and for antibodies and other reagents, whose names many products share). ' +
  'Only RRIDs written verbatim by papers of the store are ever suggested; with none, suggestions is [], abstained is true and reason says why.';

export const SuggestBody = Type.Object(
  {
    resource_name: text('Name of the resource, e.g. "rabbit anti-GFP".'),
    resource_type: Type.Optional(text('Resource type, loosely written ("antibody", "cell line", "software") or one of the 14.')),
    vendor: Type.Optional(text('Vendor or supplier.')),
    catalog_number: Type.Optional(text('Catalog number ("ab290", "Cat# ab290").')),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: `Suggestions to return (default ${RRID_SUGGESTIONS_DEFAULT}; above ${RRID_SUGGESTIONS_MAX} reduced to ${RRID_SUGGESTIONS_MAX}).`,
      }),
    ),
  },
  // A demo article's antibody: the demo store answers it.
  { examples: [{ resource_name: 'rabbit anti-GFP', vendor: 'Example Immunoreagents (demo)', catalog_number: 'DEMO-AB-0101' }] },
);

export const SuggestQuery = Type.Object({
  resource_name: Type.String({ maxLength: MAX_TEXT, description: 'Name of the resource.', examples: ['rabbit anti-GFP'] }),
  resource_type: Type.Optional(text('Resource type.')),
  vendor: Type.Optional(text('Vendor or supplier.')),
  catalog_number: Type.Optional(Type.String({ maxLength: MAX_TEXT, description: 'Catalog number.', examples: ['DEMO-AB-0101'] })),
});

export const suggestionFields = {
  id: Type.Integer({ description: 'Knowledge-base entry id (stable across imports).' }),
  suggested_rrid: Type.String(),
  confidence_score: Type.Number({ description: 'Calibrated probability that the RRID is the right one (see the service description).' }),
  reasoning: Type.String(),
  vendor: Type.String(),
  catalog_number: Type.String(),
  resource_name: Type.String(),
  resource_type: Type.String(),
  papers: Type.Integer({ description: 'Papers of the store that write this RRID.' }),
};

export const suggestionList = {
  success: Type.Literal(true),
  total_found: Type.Integer({ description: 'Suggestions returned.' }),
  abstained: Type.Boolean({ description: 'True when nothing is suggested: the knowledge base has no answer likely enough to be right.' }),
  reason: Nullable(
    Type.String({
      description:
        'Why nothing is suggested (no RRID written with this name or catalog number; papers disagree on the name; too little evidence; best candidate below the threshold); null when something is.',
    }),
  ),
  response_time: Type.Number({ description: 'Seconds spent.' }),
};

export const SuggestResponse = Type.Object({ ...suggestionList, suggestions: Type.Array(Type.Object(suggestionFields)) });

export const ValidateBody = Type.Object(
  { rrid: text('RRID, with or without the "RRID:" label.', 200) },
  { examples: [{ rrid: 'RRID:AB_0000101' }] },
);

export const Validation = Type.Object({
  rrid: Type.String({ description: 'Normalised ("RRID:AB_303395") when well-formed; else as received, without the label.' }),
  is_valid: Type.Boolean(),
  status: Type.String({
    description:
      "valid (attested: listed by its registry when that registry's dump is imported (Cellosaurus for CVCL_, the Antibody Registry for AB_), else written by " +
      'at least two papers of the store), unverified (well-formed, not attested: not in the imported registry, listed for another product than the papers ' +
      'write beside it, or written by one paper or none), invalid (malformed or unknown registry).',
  }),
  confidence_score: Type.Number(),
  recommendations: Type.Array(Type.String()),
  last_checked: Type.String(),
  source: Type.String({ description: 'fresh, or cache (served from the 24-hour validation cache).' }),
  registry: Nullable(Type.String()),
  papers: Type.Integer(),
});

export const ValidateResponse = Type.Object({ success: Type.Literal(true), validation: Validation });

const RecommendBody = Type.Object(
  {
    resource_name: text('Name of the resource to find alternatives for.'),
    resource_type: Type.Optional(text('Resource type.')),
    context: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Free-form context; vendor and catalog_number are used when present.' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, description: 'Alternatives to return (default 10, at most 50).' })),
  },
  { examples: [{ resource_name: 'rabbit anti-GFP', resource_type: 'antibody', limit: 5 }] },
);

export const RecommendResponse = Type.Object({
  success: Type.Literal(true),
  identified: Nullable(
    Type.Object(
      {
        rrid: Type.String(),
        confidence_score: Type.Number(),
        reasoning: Type.String(),
      },
      {
        description:
          'The resource itself, as /api/ai/suggest-rrid/ answers the same input (its first suggestion); null when it abstains. It is not listed among the alternatives.',
      },
    ),
  ),
  identification_reason: Nullable(Type.String({ description: 'Why the resource itself is not identified (as suggest-rrid reason).' })),
  recommendations: Type.Array(
    Type.Object({
      id: Type.Integer(),
      recommended_resource: Type.String(),
      recommended_vendor: Type.String(),
      recommended_catalog: Type.String(),
      recommended_rrid: Nullable(Type.String()),
      recommendation_type: Type.String({ description: 'functional_equivalent, alternative_vendor, alternative_clone or updated_version.' }),
      confidence_score: Type.Number(),
      reasoning: Type.String(),
      availability_status: Type.String({ description: 'unknown: no source of stock levels is consulted.' }),
      resource_type: Type.String(),
      papers: Type.Integer(),
    }),
  ),
  total_found: Type.Integer(),
  response_time: Type.Number(),
});

export const suggestSchema = {
  summary: 'Suggest RRIDs for a resource',
  description: `Ranks knowledge-base entries by catalog number (exact, normalised), vendor and name similarity (token and synonym aware). ${CONFIDENCE_NOTE}`,
  body: SuggestBody,
  response: { 200: SuggestResponse },
};

export const validateSchema = {
  summary: 'Validate an RRID',
  description:
    'status valid: listed by the registry that issues it when its dump is imported (Cellosaurus for CVCL_, the Antibody Registry for AB_; `pdi import krt <file> ' +
    '--kind registry`) and not contradicted by the catalog numbers the papers write beside it, or, for other registries, written by at least two papers of ' +
    'the store (one paper can carry a mistyped or cut identifier); unverified: well-formed but not attested so (is_valid false; the recommendation says ' +
    'why; check at the RRID resolver); ' +
    'invalid: malformed or of an unknown registry, with the corrected form when it is obvious (AB-123 → AB_123). confidence_score is the share of four ' +
    'checks passed (well-formed, known registry, attested, attested consistently). source is cache when the answer comes from the 24-hour cache.',
  body: ValidateBody,
  response: { 200: ValidateResponse },
};

export const recommendSchema = {
  summary: 'Alternatives to a resource',
  description:
    'Resources of the same type from the knowledge base: same target and host for antibodies, same function (or a newer version) for software, same ' +
    'strain background for organisms, another supplier of the same product. confidence_score = attribute agreement × n/(n+1) for n papers using the ' +
    'alternative (a ranking, not a probability). availability_status is unknown: no stock source is consulted.',
  body: RecommendBody,
  response: { 200: RecommendResponse },
};
