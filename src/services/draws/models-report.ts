// Prints what /api/models/ reports for the real IRCC snapshot: every model's pooled rolling-origin backtest
// of CRS cut-offs by horizon, and, for the largest categories, whether the chosen model beats the naive
// one at h = 1. Everything is computed here, through the service's own importer and routes.
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
    lines.push('/api/models/: rolling-origin backtest (expanding window), errors pooled over every category with enough history');
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
    lines.push('(damped_trend is a candidate only for series of at least 20 draws and is backtested from the 10th draw on, so its');
    lines.push(" pooled errors cover fewer and later targets than the other models'; the per-category comparison below is like for like.)");
    lines.push('');
    lines.push('Chosen model against naive at h = 1, on the targets common to all candidates (the comparison the choice is made on)');
    lines.push(
      `${'category'.padEnd(46)}${'draws'.padStart(6)}  ${'status'.padEnd(21)}${'chosen'.padEnd(13)}${'n'.padStart(4)}${'MAE'.padStart(8)}${'naive'.padStart(8)}  verdict`,
    );
    const bySize = [...categories].sort((a, b) => b.total_draws - a.total_draws || a.id - b.id);
    for (const c of bySize) {
      const fc = models.categories.find((x) => x.category_id === c.id);
      if (!fc || fc.crs_model === null) continue;
      const chosen = fc.mae_h1[fc.crs_model] ?? null;
      const naive = fc.mae_h1.naive ?? null;
      let verdict: string;
      // With a tie the chosen model is not the lowest: name the model it was tied with.
      const best = Object.entries(fc.mae_h1)
        .filter(([name]) => name !== fc.crs_model)
        .sort((a, b) => a[1] - b[1])[0] ?? ['—', null];
      if (fc.crs_model === 'naive') {
        verdict =
          fc.selection_reason === 'thin_data'
            ? 'naive: fewer than 10 common errors'
            : fc.selection_reason === 'tie_simpler'
              ? `naive: within 2% of the best (${best[0]} ${f(best[1], 3)}), the simpler model kept`
              : 'naive: the lowest MAE of all candidates';
      } else if (chosen !== null && naive !== null) {
        verdict =
          `${chosen < naive ? 'beats' : 'does not beat'} naive by ${(((naive - chosen) / naive) * 100).toFixed(1)}%` +
          (fc.selection_reason === 'tie_simpler' ? ` (tied within 2% with ${best[0]} ${f(best[1], 3)}; simpler model kept)` : '');
      } else verdict = '—';
      lines.push(
        `${c.name.slice(0, 45).padEnd(46)}${String(c.total_draws).padStart(6)}  ${fc.status.padEnd(21)}${fc.crs_model.padEnd(13)}${String(fc.compared_on).padStart(4)}` +
          `${f(chosen, 2).padStart(8)}${f(naive, 2).padStart(8)}  ${verdict}`,
      );
    }
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
