// Service E's page catalogue. E's pages speak English: its French table is its English one until a translation is
// written (fr.ts with the same keys, and `languages: ['en', 'fr']` in pages/index.ts); no page asks for it before.
import { Catalogue } from '../../../core/i18n/catalogue.ts';
import type { Translate } from '../../../core/i18n/catalogue.ts';
import { en } from './en.ts';
import type { RetractionKey } from './en.ts';

export type { RetractionKey };
export type RetractionTranslate = Translate<RetractionKey>;
export const retractionMessages = new Catalogue<RetractionKey>({ en, fr: en });
