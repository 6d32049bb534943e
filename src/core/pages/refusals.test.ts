// The kernel's refusals of a parameter in the page's language: each keyword the schemas and the kernel's own checks can
// produce is worded by the French catalogue from the refusal's structure; an English page keeps the API's message.
// Then, over HTTP on both databases, a property over every page route of the services whose pages speak French (C and
// D): for each parameter its schema declares, a value breaking each of its rules, on the French page, is refused in
// French (never the API's English message), and on the English page with the English message.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { layoutMessages } from '../i18n/messages/index.ts';
import type { LayoutKey } from '../i18n/messages/index.ts';
import { choiceParam, dateParam, booleanParam, integerPathParam, withError } from '../http/params.ts';
import { Type } from 'typebox';
import type { ServiceApp, ServiceModule } from '../service.ts';
import { SERVICES } from '../../services/registry.ts';
import { buildTestApp, testContext } from '../../../test/support/app.ts';
import { describeEachDatabase } from '../../../test/support/databases.ts';
import { textOf } from '../../../test/support/pages.ts';
import { pageLocale } from './locale.ts';
import { kernelWords, refusalWording } from './refusals.ts';
import type { ParameterRefusal } from './refusals.ts';
import { pageRoutesOf } from './register.ts';

const refusal = (keyword: string, params: Record<string, unknown> = {}, schema?: unknown): ParameterRefusal => ({
  name: 'p',
  keyword,
  value: 'x',
  repeated: false,
  params,
  schema,
});

describe('the kernel’s words for a refused parameter', () => {
  const french = pageLocale('fr', true);
  const cases: Array<[ParameterRefusal, LayoutKey]> = [
    [refusal('required', { missingProperty: 'p' }), 'refusal.required'],
    [refusal('type', { type: 'integer' }), 'refusal.type'],
    [refusal('minimum', { limit: 1 }), 'refusal.minimum'],
    [refusal('maximum', { limit: 1_000_000 }), 'refusal.maximum'],
    [refusal('exclusiveMinimum', { limit: 0 }), 'refusal.exclusiveMinimum'],
    [refusal('exclusiveMaximum', { limit: 0 }), 'refusal.exclusiveMaximum'],
    [refusal('minLength', { limit: 2 }), 'refusal.minLength'],
    [refusal('maxLength', { limit: 200 }), 'refusal.maxLength'],
    [refusal('multipleOf', { limit: 5 }), 'refusal.multipleOf'],
    [refusal('enum', { allowedValues: ['a', 'b'] }), 'refusal.oneOf'],
    [refusal('const', { allowedValue: 'all' }), 'refusal.const'],
    [refusal('anyOf', {}, { anyOf: [{ const: 'a' }, { const: 'b' }] }), 'refusal.oneOf'],
    [refusal('pattern', { pattern: '^a$' }), 'refusal.pattern'],
    [refusal('format', { format: 'date' }), 'refusal.format'],
    [refusal('additionalProperties', { additionalProperty: 'q' }), 'refusal.unknownField'],
    [refusal('text', { problem: 'nul' }), 'refusal.text'],
    [refusal('text', { problem: 'surrogate', name: true }), 'refusal.textName'],
    [refusal('realDate', { value: '2024-02-31' }), 'refusal.realDate'],
    // a custom error text: its meaning, whatever keyword failed
    [refusal('pattern', {}, choiceParam(['a', 'b'], 'd')), 'refusal.oneOf'],
    [refusal('maxLength', { limit: 40 }, choiceParam(['a', 'b'], 'd')), 'refusal.oneOf'],
    [refusal('pattern', {}, booleanParam('d')), 'refusal.boolean'],
    [refusal('pattern', {}, dateParam('d')), 'refusal.date'],
    [refusal('pattern', {}, integerPathParam('d')), 'refusal.wholeNumber'],
    // a custom text whose meaning the schema does not give: the value is not accepted (never the English text)
    [refusal('pattern', {}, withError(Type.String({ pattern: '^a$' }), 'must be an a')), 'refusal.invalid'],
    [refusal('someFutureKeyword'), 'refusal.invalid'],
  ];

  it('words each keyword from its structure, in French', () => {
    for (const [r, key] of cases) {
      assert.equal(refusalWording(r)[0], key, `${r.keyword} ${JSON.stringify(r.params)}`);
      const text = kernelWords(r, french)!;
      assert.equal(text, layoutMessages.format('fr', key, refusalWording(r)[1]));
      assert.doesNotMatch(text, /\{|\}|must|required|invalid/, text);
    }
    assert.equal(
      kernelWords(refusal('minimum', { limit: 1_000_000 }), french),
      'Le paramètre p doit être supérieur ou égal à 1\u00a0000\u00a0000.',
    );
  });

  it('says nothing on an English page: the API’s message stands', () => {
    for (const [r] of cases) assert.equal(kernelWords(r, pageLocale('en', true)), undefined);
  });

  it('the catalogue’s English says what the API says for the same refusal', () => {
    const en = (key: LayoutKey, values: Record<string, string | number>) => layoutMessages.format('en', key, values);
    assert.equal(en('refusal.type', { name: 'page', type: 'integer' }), 'page must be an integer');
    assert.equal(en('refusal.minimum', { name: 'page', limit: 1 }), 'page must be at least 1');
    assert.equal(en('refusal.oneOf', { name: 'lang', values: 'en, fr, both', descending: 'no' }), 'lang must be one of: en, fr, both');
    assert.equal(en('refusal.boolean', { name: 'is_major' }), 'is_major must be true, false, 1 or 0');
  });
});

