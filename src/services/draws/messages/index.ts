// Service D's page catalogue.
import { Catalogue } from '../../../core/i18n/catalogue.ts';
import { en } from './en.ts';
import type { DrawsKey } from './en.ts';
import { fr } from './fr.ts';

export type { DrawsKey };
export const drawsMessages = new Catalogue<DrawsKey>({ en, fr });
