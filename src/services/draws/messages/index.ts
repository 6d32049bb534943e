// Service D's page catalogue.
import { Catalogue } from '../../../core/i18n/catalogue.ts';
import type { Translate } from '../../../core/i18n/catalogue.ts';
import type { PageLocale } from '../../../core/pages/index.ts';
import { en } from './en.ts';
import type { DrawsKey } from './en.ts';
import { fr } from './fr.ts';

export type { DrawsKey };
export const drawsMessages = new Catalogue<DrawsKey>({ en, fr });

/** What a page writes with: its locale and the catalogue's messages in its language. */
export interface Words {
  loc: PageLocale;
  t: Translate<DrawsKey>;
}
