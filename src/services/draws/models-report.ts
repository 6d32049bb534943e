// Prints what /api/models/ reports for the real IRCC snapshot: every model's pooled rolling-origin backtest
// of CRS cut-offs by horizon, the served forecast against naive and the window mean per category at h = 1, and
// the coverage of the served intervals. Everything is computed here, through the service's own importer and routes.
//   node src/services/draws/models-report.ts [feed file or URL] [--as-of YYYY-MM-DD]
// Defaults: the 2025-12-17 snapshot in the shared data, as of 2025-12-17.
import path from 'node:path';
import pino from 'pino';
import type { Static } from 'typebox';
import { loadConfig } from '../../core/config.ts';
import { openDatabase } from '../../core/db/database.ts';
import { migrateToLatest } from '../../core/db/migrations.ts';
import { buildServiceApp } from '../../core/http/service-app.ts';
import { DataVersionWatcher } from '../../core/service.ts';
import type { ServiceContext } from '../../core/service.ts';
import { AS_OF_VARIABLE } from './as-of.ts';
import { SNAPSHOT_AS_OF, SNAPSHOT_NAME } from './feed/reference-snapshot.ts';
import { importRounds } from './import.ts';
import type { CategoriesResponse } from './schemas/categories.ts';
import type { ModelsResponse } from './schemas/models.ts';
import { drawsService } from './service.ts';

export async function modelsReport(source: string, asOf: string): Promise<string> {
  const db = openDatabase('sqlite::memory:');
  const config = loadConfig({ ...process.env, PDI_DATABASE_URL: '', [AS_OF_VARIABLE]: asOf });
  await migrateToLatest(db.kysely, drawsService.migrations);
  const ctx: ServiceContext = {
    name: 'draws',
    db,
    config,
    log: pino({ level: 'silent' }),
    redis: null,
    dataVersion: new DataVersionWatcher(db, 'draws'),
  };
  const report = await importRounds(ctx, source);
  const app = await buildServiceApp(drawsService, ctx, { logger: false });
  try {
    const models = (await app.inject('/api/models/')).json<Static<typeof ModelsResponse>>();
    const categories = (await app.inject('/api/categories/')).json<Static<typeof CategoriesResponse>>();
    const lines: string[] = [];
    const f = (x: number | null, digits = 1) => (x === null ? '—' : x.toFixed(digits));
    const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
    lines.push(`Express Entry CRS cut-off forecasts: ${report.rows_read} rounds from ${path.basename(source)}, as of ${asOf}`);
    lines.push('');
    lines.push('/api/models/: rolling-origin backtest (walk-forward, expanding window) of CRS cut-offs, pooled over the categories');
    lines.push(
      `${'model'.padEnd(13)}${'h'.padStart(2)}${'n'.padStart(6)}${'MAE'.padStart(8)}${'RMSE'.padStart(8)}${'MASE'.padStart(7)}${'bias'.padStart(8)}${'cov95'.padStart(8)}  selected for`,
    );
    for (const m of models.data) {
      const names = m.selected_for.map((id) => categories.find((c) => c.id === id)?.name ?? id).join(', ') || '—';
      for (const row of m.performance.by_horizon) {
        lines.push(
          `${(row.h === 1 ? m.name : '').padEnd(13)}${String(row.h).padStart(2)}${String(row.n).padStart(6)}${f(row.mae, 2).padStart(8)}${f(row.rmse, 2).padStart(8)}` +
            `${f(row.mase, 3).padStart(7)}${f(row.bias, 2).padStart(8)}${pct(row.coverage_95).padStart(8)}  ${row.h === 1 ? names : ''}`,
        );
      }
    }
    lines.push('(window: the forecasts whose targets fell in the 730 days up to the as-of date; pooled_young: every young forecast.)');
    lines.push('');
    lines.push('Served forecast (combination) against naive and the window mean at h = 1, per category, over the same window');
    lines.push(
      `${'category'.padEnd(46)}${'draws'.padStart(6)}  ${'status'.padEnd(12)}${'n'.padStart(4)}${'served'.padStart(8)}${'naive'.padStart(8)}${'wmean'.padStart(8)}  weights naive/ses/damped/reversion`,
    );
    const bySize = [...categories].sort((a, b) => b.total_draws - a.total_draws || a.id - b.id);
    for (const c of bySize) {
      const fc = models.categories.find((x) => x.category_id === c.id);
      if (!fc) continue;
      const w = fc.crs_weights;
      const weights =
        Object.keys(w).length > 0 ? ['naive', 'ses', 'damped_trend', 'pooled_reversion'].map((k) => f(w[k] ?? 0, 2)).join('/') : '—';
      lines.push(
        `${c.name.slice(0, 45).padEnd(46)}${String(c.total_draws).padStart(6)}  ${fc.status.padEnd(12)}${String(fc.compared_on ?? 0).padStart(4)}` +
          `${f(fc.mae_h1.combination ?? null, 2).padStart(8)}${f(fc.mae_h1.naive ?? null, 2).padStart(8)}${f(fc.mae_h1.window_mean ?? null, 2).padStart(8)}  ${weights}`,
      );
    }
    lines.push('');
    lines.push('Coverage of the served 95% intervals (same window)');
    for (const family of ['crs', 'invitations'] as const)
      lines.push(`  ${family.padEnd(12)}${models.intervals[family].map((r) => `h${r.h} ${pct(r.coverage_95)} (n=${r.n})`).join('  ')}`);
    lines.push(
      `  ${'dates'.padEnd(12)}${models.intervals.dates.map((r) => `h${r.h} ${pct(r.coverage_95)} at level ${r.level}`).join('  ')}`,
    );
    return lines.join('\n');
  } finally {
    await app.close();
    await db.close();
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const asOfAt = args.indexOf('--as-of');
  const asOf = asOfAt >= 0 ? args.splice(asOfAt, 2)[1] : (process.env[AS_OF_VARIABLE] ?? SNAPSHOT_AS_OF);
  const source = args[0] ?? path.join(loadConfig().sharedDataDir, 'draws', SNAPSHOT_NAME);
  console.log(await modelsReport(source, asOf));
}
