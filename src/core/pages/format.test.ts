// The pages' own number formatting: thousands separators, decimals as asked, and no signed zero.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatNumber } from './format.ts';

test('numbers as the pages write them: 1,234.5; a value that rounds to zero from below is 0, never -0', () => {
  assert.equal(formatNumber(1234.5, 1), '1,234.5');
  assert.equal(formatNumber(-1234.46, 1), '-1,234.5');
  assert.equal(formatNumber(-0.4), '0');
  assert.equal(formatNumber(-0.04, 1), '0');
  assert.equal(formatNumber(-0), '0');
});
