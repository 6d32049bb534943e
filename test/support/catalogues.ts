// Checks of the pages' message catalogues (core/i18n/catalogue.ts), shared by the catalogue tests.
import assert from 'node:assert/strict';
import { placeholdersOf } from '../../src/core/i18n/catalogue.ts';
import type { Catalogue, MessageTable } from '../../src/core/i18n/catalogue.ts';

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
