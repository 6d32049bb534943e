// Service D's pages: the next draws of every category at /, a page per category with its draws over
// time and the forecast fan, every draw, the models' backtest, and the "my score" tool. Built on the repository
// functions the API handlers call; everything works without JavaScript, in English and French (messages/).
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
    const routes = ctx.state;
    overviewPage(app, routes, kit);
    categoryPage(app, routes, kit);
    drawsListPage(app, routes, kit);
    modelsPage(app, routes, kit);
    myScorePage(app, routes, kit);
    trackRecordPage(app, routes, kit);
  },
};
