// Service C's pages: the grant search at /, one agreement, the statistics dashboard, recipients
// and one recipient, the taxpayer calculator, and Global Affairs Canada's international projects (international/). Built on the repository, the stored aggregates and the API's
// own search route; they work without JavaScript, in English and French (messages/).
import type { ServicePages } from '../../../core/service.ts';
import type { GrantsTables } from '../tables.ts';
import { AgreementIndex } from './agreement-index.ts';
import { calculatorPage } from './calculator.ts';
import { grantPage } from './grant.ts';
import { internationalPages } from '../international/pages.ts';
import { recipientPages } from './recipients.ts';
import { searchPage } from './search.ts';
import { statisticsPage } from './statistics.ts';
import { grantsHeader } from './shared.ts';

export const grantsPages: ServicePages = {
  title: grantsHeader('en').serviceTitle,
  sections: grantsHeader('en').sections,
  languages: ['en', 'fr'],
  header: grantsHeader,
  async routes(app, ctx, kit) {
    const db = ctx.db.kysely.withTables<GrantsTables>();
    const index = new AgreementIndex(db, ctx.dataVersion);
    searchPage(app, db, kit);
    grantPage(app, db, kit);
    statisticsPage(app, db, kit, index);
    recipientPages(app, db, kit, index);
    calculatorPage(app, db, kit);
    internationalPages(app, db, kit);
  },
};
