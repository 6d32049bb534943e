// Posterior draws as the service stores and serves them: every constrained quantity (α, β, σ, φ, the
// country and year effects), chain-major, as little-endian float64 in base64 (exact, and about a third of
// the size of JSON numbers). Parameter selection by exact name or by group.
import { endianness } from 'node:os';
import type { ConstrainedDraws } from './posterior.ts';

const DRAWS_ENCODING = 'float64-le-base64';

export interface StoredDraws {
  encoding: typeof DRAWS_ENCODING;
  names: string[];
  chains: number;
  drawsPerChain: number;
  /** Warmup iterations per chain before the kept draws (for the iteration number of each draw). */
  warmup: number;
  /** One base64 string per name: chains × drawsPerChain values, chain by chain. */
  values: string[];
}

export interface DrawsTable {
  names: string[];
  chains: number;
  drawsPerChain: number;
  warmup: number;
  columns: Float64Array[];
}

const bigEndian = endianness() === 'BE';

export function encodeDraws(draws: ConstrainedDraws, chains: number, warmup: number): StoredDraws {
  const total = draws.all[0]?.length ?? 0;
  return {
    encoding: DRAWS_ENCODING,
    names: [...draws.names],
    chains,
    drawsPerChain: chains > 0 ? total / chains : 0,
    warmup,
    values: draws.all.map((column) => {
      const bytes = Buffer.from(column.slice().buffer);
      if (bigEndian) bytes.swap64();
      return bytes.toString('base64');
    }),
  };
}

export function decodeDraws(stored: StoredDraws): DrawsTable {
  if (stored.encoding !== DRAWS_ENCODING) throw new TypeError(`unknown draws encoding ${String(stored.encoding)}`);
  const columns = stored.values.map((text) => {
    const bytes = Buffer.from(text, 'base64');
    if (bigEndian) bytes.swap64();
    // A fresh, aligned buffer: Buffer.from may hand out a slice of a shared pool at any offset.
    const column = new Float64Array(bytes.byteLength / 8);
    new Uint8Array(column.buffer).set(bytes);
    return column;
  });
  return { names: stored.names, chains: stored.chains, drawsPerChain: stored.drawsPerChain, warmup: stored.warmup, columns };
}

/** Groups a request may name instead of single parameters. */
export const PARAMETER_GROUPS = {
  all: 'every quantity',
  population: 'alpha, every beta, sigma_country, sigma_year and phi (the default)',
  beta: 'every coefficient beta[…]',
  u: 'every country effect u[…]',
  v: 'every year effect v[…]',
} as const;

const isEffect = (name: string) => name.startsWith('u[') || name.startsWith('v[');

/**
 * Indices of the requested parameters (by their model name, `beta[gdp]`, or their column name, `beta_gdp`),
 * in the order the stored names have them, each once. Throws a RangeError listing what is unknown.
 */
export function selectParameters(names: readonly string[], requested: readonly string[]): number[] {
  const wanted = new Set<number>();
  const columns = syntacticNames(names);
  const unknown: string[] = [];
  for (const raw of requested) {
    const item = raw.trim();
    if (item === '') continue;
    let matched: number[];
    if (item === 'all') matched = names.map((_, i) => i);
    else if (item === 'population') matched = names.flatMap((n, i) => (isEffect(n) ? [] : [i]));
    else if (item === 'beta' || item === 'u' || item === 'v') matched = names.flatMap((n, i) => (n.startsWith(`${item}[`) ? [i] : []));
    else matched = names.flatMap((n, i) => (n === item || columns[i] === item ? [i] : []));
    if (matched.length === 0) unknown.push(item);
    for (const i of matched) wanted.add(i);
  }
  if (unknown.length > 0) throw new RangeError(`unknown parameter${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  return [...wanted].sort((a, b) => a - b);
}

/** How the columns of a draws or log-likelihood download are named. */
export const COLUMN_NAMINGS = ['syntactic', 'stan'] as const;

// R's reserved words: make.names appends a dot to them, so a column must not be one.
const R_RESERVED = new Set(
  'if else repeat while function for next break TRUE FALSE NULL Inf NaN NA NA_integer_ NA_real_ NA_character_ NA_complex_ in'.split(' '),
);

/**
 * Column names that R's read.csv (check.names = TRUE, i.e. make.names + make.unique) and pandas keep as they
 * are: `beta[gdp]` → `beta_gdp`, `u[Côte d'Ivoire]` → `u_Cote_d_Ivoire`, `v[2010]` → `v_2010`. Letters lose
 * their accents (R's make.names keeps non-ASCII letters only in some locales), every other run of characters
 * outside [A-Za-z0-9._] becomes one underscore, and a name that would repeat an earlier one gets _2, _3, ….
 */
export function syntacticNames(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    let base = name
      .replace(/\[([^\]]*)\]$/, '_$1')
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9._]+/g, '_')
      .replace(/_+$/, '');
    // make.names: a name starts with a letter, or a dot not followed by a digit.
    if (!/^([A-Za-z]|\.(?![0-9]))/.test(base)) base = `X${base}`;
    if (R_RESERVED.has(base)) base = `${base}_`;
    let out = base;
    for (let i = 2; used.has(out); i++) out = `${base}_${i}`;
    used.add(out);
    return out;
  });
}
