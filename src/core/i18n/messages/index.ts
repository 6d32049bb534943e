// The shared layout's catalogue (every service's pages use it for the header, footer, banners and error pages).
import { Catalogue } from '../catalogue.ts';
import { en } from './en.ts';
import type { LayoutKey } from './en.ts';
import { fr } from './fr.ts';

export type { LayoutKey };
export const layoutMessages = new Catalogue<LayoutKey>({ en, fr });
