// Normalised, framework-free records produced by the oral-health source parsers (toolkit, SIGN, Cochrane,
// demo). The importer maps them onto the database; vocabulary values are carried as slugs (see
// vocabulary.ts) so that records stay plain data and the ids are resolved in one place.

import type { CountryCode } from './vocabulary.ts';

export interface ReferenceInput {
  text: string;
  /** Present only when the reference text itself contains a URL. */
  url: string | null;
  /** Present only when the reference text itself contains a DOI. */
  doi: string | null;
  /** Present only when the reference text itself contains a PubMed id ("PMID: 123"). */
  pmid: string | null;
}

export interface RecommendationInput {
  /** Stable natural key within its guideline (toolkit: `ch2-t1-r2`; SIGN: `rec-1`; demo: `demo:…`). */
  source_key: string;
  title: string;
  text: string;
  keywords: string[];
  target_population: string | null;
  clinical_context: string | null;
  source_url: string | null;
  page_number: number | null;
  /** Topic slugs, in source order. */
  topics: string[];
  strength: string | null;
  evidence_quality: string | null;
  grade: string | null;
  recommendation_number: string | null;
  references: ReferenceInput[];
  /**
   * Labels the row holds but that name no entry of their vocabulary (null above): stored as null for a new
   * recommendation, and never replacing the value stored for it (storeGuideline keeps it). Absent when none.
   */
  unreadable?: UnreadableLabel[];
}

export interface UnreadableLabel {
  field: 'strength' | 'evidence_quality' | 'topic';
  /** Where in the source, and what could not be mapped (the label): the text of the import's warning. */
  location: string;
  reason: string;
}

interface OrganizationInput {
  name: string;
  website: string | null;
}

export interface GuidelineInput {
  /** Stable natural key across imports (`england-dboh-2021`, `sign-138`, `demo:…`). */
  source_key: string;
  title: string;
  description: string;
  organization: OrganizationInput;
  country: CountryCode;
  /** The UK nation (England, Scotland, Wales, Northern Ireland) or another sub-national region; else null. */
  region: string | null;
  publication_year: number | null;
  url: string | null;
  is_demo: boolean;
  recommendations: RecommendationInput[];
}

/** GRADE certainty of one outcome, normalised (see cochrane.ts normalizeCertainty). */
export type Certainty = 'high' | 'moderate' | 'low' | 'very_low';
export const CERTAINTIES: readonly Certainty[] = ['high', 'moderate', 'low', 'very_low'];

export interface DowngradesInput {
  risk_of_bias: boolean | null;
  imprecision: boolean | null;
  inconsistency: boolean | null;
  indirectness: boolean | null;
  publication_bias: boolean | null;
  /** Network meta-analyses only (one Cochrane file has the column); null where the source has no such column. */
  incoherence: boolean | null;
}

export interface OutcomeInput {
  population: string | null;
  intervention: string | null;
  comparison: string | null;
  outcome: string | null;
  measure: string | null;
  effect: number | null;
  ci_lower: number | null;
  ci_upper: number | null;
  significant: boolean | null;
  participants: number | null;
  studies: number | null;
  certainty: Certainty | null;
  /** The certainty label exactly as the source wrote it (trimmed), kept so the normalisation can be audited. */
  certainty_raw: string | null;
  reasons: string | null;
  downgrades: DowngradesInput;
  /**
   * Values the row holds but that could not be read (null above): stored as null for a new outcome, and never
   * replacing the value stored for the same outcome (storeReview keeps it). Absent when every value was read.
   */
  unreadable?: UnreadableValue[];
}

/** The outcome fields a value that cannot be read leaves null (a downgrade by its key). */
export type UnreadableField =
  'effect' | 'ci_lower' | 'ci_upper' | 'significant' | 'participants' | 'studies' | 'certainty' | `downgrades.${keyof DowngradesInput}`;

export interface UnreadableValue {
  field: UnreadableField;
  /** Where in the source, and what could not be read (the raw value): the text of the import's warning. */
  location: string;
  reason: string;
}

export interface ReviewInput {
  /** Cochrane review number, e.g. `CD000979`; demo reviews use `DEMO-…`. */
  review_id: string;
  /** The PUB number of the version the outcomes come from (Cochrane `.pub5` → 5). */
  version: number;
  /** The title as the source lists it (cochrane_titles.csv), null when it lists none; checked against the outcomes at import. */
  title: string | null;
  url: string | null;
  doi: string | null;
  publication_date: string | null;
  authors: string | null;
  abstract: string | null;
  is_demo: boolean;
  outcomes: OutcomeInput[];
}

/**
 * Something the importer should report: a row it could not read (`unreadable`: counts toward the import guard's
 * limit), a row the dataset does not keep (`excluded`: a blank row, a repeated key whose first row was kept, a
 * file that is not a source file), or a value kept as null or without a mapping (`warning`).
 */
export interface SourceIssue {
  kind: 'unreadable' | 'excluded' | 'warning';
  /** Where in the source: a file, row or source key. */
  location: string;
  reason: string;
}
