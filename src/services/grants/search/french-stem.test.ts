import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { foldAccents } from '../../../core/db/dialect.ts';
import { frenchStem } from './french-stem.ts';

const stem = (word: string) => frenchStem(foldAccents(word));

describe('French light stemmer (C search)', () => {
  it('gives inflected forms of a word one stem', () => {
    for (const forms of [
      ['santé', 'santés', 'sante'],
      ['subvention', 'subventions'],
      ['journal', 'journaux'],
      ['étudiant', 'étudiante', 'étudiants', 'étudiantes'],
      ['national', 'nationale', 'nationaux', 'nationales'],
      ['développement', 'développer', 'développements'],
      ['formation', 'former', 'formations'],
      ['recherche', 'recherches', 'rechercher'],
    ]) {
      const stems = new Set(forms.map(stem));
      assert.equal(stems.size, 1, `${forms.join(', ')}: ${[...stems].join(', ')}`);
    }
  });

  it('keeps short words, and words of other than a–z, as they are', () => {
    assert.equal(stem('les'), 'les');
    assert.equal(stem('de'), 'de');
    assert.equal(stem('rue'), 'rue');
    assert.equal(frenchStem('cœurs'), 'cœurs');
    assert.equal(frenchStem('2020s'), '2020s');
  });

  it('keeps different words apart', () => {
    assert.notEqual(stem('santé'), stem('saint'));
    assert.notEqual(stem('recherche'), stem('rêche'));
    assert.notEqual(stem('formation'), stem('information'));
  });
});
