// GET /api/metadata/: the vocabularies the filters accept and the imported datasets, and the route's documentation.
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';

const VocabularyEntry = Type.Object({ id: Type.Integer(), slug: Type.String(), name: Type.String(), description: Type.String() });

const DataSource = Type.Object({
  dataset: Type.String(),
  source: Nullable(Type.String()),
  is_demo: Type.Boolean(),
  imported_at: Type.String(),
  data_version: Type.String(),
});

export type DataSourceItem = Static<typeof DataSource>;

const MetadataBody = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    countries: Type.Array(Type.Object({ code: Type.String(), name: Type.String(), flag_emoji: Type.String() })),
    topics: Type.Array(VocabularyEntry),
    strengths: Type.Array(VocabularyEntry),
    evidence_qualities: Type.Array(VocabularyEntry),
    certainties: Type.Array(Type.String()),
    data_sources: Type.Array(DataSource, { description: 'Imported datasets; is_demo marks generated data.' }),
  }),
});

export const getMetadataSchema = {
  summary: 'Vocabularies and data sources',
  description:
    'The ids and slugs that the topic, strength and evidence_quality filters accept, the countries, and the imported datasets (is_demo marks generated data).',
  response: { 200: MetadataBody },
};
