// Service C's page catalogue.
import { Catalogue } from '../../../core/i18n/catalogue.ts';
import { en } from './en.ts';
import type { GrantsKey } from './en.ts';
import { fr } from './fr.ts';

export type { GrantsKey };
export const grantsMessages = new Catalogue<GrantsKey>({ en, fr });
