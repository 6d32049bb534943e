// The layout's catalogue: the same keys and placeholders in English and French; plurals and numbers by language.
// The services' catalogues get the same check in test/i18n.test.ts (core does not import services).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Catalogue } from './catalogue.ts';
import { assertSameShape } from '../../../test/support/catalogues.ts';
import { layoutMessages } from './messages/index.ts';

test('layout: both languages have the same keys and placeholders', () => {
  assertSameShape('layout', layoutMessages as Catalogue<string>);
});

test('a French message that lost a placeholder is caught', () => {
  const broken = new Catalogue<'k'>({ en: { k: 'Page {page} of {pages}' }, fr: { k: 'Page {page}' } });
  assert.throws(() => assertSameShape('broken', broken as Catalogue<string>), /placeholders differ/);
});

test('plurals and numbers follow the language', () => {
  const c = new Catalogue<'n'>({
    en: { n: '{n, plural, one {# round} other {# rounds}}' },
    fr: { n: '{n, plural, one {# ronde} other {# rondes}}' },
  });
  assert.equal(c.format('en', 'n', { n: 1 }), '1 round');
  assert.equal(c.format('en', 'n', { n: 1234 }), '1,234 rounds');
  assert.equal(c.format('fr', 'n', { n: 1 }), '1 ronde');
  assert.equal(c.format('fr', 'n', { n: 0 }), '0 ronde');
  assert.equal(c.format('fr', 'n', { n: 1234 }), '1\u00a0234 rondes');
});

test('a French message writes a negative number with the minus sign, as the pages’ own formatting does', () => {
  const c = new Catalogue<'n'>({
    en: { n: 'change {n, number}; {n, plural, other {# points}}' },
    fr: { n: 'écart {n, number}; {n, plural, other {# points}}' },
  });
  assert.equal(c.format('fr', 'n', { n: -0.9 }), 'écart \u22120,9; \u22120,9 points');
  assert.equal(c.format('en', 'n', { n: -0.9 }), 'change -0.9; -0.9 points');
});

test('the pager reads "Page 2 sur 176" in French, as French writes a page of a whole', () => {
  const messages = layoutMessages as Catalogue<string>;
  assert.equal(messages.format('fr', 'pager.position', { page: 2, pages: 176 }), 'Page 2 sur 176');
  assert.equal(messages.format('en', 'pager.position', { page: 2, pages: 176 }), 'Page 2 of 176');
});
