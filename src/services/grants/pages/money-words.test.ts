// C's large amounts in words carry the sign each language writes before a negative number: - in English, the minus
// sign U+2212 in French (as every French number the pages format: core/i18n/format.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageLocale } from '../../../core/pages/locale.ts';
import { bigDollars, wordsOf } from './shared.ts';

test('a negative large amount in words: -$2.5 billion, −2,5 milliards de dollars; a small one as money, never −0', () => {
  const en = wordsOf(pageLocale('en', true));
  const fr = wordsOf(pageLocale('fr', true));
  assert.equal(bigDollars(-2.5e9, en), '-$2.5 billion');
  assert.equal(bigDollars(-2.5e9, fr), '\u22122,5 milliards de dollars');
  assert.equal(bigDollars(-3.2e6, fr), '\u22123,2 millions de dollars');
  assert.equal(bigDollars(-12.4, fr), '\u221212\u00a0$');
  assert.equal(bigDollars(-0.05, fr), '0\u00a0$'); // rounded to no dollar, not to a negative zero
  assert.equal(bigDollars(2.5e9, fr), '2,5 milliards de dollars');
});
