// The layout's catalogue: the same keys and placeholders in English and French; plurals and numbers by language.
// The services' catalogues get the same check in test/catalogues.test.ts (core does not import services).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Catalogue, placeholdersOf } from './catalogue.ts';
import type { MessageTable } from './catalogue.ts';
import { layoutMessages } from './messages/index.ts';

/** Fails naming the first key whose languages disagree (keys, placeholders, an empty message). */
export function assertSameShape(name: string, catalogue: Catalogue<string>): void {
  const en: MessageTable<string> = catalogue.tables.en;
  const fr: MessageTable<string> = catalogue.tables.fr;
  assert.deepEqual(Object.keys(fr).sort(), Object.keys(en).sort(), `${name}: the keys differ`);
  for (const key of Object.keys(en)) {
    assert.deepEqual(placeholdersOf(fr[key], 'fr'), placeholdersOf(en[key], 'en'), `${name} ${key}: the placeholders differ`);
    assert.ok(fr[key].trim() !== '', `${name} ${key} is empty in French`);
  }
}

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
