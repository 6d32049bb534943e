// Service A's pages: the recommendation search at /, the search over every kind of document at /search,
// guidelines, systematic reviews with their forest plots, and statistics. Built on the repository functions the API
// uses, each page validated by its API route's schema (core/pages/page.ts); they work without JavaScript.
import { pageErrors } from '../../../core/pages/replies.ts';
import type { ServicePages } from '../../../core/service.ts';
import type { OralState } from '../state.ts';
import { guidelinePages } from './guidelines.ts';
import { reviewPages } from './reviews.ts';
import { evidencePage } from './evidence.ts';
import { searchPage } from './search.ts';
import { oralHeader } from './shared.ts';
import { statisticsPage } from './statistics.ts';

const english = oralHeader('en');

export const oralPages: ServicePages<OralState> = {
  title: english.serviceTitle,
  sections: english.sections,
  header: oralHeader,
  async routes(app, ctx, kit) {
    const { db } = ctx.state;
    pageErrors(app, kit);
    searchPage(app, ctx.state, kit);
    evidencePage(app, ctx.state, kit);
    guidelinePages(app, ctx.state, kit);
    reviewPages(app, db, kit);
    statisticsPage(app, db, kit);
  },
};
