// Prints Service E's OpenAPI document (built on an empty SQLite database), to compare the document before and
// after a change: `node test/support/retraction/openapi-document.ts > before.json`, change, again, `cmp`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../../src/core/db/database.ts';
import { migrateToLatest } from '../../../src/core/db/migrations.ts';
import { buildTestApp } from '../app.ts';
import { retractionService } from '../../../src/services/retraction/service.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-openapi-'));
const db = openDatabase(`sqlite:${path.join(dir, 'openapi.sqlite')}`);
try {
  await migrateToLatest(db.kysely, retractionService.migrations);
  const app = await buildTestApp(retractionService, db);
  process.stdout.write(JSON.stringify((await app.inject({ url: '/openapi.json' })).json(), null, 2) + '\n');
  await app.close();
} finally {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
