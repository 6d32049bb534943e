// GET /api/guidelines/: search and filter clinical practice guidelines.
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import { cleanText } from '../../../core/http/params.ts';
import { countryFilterLabel } from '../sources/index.ts';
import { listGuidelines } from '../repository.ts';
import { listGuidelinesSchema } from '../schemas/index.ts';
import type { OralState } from '../state.ts';
import { listConfig, listEnvelope, pageOf, parseCountry } from './common.ts';

export function guidelineRoutes(app: ServiceApp, ctx: ServingContext<OralState>): void {
  const { db } = ctx.state;
  app.get('/api/guidelines/', { schema: listGuidelinesSchema, config: listConfig('guideline search') }, async (request) => {
    const country = parseCountry(request.query.country);
    const text = cleanText(request.query.q);
    const page = pageOf(request.query);
    const result = await listGuidelines(db, { q: text, country: country?.code }, page);
    return listEnvelope(result, page, { query: text ?? '', country: country ? countryFilterLabel(country) : '' });
  });
}
