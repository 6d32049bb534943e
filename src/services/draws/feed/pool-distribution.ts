// The feed's dd1…dd18: IRCC's table "CRS score distribution of candidates in the Express Entry pool" as of
// drawDistributionAsOn. The meaning of each field was checked against the real snapshot: dd3 is the sum of
// dd4…dd8, dd9 the sum of dd10…dd14, and dd18 the sum of dd1, dd2, dd3, dd9, dd15, dd16, dd17 (this holds in
// 170 of the 171 rounds that publish a distribution; round 247 has a transposed digit, 55,867 for 55,687).
// Rounds before 214, and 223, 224, 226, 227, carry eighteen zeros: the feed has no distribution for them.

export interface PoolBandDefinition {
  /** Feed field, "dd1" … "dd18". */
  field: string;
  /** IRCC's label, e.g. "451-500"; "Total" for dd18. */
  label: string;
  /** Inclusive CRS range; null for the total. */
  minScore: number | null;
  maxScore: number | null;
  /** The field this band is a breakdown of (dd4…dd8 → dd3, dd10…dd14 → dd9), else null. */
  partOf: string | null;
}

export const POOL_BANDS: readonly PoolBandDefinition[] = [
  { field: 'dd1', label: '601-1200', minScore: 601, maxScore: 1200, partOf: null },
  { field: 'dd2', label: '501-600', minScore: 501, maxScore: 600, partOf: null },
  { field: 'dd3', label: '451-500', minScore: 451, maxScore: 500, partOf: null },
  { field: 'dd4', label: '491-500', minScore: 491, maxScore: 500, partOf: 'dd3' },
  { field: 'dd5', label: '481-490', minScore: 481, maxScore: 490, partOf: 'dd3' },
  { field: 'dd6', label: '471-480', minScore: 471, maxScore: 480, partOf: 'dd3' },
  { field: 'dd7', label: '461-470', minScore: 461, maxScore: 470, partOf: 'dd3' },
  { field: 'dd8', label: '451-460', minScore: 451, maxScore: 460, partOf: 'dd3' },
  { field: 'dd9', label: '401-450', minScore: 401, maxScore: 450, partOf: null },
  { field: 'dd10', label: '441-450', minScore: 441, maxScore: 450, partOf: 'dd9' },
  { field: 'dd11', label: '431-440', minScore: 431, maxScore: 440, partOf: 'dd9' },
  { field: 'dd12', label: '421-430', minScore: 421, maxScore: 430, partOf: 'dd9' },
  { field: 'dd13', label: '411-420', minScore: 411, maxScore: 420, partOf: 'dd9' },
  { field: 'dd14', label: '401-410', minScore: 401, maxScore: 410, partOf: 'dd9' },
  { field: 'dd15', label: '351-400', minScore: 351, maxScore: 400, partOf: null },
  { field: 'dd16', label: '301-350', minScore: 301, maxScore: 350, partOf: null },
  { field: 'dd17', label: '0-300', minScore: 0, maxScore: 300, partOf: null },
  { field: 'dd18', label: 'Total', minScore: null, maxScore: null, partOf: null },
];

interface PoolBand extends PoolBandDefinition {
  candidates: number;
}

export interface PoolDistribution {
  /** drawDistributionAsOn as YYYY-MM-DD; null when the feed's date cannot be read. */
  asOn: string | null;
  /** False when the feed gives eighteen zeros (no distribution published for that round). */
  published: boolean;
  /** All eighteen fields in feed order, labelled; the total is the last. */
  bands: PoolBand[];
  total: number;
  /** Whether the breakdowns and the total add up; false marks a typo in IRCC's figures, kept as published. */
  consistent: boolean;
}

export function buildPoolDistribution(asOn: string | null, counts: readonly number[]): PoolDistribution {
  if (counts.length !== POOL_BANDS.length) throw new RangeError(`expected ${POOL_BANDS.length} counts, got ${counts.length}`);
  const bands = POOL_BANDS.map((band, i) => ({ ...band, candidates: counts[i] }));
  const byField = new Map(bands.map((b) => [b.field, b.candidates]));
  let consistent = true;
  for (const parent of bands) {
    const parts = bands.filter((b) => b.partOf === parent.field);
    if (parts.length > 0 && parts.reduce((s, b) => s + b.candidates, 0) !== parent.candidates) consistent = false;
  }
  const topLevel = bands.filter((b) => b.partOf === null && b.field !== 'dd18');
  const total = byField.get('dd18') ?? 0;
  if (topLevel.reduce((s, b) => s + b.candidates, 0) !== total) consistent = false;
  return { asOn, published: counts.some((c) => c !== 0), bands, total, consistent };
}
