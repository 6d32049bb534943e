// Service B's page catalogue. B's pages speak English only (krtPages names no other language, so no request is
// answered in another): the French table is the English one until a translation is written. Another language is a
// file beside en.ts, typed by its keys, named here and in krtPages' `languages`.
import { Catalogue } from '../../../core/i18n/catalogue.ts';
import type { Translate } from '../../../core/i18n/catalogue.ts';
import type { Language } from '../../../core/i18n/language.ts';
import { en } from './en.ts';
import type { KrtKey } from './en.ts';

export type { KrtKey };
export const krtMessages = new Catalogue<KrtKey>({ en, fr: en });

/** The translator of a page's language. */
export function krtText(language: Language): Translate<KrtKey> {
  return krtMessages.in(language);
}
