import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeDraws, encodeDraws, selectParameters } from './draws.ts';

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
