// NAICS Canada sectors (two-digit level; the names of NAICS Canada 2017/2022, Statistics Canada, and their French
// names, those of the same classification's French edition, SCIAN Canada 2017/2022).
// Canada's wholesale sector is 41 (the United States uses 42), and three sectors span ranges.

export interface NaicsSector {
  code: string; // "54" or a range "31-33"
  name: string;
}

const SECTORS: ReadonlyArray<{ from: number; to: number; name: string; nameFr: string }> = [
  { from: 11, to: 11, name: 'Agriculture, forestry, fishing and hunting', nameFr: 'Agriculture, foresterie, pêche et chasse' },
  {
    from: 21,
    to: 21,
    name: 'Mining, quarrying, and oil and gas extraction',
    nameFr: 'Extraction minière, exploitation en carrière, et extraction de pétrole et de gaz',
  },
  { from: 22, to: 22, name: 'Utilities', nameFr: 'Services publics' },
  { from: 23, to: 23, name: 'Construction', nameFr: 'Construction' },
  { from: 31, to: 33, name: 'Manufacturing', nameFr: 'Fabrication' },
  { from: 41, to: 41, name: 'Wholesale trade', nameFr: 'Commerce de gros' },
  { from: 44, to: 45, name: 'Retail trade', nameFr: 'Commerce de détail' },
  { from: 48, to: 49, name: 'Transportation and warehousing', nameFr: 'Transport et entreposage' },
  { from: 51, to: 51, name: 'Information and cultural industries', nameFr: "Industrie de l'information et industrie culturelle" },
  { from: 52, to: 52, name: 'Finance and insurance', nameFr: 'Finance et assurances' },
  {
    from: 53,
    to: 53,
    name: 'Real estate and rental and leasing',
    nameFr: 'Services immobiliers et services de location et de location à bail',
  },
  {
    from: 54,
    to: 54,
    name: 'Professional, scientific and technical services',
    nameFr: 'Services professionnels, scientifiques et techniques',
  },
  { from: 55, to: 55, name: 'Management of companies and enterprises', nameFr: "Gestion de sociétés et d'entreprises" },
  {
    from: 56,
    to: 56,
    name: 'Administrative and support, waste management and remediation services',
    nameFr: "Services administratifs, services de soutien, services de gestion des déchets et services d'assainissement",
  },
  { from: 61, to: 61, name: 'Educational services', nameFr: "Services d'enseignement" },
  { from: 62, to: 62, name: 'Health care and social assistance', nameFr: 'Soins de santé et assistance sociale' },
  { from: 71, to: 71, name: 'Arts, entertainment and recreation', nameFr: 'Arts, spectacles et loisirs' },
  { from: 72, to: 72, name: 'Accommodation and food services', nameFr: "Services d'hébergement et de restauration" },
  {
    from: 81,
    to: 81,
    name: 'Other services (except public administration)',
    nameFr: 'Autres services (sauf les administrations publiques)',
  },
  { from: 91, to: 91, name: 'Public administration', nameFr: 'Administrations publiques' },
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

const FRENCH_NAMES = new Map(SECTORS.map((s) => [s.name, s.nameFr]));

/** The French name of a sector given by its English name (as the aggregates hold it); the name itself for another text. */
export function naicsSectorInFrench(name: string): string {
  return FRENCH_NAMES.get(name) ?? name;
}
