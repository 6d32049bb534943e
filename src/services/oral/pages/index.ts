// Service A's pages: the evidence search at /, guidelines, systematic reviews with their forest
// plots, and statistics. Built on the repository functions the API uses; they work without JavaScript.
import type { ServicePages } from '../../../core/service.ts';
import { oralDatabase } from '../tables.ts';
import { guidelinePages } from './guidelines.ts';
import { reviewPages } from './reviews.ts';
import { searchPage } from './search.ts';
import { statisticsPage } from './statistics.ts';

export const oralPages: ServicePages = {
  title: 'Oral health evidence',
  sections: [
    { label: 'Search', href: '/' },
    { label: 'Guidelines', href: '/guidelines' },
    { label: 'Reviews', href: '/reviews' },
    { label: 'Statistics', href: '/statistics' },
  ],
  async routes(app, ctx, kit) {
    const db = oralDatabase(ctx.db);
    searchPage(app, db, kit);
    guidelinePages(app, db, kit);
    reviewPages(app, db, kit);
    statisticsPage(app, db, kit);
  },
};
