// GET /api/draws/ (exclusive start_date and end_date, as the spec says) and /api/draws/recent/.
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../../core/http/errors.ts';
import { LANGUAGES, negotiateLanguage } from '../../../core/i18n/language.ts';
import type { Language } from '../../../core/i18n/language.ts';
import { parseDate } from '../../../core/http/params.ts';
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import { listDraws, recentWindow } from '../repository.ts';
import { drawsRoute, recentDrawsRoute } from '../schemas/draws.ts';
import type { DrawsState } from '../state.ts';

/**
 * The language a request asks for: `lang` (checked by the schema), else Accept-Language. The routes declare
 * `languages`, so the response cache keys their answers by the negotiated language and says `Vary: Accept-Language`.
 */
function drawsLanguage(request: FastifyRequest, lang: string | undefined): Language | 'both' {
  const wanted = lang?.trim().toLowerCase();
  if (wanted === 'en' || wanted === 'fr' || wanted === 'both') return wanted;
  return negotiateLanguage(undefined, request.headers['accept-language'], LANGUAGES);
}

export async function drawRoutes(app: ServiceApp, { state }: ServingContext<DrawsState>): Promise<void> {
  const { db } = state;

  app.get(
    '/api/draws/',
    { schema: drawsRoute, config: { operation: 'draws', responseCache: true, languages: LANGUAGES } },
    async (request) => {
      const q = request.query;
      const after = parseDate(q.start_date, 'start_date');
      const before = parseDate(q.end_date, 'end_date');
      if (after !== undefined && before !== undefined && before <= after) {
        throw badRequest(`end_date must be after start_date (both are exclusive), got start_date ${after} and end_date ${before}`);
      }
      const category = q.category === undefined ? undefined : await state.requireCategory(q.category, 'category');
      const data = await listDraws(db, { categoryId: category?.id, after, before, through: state.asOf() }, drawsLanguage(request, q.lang));
      return { success: true, count: data.length, data, data_source: await state.source() };
    },
  );

  app.get(
    '/api/draws/recent/',
    { schema: recentDrawsRoute, config: { operation: 'draws', responseCache: true, languages: LANGUAGES } },
    async (request) => {
      const data = await listDraws(db, recentWindow(state.asOf()), drawsLanguage(request, request.query.lang));
      return { success: true, count: data.length, data, data_source: await state.source() };
    },
  );
}
