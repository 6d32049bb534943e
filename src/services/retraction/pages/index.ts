// Service E's pages: search with suggestions as you type and filters (/), the download of a search
// (/export-search), a paper's citations split at its notice and its citing works (/papers/{record_id}), the
// analytics dashboard (/analytics) and the democracy analysis (/democracy). Built on the functions the API's
// handlers call, each page validated by its API route's schema (core/pages/page.ts); every page works without
// JavaScript.
import { pageErrors } from '../../../core/pages/replies.ts';
import type { ServicePages } from '../../../core/service.ts';
import type { RetractionState } from '../state.ts';
import { analyticsPage } from './analytics.ts';
import { democracyPage } from './democracy.ts';
import { paperPage } from './paper.ts';
import { exportSearchPage, searchPage } from './search.ts';
import { retractionHeader } from './shared.ts';

const english = retractionHeader('en');

export const retractionPages: ServicePages<RetractionState> = {
  title: english.serviceTitle,
  sections: english.sections,
  header: retractionHeader,
  async routes(app, ctx, kit) {
    const { db } = ctx.state;
    pageErrors(app, kit);
    searchPage(app, ctx.state, kit);
    exportSearchPage(app, db, kit);
    paperPage(app, db, kit);
    analyticsPage(app, ctx.state, kit);
    democracyPage(app, db, kit);
  },
};
