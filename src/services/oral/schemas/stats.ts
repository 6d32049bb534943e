// GET /api/stats/: the statistics computed at import (aggregates.ts) and the route's documentation.
import { Type } from 'typebox';
import type { Static } from 'typebox';

const Counted = Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String(), count: Type.Integer() });
const CountryCount = Type.Object({ code: Type.String(), name: Type.String(), flag_emoji: Type.String(), count: Type.Integer() });

const Stats = Type.Object({
  recommendations: Type.Object({
    total: Type.Integer(),
    by_country: Type.Array(CountryCount),
    by_topic: Type.Array(Counted, { description: 'Every topic, by count descending then name.' }),
    by_strength: Type.Array(Counted),
    by_evidence_quality: Type.Array(Counted),
    without_strength: Type.Integer(),
    without_evidence_quality: Type.Integer(),
  }),
  guidelines: Type.Object({ total: Type.Integer(), by_country: Type.Array(CountryCount) }),
  reviews: Type.Object({
    total: Type.Integer(),
    total_outcomes: Type.Integer(),
    by_certainty: Type.Array(Type.Object({ certainty: Type.String(), count: Type.Integer() })),
  }),
  generated_at: Type.String(),
  data_version: Type.String(),
});

export type OralStats = Static<typeof Stats>;

const StatsBody = Type.Object({ success: Type.Literal(true), data: Stats });

export const getStatsSchema = {
  summary: 'Database statistics',
  description:
    'Recommendation counts by country, topic, strength and evidence quality; guideline counts by country; review and outcome counts by certainty. Computed when data is imported.',
  response: { 200: StatsBody },
};
