// Forecasts stored before predictions kept the n of their confidence (confidence_forecasts_scored null, the stored
// forecasts of format 5) are refitted when the service starts, so that the API serves the count. Demo data, both
// databases.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { putAggregate } from '../../core/db/datasets.ts';
import type { ServiceApp, ServiceContext } from '../../core/service.ts';
import { buildTestApp, testContext } from '../../../test/support/app.ts';
import { describeEachDatabase } from '../../../test/support/databases.ts';
import { SNAPSHOT_AS_OF } from '../../../test/support/draws/context.ts';
import { checkConfidenceCount } from '../../../test/support/draws/http.ts';
import type { PredictionBody } from '../../../test/support/draws/http.ts';
import { FORECASTS_AGGREGATE, SERVICE } from './aggregates.ts';
import { AS_OF_VARIABLE } from './as-of.ts';
import { readForecasts } from './repository.ts';
import { drawsService } from './service.ts';
import type { DrawsTables } from './tables.ts';

/** The format of the stored forecasts whose predictions had no confidence_forecasts_scored. */
const FORMAT_WITHOUT_COUNT = 5;

describeEachDatabase(
  'draws: forecasts stored without the confidence count',
  (t) => {
    let app: ServiceApp | undefined;
    let ctx: ServiceContext;
    before(async () => {
      ctx = testContext(drawsService, t.db, {
        dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-draws-confidence-')),
        env: { ...process.env, [AS_OF_VARIABLE]: SNAPSHOT_AS_OF },
      });
      await drawsService.loadDemo(ctx, {});
    });
    after(async () => app?.close());

    it('are refitted when the service starts: every prediction serves the n of its confidence_score', async () => {
      const db = ctx.db.kysely.withTables<DrawsTables>();
      // The state a database upgraded by migration draws_0007 is in: the column null, the forecasts of the format before.
      await db.updateTable('draws_predictions').set({ confidence_forecasts_scored: null }).execute();
      const stored = (await readForecasts(db))!;
      await putAggregate(ctx.db.kysely, SERVICE, FORECASTS_AGGREGATE, stored.data_version, {
        ...stored.value,
        format: FORMAT_WITHOUT_COUNT,
      });
      app = await buildTestApp(drawsService, ctx);
      const data = (await app.inject('/api/predict/')).json().data as { predictions: PredictionBody[] }[];
      const predictions = data.flatMap((e) => e.predictions);
      assert.ok(predictions.length > 0);
      for (const p of predictions) checkConfidenceCount(p);
    });
  },
  { migrations: drawsService.migrations },
);
