import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDate, formatFixed, formatMoney, formatNumberIn, formatPercent, numberFormatIn } from './format.ts';

// fr-CA (CLDR) groups thousands with a no-break space and puts the dollar sign after the amount, after another one.
const NBSP = '\u00a0';

test('numbers by locale: en-CA 1,234.5, fr-CA 1 234,5', () => {
  assert.equal(formatNumberIn('en', 1234.5, 1), '1,234.5');
  assert.equal(formatNumberIn('fr', 1234.5, 1), `1${NBSP}234,5`);
  assert.equal(formatNumberIn('fr', 1234.56), `1${NBSP}235`);
});

test('money by locale: $12,345 and 12 345 $, to the cent when asked', () => {
  assert.equal(formatMoney('en', 12345), '$12,345');
  assert.equal(formatMoney('fr', 12345), `12${NBSP}345${NBSP}$`);
  assert.equal(formatMoney('en', 1234.5, true), '$1,234.50');
  assert.equal(formatMoney('fr', 1234.5, true), `1${NBSP}234,50${NBSP}$`);
  assert.equal(formatMoney('en', -12), '-$12');
});

test('percentages and dates by locale; a date never moves with the time zone; non-dates are kept', () => {
  assert.equal(formatPercent('en', 0.123), '12.3%');
  assert.equal(formatPercent('fr', 0.123), `12,3${NBSP}%`);
  assert.equal(formatDate('en', '2026-01-01'), 'January 1, 2026');
  assert.equal(formatDate('fr', '2026-01-01'), '1er janvier 2026');
  assert.equal(formatDate('fr', '2020-02-01', 'short'), '1er févr. 2020');
  assert.equal(formatDate('fr', '2020-02-11', 'short'), '11 févr. 2020');
  assert.equal(formatDate('fr', '2026-12-06T23:59:00Z', 'short'), '6 déc. 2026');
  assert.equal(formatDate('fr', 'not a date'), 'not a date');
});

test('French writes a negative number with the minus sign U+2212, in numbers, money, percentages and parts', () => {
  const MINUS = '\u2212';
  assert.equal(formatNumberIn('fr', -0.9, 1), `${MINUS}0,9`);
  assert.equal(formatNumberIn('fr', -1234.5, 1), `${MINUS}1${NBSP}234,5`);
  assert.equal(formatFixed('fr', -0.5, 2), `${MINUS}0,50`);
  assert.equal(formatMoney('fr', -12), `${MINUS}12${NBSP}$`);
  assert.equal(formatPercent('fr', -0.123), `${MINUS}12,3${NBSP}%`);
  assert.equal(
    numberFormatIn('fr', {})
      .formatToParts(-3)
      .map((p) => p.value)
      .join(''),
    `${MINUS}3`,
  );
  assert.equal(formatNumberIn('fr', 0.9, 1), '0,9');
  assert.equal(formatNumberIn('en', -0.9, 1), '-0.9');
});

test('a value that rounds to zero from below is written unsigned: never −0, -$0 or −0 $', () => {
  for (const language of ['en', 'fr'] as const) {
    const zero = (text: string) => assert.doesNotMatch(text, /[-\u2212]/, `${language}: ${text}`);
    for (const value of [-0.4, -0, -1e-9]) {
      zero(formatMoney(language, value));
      zero(formatNumberIn(language, value));
      zero(formatPercent(language, value / 1000));
      zero(formatFixed(language, value / 1000, 2));
    }
    zero(formatMoney(language, -0.004, true));
    zero(numberFormatIn(language, {}).format(-0.0001));
    zero(
      numberFormatIn(language, { maximumFractionDigits: 0 })
        .formatToParts(-0.2)
        .map((p) => p.value)
        .join(''),
    );
  }
  assert.equal(formatMoney('en', -0.4), '$0');
  assert.equal(formatMoney('fr', -0.4), `0${NBSP}$`);
  assert.equal(formatMoney('fr', -0.004, true), `0,00${NBSP}$`);
  // a value that is written non-zero keeps its sign
  assert.equal(formatMoney('en', -0.5), '-$1');
  assert.equal(formatMoney('fr', -0.005, true), `\u22120,01${NBSP}$`);
  // a caller that asks for another sign display gets it
  assert.equal(numberFormatIn('en', { signDisplay: 'always' }).format(2), '+2');
});
