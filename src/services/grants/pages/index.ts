// Service C's pages: the grant search at /, one agreement, the statistics dashboard, recipients
// and one recipient, the taxpayer calculator, and Global Affairs Canada's international projects (international/).
// Built on the repository, the stored aggregates and C's search
// (the same functions as the API's, from C's state); they work without JavaScript, in English and French (messages/).
import type { ServiceApp, ServiceContext, ServicePages } from '../../../core/service.ts';
import type { PageKit } from '../../../core/pages/index.ts';
import { pageErrors } from '../../../core/pages/replies.ts';
import type { GrantsState } from '../state.ts';
import type { GrantsTables } from '../tables.ts';
import { calculatorPage } from './calculator.ts';
import { grantPage } from './grant.ts';
import { internationalPages } from '../international/pages.ts';
import { recipientPages } from './recipients.ts';
import { searchPage } from './search.ts';
import { statisticsPage } from './statistics.ts';
import { grantsHeader } from './shared.ts';

/** Registers the pages, on C's state. */
async function grantsPageRoutes(app: ServiceApp, ctx: ServiceContext, kit: PageKit, state: GrantsState): Promise<void> {
  const db = ctx.db.kysely.withTables<GrantsTables>();
  // what is refused before a page's handler runs (a number the kernel will not read) is the shared error page too
  pageErrors(app, kit);
  searchPage(app, db, kit, state.search);
  grantPage(app, db, kit);
  statisticsPage(app, db, kit, state.search);
  recipientPages(app, db, kit, state.search);
  calculatorPage(app, db, kit);
  internationalPages(app, db, kit);
}

/** C's pages, on C's state (ServiceModule.createState). */
export const grantsPages: ServicePages<GrantsState> = {
  title: grantsHeader('en').serviceTitle,
  sections: grantsHeader('en').sections,
  languages: ['en', 'fr'],
  header: grantsHeader,
  routes: (app, ctx, kit) => grantsPageRoutes(app, ctx, kit, ctx.state),
};
