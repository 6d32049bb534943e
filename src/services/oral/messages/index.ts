// Service A's page catalogue. A's pages speak English: its French table is its English one until a translation is
// written (fr.ts with the same keys, and `languages: ['en', 'fr']` in pages/index.ts); no page asks for it before.
import { Catalogue } from '../../../core/i18n/catalogue.ts';
import type { Translate } from '../../../core/i18n/catalogue.ts';
import { en } from './en.ts';
import type { OralKey } from './en.ts';

export type { OralKey };
export type OralTranslate = Translate<OralKey>;
export const oralMessages = new Catalogue<OralKey>({ en, fr: en });
