import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptedLanguages, negotiateLanguage } from './language.ts';

test('Accept-Language ranges are ordered by q, ties by position, q=0 and * dropped', () => {
  assert.deepEqual(acceptedLanguages('fr-CA,fr;q=0.9,en;q=0.8'), ['fr', 'fr', 'en']);
  assert.deepEqual(acceptedLanguages('en;q=0.5, fr;q=0.7, de;q=0'), ['fr', 'en']);
  assert.deepEqual(acceptedLanguages('*'), []);
  assert.deepEqual(acceptedLanguages(undefined), []);
});

test('?lang= wins over Accept-Language, which wins over the default', () => {
  const both = ['en', 'fr'] as const;
  assert.equal(negotiateLanguage('fr', 'en', both), 'fr');
  assert.equal(negotiateLanguage('FR', undefined, both), 'fr');
  assert.equal(negotiateLanguage(undefined, 'fr-CA,en;q=0.5', both), 'fr');
  assert.equal(negotiateLanguage('de', 'de,fr;q=0.3', both), 'fr');
  assert.equal(negotiateLanguage(undefined, 'de', both), 'en');
  assert.equal(negotiateLanguage('fr', 'fr', ['en']), 'en');
});
