// D's pages in French translate every text the forecasting code writes about its models and rules and every known
// category's description, and a translation stands only for the English it was made from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATEGORY_RULES } from '../feed/categories.ts';
import { FORECAST_METHOD, MODEL_CATALOGUE } from '../forecast/model-catalogue.ts';
import { TRANSLATIONS_FR } from '../messages/translations-fr.ts';
import { fingerprint, translatedIn, parameterName } from './translated.ts';

const SHOWN_RULES = ['interval', 'young', 'dates', 'likely_window', 'dormant', 'confidence', 'backtest_definition'] as const;

/** Every English text of the models page with its key. */
function englishTexts(): Array<[string, string]> {
  return [
    ...MODEL_CATALOGUE.flatMap((m): Array<[string, string]> => [
      [`model.${m.name}`, m.description],
      ...Object.entries(m.parameters)
        .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
        .map(([k, v]): [string, string] => [`parameter.${m.name}.${k}`, v]),
    ]),
    ...SHOWN_RULES.map((key): [string, string] => [`rule.${key}`, FORECAST_METHOD[key]]),
    ...CATEGORY_RULES.map((rule): [string, string] => [`category.${rule.slug}`, rule.description]),
  ];
}

test('every model, text parameter and rule of the models page, and every known category’s description, has a French translation of its current English', () => {
  const stale = englishTexts()
    .filter(([key, english]) => translatedIn(key, english, 'fr') === undefined)
    .map(
      ([key, english]) =>
        `${key}: ${TRANSLATIONS_FR[key] ? 'its English changed' : 'no translation'} (now ${fingerprint(english)}): “${english}”`,
    );
  assert.deepEqual(stale, [], `translate again in src/services/draws/messages/translations-fr.ts:\n${stale.join('\n')}`);
  const parameters = MODEL_CATALOGUE.flatMap((m) => Object.keys(m.parameters)).filter((k) => !/^(alpha|beta|phi)$/.test(k));
  assert.deepEqual(
    parameters.filter((k) => parameterName(k, 'fr') === k),
    [],
    'parameter names without French',
  );
});

test('a translation is kept for the English it was made from only: another English gets no French', () => {
  const [key, english] = englishTexts()[0];
  assert.equal(translatedIn(key, english, 'fr'), TRANSLATIONS_FR[key].fr);
  assert.equal(translatedIn(key, `${english} Changed.`, 'fr'), undefined);
  assert.equal(translatedIn(key, english, 'en'), english);
  assert.equal(translatedIn('model.unknown', 'Some new model.', 'fr'), undefined);
});

test('the translations keep the formulas and figures of the English', () => {
  for (const [key, english] of englishTexts()) {
    const french = TRANSLATIONS_FR[key]?.fr ?? '';
    for (const formula of english.match(/[ŷℓφ][^\s,;:]*/g) ?? []) {
      assert.ok(french.includes(formula), `${key}: “${formula}” kept`);
    }
  }
});
