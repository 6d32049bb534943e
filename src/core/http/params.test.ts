import { test } from 'node:test';
import assert from 'node:assert/strict';
import { choiceParam } from './params.ts';

test('a choice with a hyphen or a dot compiles under the u flag and matches only itself', () => {
  const schema = choiceParam(['very-low', 'v1.2'], 'a choice');
  const pattern = new RegExp((schema as unknown as { pattern: string }).pattern, 'u');
  assert.ok(pattern.test('very-low'));
  assert.ok(pattern.test(' VERY-LOW '));
  assert.ok(pattern.test('v1.2'));
  assert.ok(!pattern.test('v1x2'));
  assert.ok(!pattern.test('verylow'));
});
