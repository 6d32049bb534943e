// Shared by Service D's database tests: a context whose as-of date is fixed (PDI_DRAWS_AS_OF through
// ctx.config.env, as in production), and suites that need the real IRCC snapshot (skipped with a message
// outside CI when ../shared/data is absent, failed in CI).
import { before, describe } from 'node:test';
import type { Db } from '../../../src/core/db/database.ts';
import type { ImportReport } from '../../../src/core/import.ts';
import type { ServiceContext } from '../../../src/core/service.ts';
import { AS_OF_VARIABLE } from '../../../src/services/draws/as-of.ts';
import { importRounds } from '../../../src/services/draws/import.ts';
import { drawsService } from '../../../src/services/draws/service.ts';
import { testContext } from '../app.ts';
import { describeEachDatabase, needsSharedData } from '../databases.ts';
import type { TestDatabase } from '../databases.ts';
import { SNAPSHOT_AS_OF, SNAPSHOT_FILE, SNAPSHOT_NAME } from './snapshot.ts';

export { SNAPSHOT_AS_OF, SNAPSHOT_FILE, SNAPSHOT_NAME };

/** A service context whose as-of date is `asOf`. */
export function drawsContext(db: Db, asOf: string = SNAPSHOT_AS_OF): ServiceContext {
  return testContext(drawsService, db, { env: { ...process.env, [AS_OF_VARIABLE]: asOf } });
}

export async function importSnapshot(ctx: ServiceContext): Promise<ImportReport> {
  return importRounds(ctx, SNAPSHOT_FILE);
}

/** describeEachDatabase with Service D's migrations, for suites that need the real snapshot. */
export function describeWithSnapshot(title: string, body: (t: TestDatabase) => void): void {
  const gate = needsSharedData('draws', SNAPSHOT_NAME);
  if (gate.skip) {
    describe(title, { skip: gate.skip }, () => {});
    return;
  }
  describeEachDatabase(
    title,
    (t) => {
      before(() => {
        if (gate.problem) throw new Error(`required in CI: ${gate.problem}`);
      });
      body(t);
    },
    { migrations: drawsService.migrations },
  );
}
