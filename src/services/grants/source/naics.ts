// NAICS Canada sectors (two-digit level; the names of NAICS Canada 2017/2022, Statistics Canada).
// Canada's wholesale sector is 41 (the United States uses 42), and three sectors span ranges.

export interface NaicsSector {
  code: string; // "54" or a range "31-33"
  name: string;
}

const SECTORS: ReadonlyArray<{ from: number; to: number; name: string }> = [
  { from: 11, to: 11, name: 'Agriculture, forestry, fishing and hunting' },
  { from: 21, to: 21, name: 'Mining, quarrying, and oil and gas extraction' },
  { from: 22, to: 22, name: 'Utilities' },
  { from: 23, to: 23, name: 'Construction' },
  { from: 31, to: 33, name: 'Manufacturing' },
  { from: 41, to: 41, name: 'Wholesale trade' },
  { from: 44, to: 45, name: 'Retail trade' },
  { from: 48, to: 49, name: 'Transportation and warehousing' },
  { from: 51, to: 51, name: 'Information and cultural industries' },
  { from: 52, to: 52, name: 'Finance and insurance' },
  { from: 53, to: 53, name: 'Real estate and rental and leasing' },
  { from: 54, to: 54, name: 'Professional, scientific and technical services' },
  { from: 55, to: 55, name: 'Management of companies and enterprises' },
  { from: 56, to: 56, name: 'Administrative and support, waste management and remediation services' },
  { from: 61, to: 61, name: 'Educational services' },
  { from: 62, to: 62, name: 'Health care and social assistance' },
  { from: 71, to: 71, name: 'Arts, entertainment and recreation' },
  { from: 72, to: 72, name: 'Accommodation and food services' },
  { from: 81, to: 81, name: 'Other services (except public administration)' },
  { from: 91, to: 91, name: 'Public administration' },
];

const BY_TWO_DIGITS = new Map<number, NaicsSector>();
for (const s of SECTORS) {
  const code = s.from === s.to ? String(s.from) : `${s.from}-${s.to}`;
  for (let d = s.from; d <= s.to; d++) BY_TWO_DIGITS.set(d, { code, name: s.name });
}

/** Every sector once, in code order (for listings and tests). */
export const NAICS_SECTORS: readonly NaicsSector[] = SECTORS.map((s) => BY_TWO_DIGITS.get(s.from)!);

/**
 * The sector of a NAICS identifier as published ("611710", "54", "5417 - Scientific research…"): the
 * first two of its leading digits. Null when there are fewer than two leading digits or no such sector.
 */
export function naicsSectorOf(identifier: string | null | undefined): NaicsSector | null {
  if (!identifier) return null;
  const m = /^\s*(\d{2})/.exec(identifier);
  if (!m) return null;
  return BY_TWO_DIGITS.get(Number(m[1])) ?? null;
}
