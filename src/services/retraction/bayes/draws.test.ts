import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeDraws, encodeDraws, selectParameters, syntacticNames } from './draws.ts';

const names = ['alpha', 'beta[democracy_index]', 'beta[gdp]', 'sigma_country', 'sigma_year', 'phi', 'u[Chile]', 'u[Peru]', 'v[2010]'];

test('draws round-trip exactly through their stored form, chain-major', () => {
  const chains = 2;
  const perChain = 3;
  const all = names.map((_, q) => Float64Array.from({ length: chains * perChain }, (_, s) => q * 10 + s + Math.PI * 1e-9 * (s + 1)));
  const stored = encodeDraws({ names, all, byChain: [] }, chains, 500);
  assert.equal(stored.drawsPerChain, 3);
  assert.equal(stored.warmup, 500);
  const round = decodeDraws(JSON.parse(JSON.stringify(stored)));
  assert.deepEqual(round.names, names);
  round.columns.forEach((column, q) => assert.deepEqual([...column], [...all[q]]));
  // Special values survive too.
  const special = encodeDraws({ names: ['x'], all: [Float64Array.of(-0, 1e-310, Number.MAX_VALUE)], byChain: [] }, 1, 0);
  assert.deepEqual([...decodeDraws(special).columns[0]], [-0, 1e-310, Number.MAX_VALUE]);
});

test('parameters are selected by name or group, in stored order, each once; unknown names are refused', () => {
  const pick = (request: string[]) => selectParameters(names, request).map((i) => names[i]);
  assert.deepEqual(pick(['population']), ['alpha', 'beta[democracy_index]', 'beta[gdp]', 'sigma_country', 'sigma_year', 'phi']);
  assert.deepEqual(pick(['u', 'alpha', 'beta']), ['alpha', 'beta[democracy_index]', 'beta[gdp]', 'u[Chile]', 'u[Peru]']);
  assert.deepEqual(pick(['v[2010]', ' phi ', 'phi']), ['phi', 'v[2010]']);
  assert.equal(pick(['all']).length, names.length);
  assert.throws(() => pick(['alpha', 'gamma', 'u[Narnia]']), /unknown parameters: gamma, u\[Narnia\]/);
});

// R's make.names (base R documentation): a syntactic name is letters, digits, '.' and '_', starting with a letter
// or a dot not followed by a digit, and not a reserved word; read.csv applies it, then make.unique. pandas only
// renames repeated columns (x, x.1). A name passing both reads back unchanged.
const R_RESERVED = ['if', 'else', 'repeat', 'while', 'function', 'for', 'next', 'break', 'TRUE', 'FALSE', 'NULL', 'Inf', 'NaN', 'NA', 'in'];
const rSyntactic = (name: string) => /^(([A-Za-z]|\.(?![0-9]))[A-Za-z0-9._]*|\.)$/.test(name) && !R_RESERVED.includes(name);

test('column names R read.csv and pandas keep unchanged: beta_gdp, u_<country>, v_<year>, each once', () => {
  const model = [
    ...names,
    'u[Côte d’Ivoire]',
    'u[Bosnia and Herzegovina]',
    'u[Guinea-Bissau]',
    'u[Guinea Bissau]',
    'beta[if]',
    'u[1st]',
    'v[2010]',
  ];
  const columns = syntacticNames(model);
  assert.deepEqual(columns.slice(0, 9), [
    'alpha',
    'beta_democracy_index',
    'beta_gdp',
    'sigma_country',
    'sigma_year',
    'phi',
    'u_Chile',
    'u_Peru',
    'v_2010',
  ]);
  assert.deepEqual(columns.slice(9), [
    'u_Cote_d_Ivoire',
    'u_Bosnia_and_Herzegovina',
    'u_Guinea_Bissau',
    'u_Guinea_Bissau_2',
    'beta_if',
    'u_1st',
    'v_2010_2',
  ]);
  for (const c of ['.chain', '.iteration', '.draw', ...columns]) assert.ok(rSyntactic(c), c);
  assert.equal(new Set(columns).size, columns.length);
  // Names that would not be syntactic get a leading X, and reserved words a trailing underscore.
  assert.deepEqual(syntacticNames(['1x', '_y', 'if', 'NA']), ['X1x', 'X_y', 'if_', 'NA_']);
  // A column name selects the parameter as its model name does.
  assert.deepEqual(selectParameters(names, ['beta_gdp', 'v_2010']), selectParameters(names, ['beta[gdp]', 'v[2010]']));
});
