// Shared plumbing of the guideline JSON sources (England's toolkit, SIGN 138): reading a file, checking
// field types, and mapping source labels onto the vocabularies with a reported issue instead of a guess.

import { readFile } from 'node:fs/promises';
import type { GuidelineInput, SourceIssue } from './types.ts';
import { EVIDENCE_QUALITIES, STRENGTHS, TOPICS, type Vocabulary } from './vocabulary.ts';

export interface GuidelineParse {
  guideline: GuidelineInput;
  /** Rows in the source file. */
  rowsRead: number;
  issues: SourceIssue[];
}

export async function readJsonFile(path: string | URL): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8')) as unknown;
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

function vocabularySlug(
  vocabulary: Vocabulary,
  kind: string,
  label: string | null,
  location: string,
  issues: SourceIssue[],
): string | null {
  if (label === null) return null;
  const entry = vocabulary.byName(label) ?? vocabulary.bySlug(label);
  if (!entry) {
    issues.push({ kind: 'warning', location, reason: `unknown ${kind} "${label}"; stored without it` });
    return null;
  }
  return entry.slug;
}

export function strengthSlug(label: string | null, location: string, issues: SourceIssue[]): string | null {
  return vocabularySlug(STRENGTHS, 'strength', label, location, issues);
}

export function evidenceQualitySlug(label: string | null, location: string, issues: SourceIssue[]): string | null {
  return vocabularySlug(EVIDENCE_QUALITIES, 'evidence quality', label, location, issues);
}

export function topicSlugs(label: string | null, location: string, issues: SourceIssue[]): string[] {
  const slug = vocabularySlug(TOPICS, 'topic', label, location, issues);
  return slug === null ? [] : [slug];
}
