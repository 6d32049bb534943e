// Service C's pages: the grant search at /, one agreement, the statistics dashboard, recipients
// and one recipient, and the taxpayer calculator. Built on the repository, the stored aggregates and C's search
// (the same functions as the API's, from C's state); they work without JavaScript, in English and French (messages/).
import type { ServiceApp, ServiceContext, ServicePages } from '../../../core/service.ts';
import type { PageKit } from '../../../core/pages/index.ts';
import type { GrantsState } from '../state.ts';
import type { GrantsTables } from '../tables.ts';
import { calculatorPage } from './calculator.ts';
import { grantPage } from './grant.ts';
import { recipientPages } from './recipients.ts';
import { searchPage } from './search.ts';
import { statisticsPage } from './statistics.ts';
import { grantsHeader } from './shared.ts';

/** Registers the pages, on C's state. */
export async function grantsPageRoutes(app: ServiceApp, ctx: ServiceContext, kit: PageKit, state: GrantsState): Promise<void> {
  const db = ctx.db.kysely.withTables<GrantsTables>();
  searchPage(app, db, kit, state.search);
  grantPage(app, db, kit);
  statisticsPage(app, db, kit, state.search);
  recipientPages(app, db, kit, state.search);
  calculatorPage(app, db, kit);
}

/** C's pages, each app's on the state `stateOf` gives for its context. */
export function grantsPages(stateOf: (ctx: ServiceContext) => GrantsState): ServicePages {
  return {
    title: grantsHeader('en').serviceTitle,
    sections: grantsHeader('en').sections,
    languages: ['en', 'fr'],
    header: grantsHeader,
    routes: (app, ctx, kit) => grantsPageRoutes(app, ctx, kit, stateOf(ctx)),
  };
}
