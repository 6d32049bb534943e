// The vocabulary of a grants search, shared by the API route, the search page, the in-memory search
// (memory-search.ts) and the repository: the filters, the sort fields and the page.
import { foldCase } from '../../../core/db/dialect.ts';
import type { GrantsLanguage } from '../language.ts';
import type { DataColumn } from '../tables.ts';

/**
 * Sort fields of /api/search/ (each also with a leading "-" for descending): the columns each orders by, then
 * id in the same direction. Fiscal year and province order by value within a year or province.
 */
export const SORT_ORDERS = {
  agreement_value: { columns: ['agreement_value_cents'] },
  agreement_start_date: { columns: ['agreement_start_date'] },
  agreement_end_date: { columns: ['agreement_end_date'] },
  recipient_legal_name: { columns: ['recipient_legal_name'] },
  fiscal_year: { columns: ['fiscal_year', 'agreement_value_cents'] },
  recipient_province: { columns: ['recipient_province', 'agreement_value_cents'] },
  program_name_en: { columns: ['program_name_en'] },
  id: { columns: [] },
} as const satisfies Record<string, { columns: readonly DataColumn[] }>;
export type SortField = keyof typeof SORT_ORDERS;
/** A column a sort field orders by. */
export type SortColumn = (typeof SORT_ORDERS)[SortField]['columns'][number];
export const SORT_FIELDS = Object.keys(SORT_ORDERS) as SortField[]; // (Object.keys is typed string[])
export const DEFAULT_SORT = '-agreement_value';

export interface SearchOrder {
  field: SortField;
  descending: boolean;
}

/** "-agreement_value" → {agreement_value, descending}; null for an unknown field. */
export function parseSort(text: string): SearchOrder | null {
  const descending = text.startsWith('-');
  const field = descending ? text.slice(1) : text;
  return isSortField(field) ? { field, descending } : null;
}

function isSortField(field: string): field is SortField {
  return Object.hasOwn(SORT_ORDERS, field);
}

/**
 * The forms of a search string that a search looks for: the string, and where it writes an apostrophe, the string
 * with each apostrophe as ' (U+0027) and as ’ (U+2019). The source writes either ("St. John's", "Women’s", "l’école"),
 * and so do people typing, so a search for one finds the other.
 */
export function apostropheForms(text: string): string[] {
  if (!/['’]/.test(text)) return [text];
  return [...new Set([text, text.replace(/['’]/g, "'"), text.replace(/['’]/g, '’')])];
}

/** Two names of a recipient written alike but for case and the form of their apostrophes (' or ’). */
export function sameRecipientName(a: string, b: string): boolean {
  const key = (text: string) => foldCase(text).replace(/['’]/g, "'");
  return key(a) === key(b);
}

export interface SearchFilters {
  /** Substring of title, recipient, description or program (case and accents aside; either apostrophe, apostropheForms). */
  text?: string;
  /**
   * The texts `text` is looked for in: the English ones (`en`, the default), or the English and the French ones
   * (`fr`, `both`; the French ones also by the stems of their words, french-stem.ts).
   */
  language?: GrantsLanguage;
  province?: string;
  fiscalYear?: string;
  /** Inclusive bounds in cents. */
  minCents?: number;
  maxCents?: number;
  recipientType?: string;
  isMajor?: boolean;
  isNotable?: boolean;
}

export interface SearchPage {
  limit: number;
  offset: number;
}
