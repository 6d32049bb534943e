// Shared plumbing of the guideline JSON sources (England's toolkit, SIGN 138): reading a file, checking
// field types, and mapping source labels onto the vocabularies with a reported issue instead of a guess.

import { readFile } from 'node:fs/promises';
import type { GuidelineInput, RecommendationInput, SourceIssue, UnreadableLabel } from './types.ts';
import { EVIDENCE_QUALITIES, STRENGTHS, TOPICS, type Vocabulary } from './vocabulary.ts';
import { parseSourceJsonFile } from './truncation.ts';

export interface GuidelineParse {
  guideline: GuidelineInput;
  /** Rows in the source file. */
  rowsRead: number;
  issues: SourceIssue[];
}

/** A source JSON file, parsed; a file that ends before its document closes is refused as truncated (TruncatedSourceError). */
export async function readJsonFile(path: string | URL): Promise<unknown> {
  return parseSourceJsonFile(await readFile(path, 'utf8'), String(path));
}

export type JsonObject = Record<string, unknown>;

export function asObject(value: unknown, what: string): JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${what}: expected an object`);
  return value as JsonObject;
}

export function requiredString(object: JsonObject, field: string, what: string): string {
  const value = object[field];
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`${what}: "${field}" must be a non-empty string`);
  return value.trim();
}

/** A string, or null when absent or blank; numbers are accepted as their decimal text. */
export function optionalString(object: JsonObject, field: string): string | null {
  const value = object[field];
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

export function optionalInteger(object: JsonObject, field: string): number | null {
  const value = object[field];
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
  return null;
}

/**
 * A row's strength, evidence quality and topic as vocabulary slugs; a label that names no entry is left out and
 * listed in `unreadable` (the store warns, and keeps a stored value in its place).
 */
export function vocabularySlugs(
  labels: { strength: string | null; evidenceQuality: string | null; topic: string | null },
  location: string,
): Pick<RecommendationInput, 'strength' | 'evidence_quality' | 'topics' | 'unreadable'> {
  const unreadable: UnreadableLabel[] = [];
  const slug = (vocabulary: Vocabulary, kind: string, field: UnreadableLabel['field'], label: string | null): string | null => {
    if (label === null) return null;
    const entry = vocabulary.byName(label) ?? vocabulary.bySlug(label);
    if (!entry) unreadable.push({ field, location, reason: `unknown ${kind} "${label}"` });
    return entry?.slug ?? null;
  };
  const topic = slug(TOPICS, 'topic', 'topic', labels.topic);
  return {
    strength: slug(STRENGTHS, 'strength', 'strength', labels.strength),
    evidence_quality: slug(EVIDENCE_QUALITIES, 'evidence quality', 'evidence_quality', labels.evidenceQuality),
    topics: topic === null ? [] : [topic],
    ...(unreadable.length > 0 ? { unreadable } : {}),
  };
}

/**
 * The rows of a guideline file, each turned into a recommendation by `build`. A row that is not an object, has
 * no text or has no key (`keyOf` returns a reason instead) is unreadable; a row that repeats the key of an
 * earlier row is excluded (the first is kept). Reasons are the same for every row (the tally counts them).
 */
export function recommendationRows(
  rows: readonly unknown[],
  issues: SourceIssue[],
  keyOf: (row: JsonObject) => { key: string } | { skip: string },
  build: (row: JsonObject, text: string, sourceKey: string, where: string) => RecommendationInput,
): RecommendationInput[] {
  const recommendations: RecommendationInput[] = [];
  const seenKeys = new Set<string>();
  rows.forEach((value, index) => {
    const location = `recommendations[${index}]`;
    let row: JsonObject;
    try {
      row = asObject(value, location);
    } catch {
      issues.push({ kind: 'unreadable', location, reason: 'not an object' });
      return;
    }
    const text = optionalString(row, 'text');
    if (text === null) {
      issues.push({ kind: 'unreadable', location, reason: 'no text' });
      return;
    }
    const key = keyOf(row);
    if ('skip' in key) {
      issues.push({ kind: 'unreadable', location, reason: key.skip });
      return;
    }
    if (seenKeys.has(key.key)) {
      issues.push({
        kind: 'excluded',
        location: `${location} (${key.key})`,
        reason: 'repeats the key of an earlier row (the first is kept)',
      });
      return;
    }
    seenKeys.add(key.key);
    recommendations.push(build(row, text, key.key, `${location} (${key.key})`));
  });
  return recommendations;
}
