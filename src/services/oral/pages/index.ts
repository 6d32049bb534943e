// Service A's pages: the recommendation search at /, the search over every kind of document at /search,
// guidelines, systematic reviews with their forest plots, and statistics. Built on the repository functions the API uses; they work without JavaScript.
import type { ServicePages } from '../../../core/service.ts';
import type { OralState } from '../state.ts';
import { guidelinePages } from './guidelines.ts';
import { reviewPages } from './reviews.ts';
import { evidencePage } from './evidence.ts';
import { searchPage } from './search.ts';
import { statisticsPage } from './statistics.ts';

export const oralPages: ServicePages<OralState> = {
  title: 'Oral health evidence',
  sections: [
    { label: 'Search', href: '/' },
    { label: 'All evidence', href: '/search' },
    { label: 'Guidelines', href: '/guidelines' },
    { label: 'Reviews', href: '/reviews' },
    { label: 'Statistics', href: '/statistics' },
  ],
  async routes(app, ctx, kit) {
    const { db } = ctx.state;
    searchPage(app, ctx.state, kit);
    evidencePage(app, ctx.state, kit);
    guidelinePages(app, ctx.state, kit);
    reviewPages(app, db, kit);
    statisticsPage(app, db, kit);
  },
};
