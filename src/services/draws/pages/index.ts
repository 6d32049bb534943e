// Service D's pages: the next draws of every category at /, a page per category with its draws over
// time and the forecast fan, every draw, the models' backtest, and the "my score" tool. Built on the repository
// functions the API handlers call, each page validated by the schemas its API routes use (core/pages/page.ts);
// everything works without JavaScript, in English and French (messages/).
import { pageErrors } from '../../../core/pages/replies.ts';
import type { ServicePages } from '../../../core/service.ts';
import type { DrawsState } from '../state.ts';
import { categoryPage } from './category.ts';
import { drawsListPage } from './draws-list.ts';
import { modelsPage } from './models.ts';
import { myScorePage } from './my-score.ts';
import { overviewPage } from './overview.ts';
import { trackRecordPage } from './track-record.ts';
import { drawsHeader } from './shared.ts';

export const drawsPages: ServicePages<DrawsState> = {
  title: drawsHeader('en').serviceTitle,
  sections: drawsHeader('en').sections,
  languages: ['en', 'fr'],
  header: drawsHeader,
  async routes(app, ctx, kit) {
    const { state } = ctx;
    pageErrors(app, kit);
    overviewPage(app, state, kit);
    categoryPage(app, state, kit);
    drawsListPage(app, state, kit);
    modelsPage(app, state, kit);
    myScorePage(app, state, kit);
    trackRecordPage(app, state, kit);
  },
};
