// The models page in French translates every text the forecasting code writes about its models and rules, and a
// translation stands only for the English it was made from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FORECAST_METHOD, MODEL_CATALOGUE } from '../forecast/model-catalogue.ts';
import { METHOD_FR } from '../messages/method-fr.ts';
import { fingerprint, methodTextIn, parameterName } from './method-text.ts';

const SHOWN_RULES = ['interval', 'young', 'dates', 'dormant', 'confidence', 'backtest_definition'] as const;

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
  ];
}

test('every model, text parameter and rule of the models page has a French translation of its current English', () => {
  const stale = englishTexts()
    .filter(([key, english]) => methodTextIn(key, english, 'fr') === undefined)
    .map(([key, english]) => `${key}: ${METHOD_FR[key] ? 'its English changed' : 'no translation'} (now ${fingerprint(english)}): “${english}”`);
  assert.deepEqual(stale, [], `translate again in src/services/draws/messages/method-fr.ts:\n${stale.join('\n')}`);
  const parameters = MODEL_CATALOGUE.flatMap((m) => Object.keys(m.parameters)).filter((k) => !/^(alpha|beta|phi)$/.test(k));
  assert.deepEqual(parameters.filter((k) => parameterName(k, 'fr') === k), [], 'parameter names without French');
});

test('a translation is kept for the English it was made from only: another English gets no French', () => {
  const [key, english] = englishTexts()[0];
  assert.equal(methodTextIn(key, english, 'fr'), METHOD_FR[key].fr);
  assert.equal(methodTextIn(key, `${english} Changed.`, 'fr'), undefined);
  assert.equal(methodTextIn(key, english, 'en'), english);
  assert.equal(methodTextIn('model.unknown', 'Some new model.', 'fr'), undefined);
});

test('the translations keep the formulas and figures of the English', () => {
  for (const [key, english] of englishTexts()) {
    const french = METHOD_FR[key]?.fr ?? '';
    for (const formula of english.match(/[ŷℓφ][^\s,;:]*/g) ?? []) {
      assert.ok(french.includes(formula), `${key}: “${formula}” kept`);
    }
  }
});
