// GET /api/track-record/: every forecast as served, beside what happened, and each category's running record.
import { clampLimit } from '../../../core/http/params.ts';
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import { listCategories } from '../repository.ts';
import { TRACK_RECORD_DEFAULT_LIMIT, TRACK_RECORD_MAX_LIMIT, trackRecordRoute } from '../schemas/track-record.ts';
import { readTrackRecord, trackRecordEntry } from '../track-record.ts';
import type { DrawsState } from '../state.ts';

export async function trackRecordRoutes(app: ServiceApp, { state }: ServingContext<DrawsState>): Promise<void> {
  const { db } = state;

  app.get(
    '/api/track-record/',
    { schema: trackRecordRoute, config: { operation: 'track record', responseCache: true } },
    async (request) => {
      const q = request.query;
      const category = q.category === undefined ? undefined : await state.requireCategory(q.category, 'category');
      // What this version serves is in the record before the record is answered (and cached).
      await state.recordServed();
      const page = q.page ?? 1;
      const limit = clampLimit(q.limit ?? TRACK_RECORD_DEFAULT_LIMIT, TRACK_RECORD_MAX_LIMIT);
      const [record, categories] = await Promise.all([
        readTrackRecord(db, { categoryId: category?.id, page, limit, asOf: state.asOf() }),
        listCategories(db, { activeOnly: false }),
      ]);
      const names = new Map(categories.map((c) => [c.id, c.name]));
      return {
        success: true,
        count: record.count,
        page,
        limit,
        data: record.rows.map((r) => trackRecordEntry(r, names.get(r.category_id) ?? '')),
        summary: record.summary.map((s) => ({ ...s, category_name: names.get(s.category_id) ?? '' })),
        data_source: await state.source(),
      };
    },
  );
}
