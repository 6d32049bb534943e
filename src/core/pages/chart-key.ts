// The key a drawn chart is cached under. Built from parts, never by hand: the service, the chart, the language, the
// data version and every validated parameter of the page (the whole query object, not a chosen few), so no input
// that can change a chart is left out of its key and a stale chart is never served for another request.
import type { Language } from '../i18n/language.ts';

export interface ChartKey {
  service: string;
  /** The chart's id within its page (a page with several charts gives each its own). */
  chart: string;
  language: Language;
  dataVersion: string;
  /** The validated query and path parameters the page read (defaults filled in), whole. */
  inputs: Readonly<Record<string, unknown>>;
}

/** A value written with its object keys sorted, so two equal inputs give one key whatever their order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}

/** The cache key of a chart: one JSON text of its parts (JSON quotes every value, so no two parts can run together). */
export function chartKey(key: ChartKey): string {
  return JSON.stringify([key.service, key.chart, key.language, key.dataVersion, canonical(key.inputs)]);
}
