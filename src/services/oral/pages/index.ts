// Service A's pages: the recommendation search at /, the search over every kind of document at /search,
// guidelines, systematic reviews with their forest plots, and statistics. Built on the repository functions the API uses; they work without JavaScript.
import type { ServicePages } from '../../../core/service.ts';
import { oralDatabase } from '../tables.ts';
import { guidelinePages } from './guidelines.ts';
import { reviewPages } from './reviews.ts';
import { evidencePage } from './evidence.ts';
import { searchPage } from './search.ts';
import { statisticsPage } from './statistics.ts';

export const oralPages: ServicePages = {
  title: 'Oral health evidence',
  sections: [
    { label: 'Search', href: '/' },
    { label: 'All evidence', href: '/search' },
    { label: 'Guidelines', href: '/guidelines' },
    { label: 'Reviews', href: '/reviews' },
    { label: 'Statistics', href: '/statistics' },
  ],
  async routes(app, ctx, kit) {
    const db = oralDatabase(ctx.db);
    searchPage(app, db, kit);
    evidencePage(app, db, kit);
    guidelinePages(app, db, kit);
    reviewPages(app, db, kit);
    statisticsPage(app, db, kit);
  },
};
