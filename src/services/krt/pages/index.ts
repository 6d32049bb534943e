// Service B's pages: look up a paper by DOI (/), its key resources table with exports and the RRID check
// of every row (/paper), and the table-building chat (/chat). Built on the API's own answers (state.ts); the
// core of each page works without JavaScript, and krt-chat.js lets the chat update the table in place.
import path from 'node:path';
import type { ServicePages } from '../../../core/service.ts';
import type { KrtState } from '../state.ts';
import type { KrtTables } from '../tables.ts';
import { chatPages } from './chat.ts';
import { lookupPage } from './lookup.ts';
import { paperPage } from './paper.ts';
import { pageErrors } from '../../../core/pages/replies.ts';
import { acceptFormBodies } from '../../../core/pages/form-bodies.ts';
import { statisticsPage } from './statistics.ts';
import { buildPages } from './build.ts';
import { krtText } from '../messages/index.ts';

const t = krtText('en');

export const krtPages: ServicePages<KrtState> = {
  title: t('service.title'),
  sections: [
    { label: t('nav.lookup'), href: '/' },
    { label: t('nav.chat'), href: '/chat' },
    { label: t('nav.build'), href: '/build' },
    { label: t('nav.statistics'), href: '/statistics' },
  ],
  scripts: { 'krt-chat.js': path.join(import.meta.dirname, 'static', 'krt-chat.js') },
  async routes(app, ctx, kit) {
    const { answers } = ctx.state;
    const db = ctx.db.kysely.withTables<KrtTables>();
    pageErrors(app, kit);
    acceptFormBodies(app);
    lookupPage(app, answers, kit);
    paperPage(app, answers, db, kit);
    statisticsPage(app, answers, kit);
    await buildPages(app, ctx, answers, db, kit);
    await chatPages(app, ctx, answers, db, kit);
  },
};
