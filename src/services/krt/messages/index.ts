// Service B's page catalogue. B's pages speak English only (krtPages names no other language, so no request is
// answered in another): the French table is the English one until a translation is written. Another language is a
// file beside en.ts, typed by its keys, named here and in krtPages' `languages`.
import { Catalogue } from '../../../core/i18n/catalogue.ts';
import type { Translate } from '../../../core/i18n/catalogue.ts';
import { joinHtml } from '../../../core/pages/index.ts';
import type { SafeHtml } from '../../../core/pages/index.ts';
import type { Language } from '../../../core/i18n/language.ts';
import { en } from './en.ts';
import type { KrtKey } from './en.ts';

export type { KrtKey };
const krtMessages = new Catalogue<KrtKey>({ en, fr: en });

/** The translator of a page's language. */
export function krtText(language: Language): Translate<KrtKey> {
  return krtMessages.in(language);
}

/**
 * A message in which the placeholders named in `markup` are drawn as markup (a <code>, a link) while the rest of its
 * text is escaped: the sentence stays whole in the catalogue, where a translation can move the placeholders.
 */
export function richMessage(
  t: Translate<KrtKey>,
  key: KrtKey,
  values: Record<string, string | number>,
  markup: Record<string, SafeHtml>,
): SafeHtml {
  const token = (name: string) => `\u0001${name}\u0002`;
  const text = t(key, { ...values, ...Object.fromEntries(Object.keys(markup).map((name) => [name, token(name)])) });
  return joinHtml(
    text.split(/(\u0001\w+\u0002)/).map((part) => {
      const name = /^\u0001(\w+)\u0002$/.exec(part)?.[1];
      return name !== undefined && name in markup ? markup[name] : part;
    }),
  );
}
