// The importer's text dictionary: one id per distinct text, also when fingerprints collide.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDictionary } from './text-dictionary.ts';

test('the text dictionary gives one id per distinct text, also when fingerprints collide', () => {
  const texts = ['', 'a', 'b', 'ab', 'ba', 'Community centre', 'community centre', 'é', 'e\u0301'];
  // one fingerprint for every text (all but the first then live in the exact map), or one key and the length as the check
  for (const fingerprintOf of [
    undefined,
    (_: string, out: Uint32Array) => out.set([7, 0, 1]),
    (t: string, out: Uint32Array) => out.set([1, 2, t.length]),
  ]) {
    const dictionary = new TextDictionary(fingerprintOf);
    const ids = texts.map((t) => dictionary.idOf(t));
    assert.equal(new Set(ids).size, texts.length, 'distinct texts, distinct ids');
    assert.deepEqual(
      texts.map((t) => dictionary.idOf(t)),
      ids,
      'the same text, the same id',
    );
    assert.equal(dictionary.size, texts.length);
    const added = dictionary.takeNew();
    assert.deepEqual(
      added,
      ids.map((id, i) => ({ id, text: texts[i] })),
      'each new text once, with its id',
    );
    assert.deepEqual(dictionary.takeNew(), []);
  }
});
