// What Service E's routes and pages share in a server process (ServiceModule.createState): the typed database, the
// in-memory analytics index of the current data version (analytics-index.ts), loaded once for both, and what is
// held of the stored export lines (export-lines.ts).
import type { ServiceContext } from '../../core/service.ts';
import { AnalyticsIndexCache } from './analytics-index.ts';
import { HeldExportLines } from './export-lines.ts';
import { retractionDb } from './tables.ts';
import type { RetractionDb } from './tables.ts';

export interface RetractionState {
  db: RetractionDb;
  analyticsIndex: AnalyticsIndexCache;
  exportLines: HeldExportLines;
}

export function createRetractionState(ctx: ServiceContext): RetractionState {
  return { db: retractionDb(ctx.db), analyticsIndex: new AnalyticsIndexCache(), exportLines: new HeldExportLines() };
}