/** Values that break each rule of a parameter's schema (none for a rule no query text can break). */
function badValues(schema: Record<string, unknown>): string[] {
  const values = ['a\u0000b'];
  const type = schema.type;
  if (type === 'integer' || type === 'number') values.push('abc', '0x10', '1e3');
  if (type === 'integer') values.push('1.5');
  if (typeof schema.minimum === 'number') values.push(String(schema.minimum - 1));
  if (typeof schema.maximum === 'number') values.push(String(schema.maximum + 1));
  if (typeof schema.exclusiveMinimum === 'number') values.push(String(schema.exclusiveMinimum));
  if (typeof schema.maxLength === 'number') values.push('x'.repeat(schema.maxLength + 1));
  if (typeof schema.pattern === 'string' || schema.enum || schema.anyOf || schema.const !== undefined) values.push('~no such value~');
  return values;
}

const french = SERVICES.filter((s) => s.pages?.languages?.includes('fr'));

/** The message of a page's error note (the shared error page's, or a form's redrawn beside it). */
const noteOf = (body: string) => textOf(/<p class="note error" role="alert">([\s\S]*?)<\/p>/.exec(body)?.[1] ?? '');

for (const service of french as ServiceModule[]) {
  describeEachDatabase(
    `${service.name}: every page parameter a French page refuses is said in French`,
    (t) => {
      let app: ServiceApp;
      before(async () => {
        app = await buildTestApp(service, testContext(service, t.db));
      });
      after(async () => app?.close());

      it('each rule of each parameter of each page, broken: French on the French page, the API’s English on the English one', async () => {
        const seen = new Set<string>();
        let refused = 0;
        for (const route of pageRoutesOf(app).filter((r) => r.method === 'GET')) {
          for (const part of ['querystring', 'params'] as const) {
            const properties =
              (route.schema[part] as { properties?: Record<string, Record<string, unknown>> } | undefined)?.properties ?? {};
            for (const [name, schema] of Object.entries(properties)) {
              for (const value of badValues(schema)) {
                const path = route.url.replace(/:(\w+)/g, (_, p: string) =>
                  part === 'params' && p === name ? encodeURIComponent(value) : '1',
                );
                if (part === 'params' && !route.url.includes(`:${name}`)) continue;
                const query = part === 'querystring' ? `${name}=${encodeURIComponent(value)}&` : '';
                const english = await app.inject({ url: `${path}?${query}` });
                if (english.statusCode !== 400) continue;
                const fr = await app.inject({ url: `${path}?${query}lang=fr` });
                const where = `${route.url} ${name}=${JSON.stringify(value)}`;
                assert.equal(fr.statusCode, 400, where);
                assert.match(fr.body, /<html lang="fr">/, where);
                const [en, said] = [noteOf(english.body), noteOf(fr.body)];
                assert.ok(en !== '' && said !== '', `${where}: a note on both pages`);
                assert.notEqual(said, en, where);
                assert.doesNotMatch(said, /\b(must|is required|is not valid|holds a)\b/, `${where}: ${said}`);
                assert.ok(!said.includes(textOf(layoutMessages.format('fr', 'refusal.invalid', { name }))), `${where}: ${said}`);
                seen.add(`${route.url} ${name}`);
                refused++;
              }
            }
          }
        }
        assert.ok(refused >= 10, `${refused} refusals checked`);
        assert.ok(seen.size >= 5, [...seen].join(', '));
      });
    },
    { migrations: service.migrations },
  );
}
