// Data versions and precomputed aggregates, shared by every service.
import { randomBytes } from 'node:crypto';
import { coreTables } from './tables.ts';
import type { AnyDatabase } from './tables.ts';
import { dbBool, dbJson, readJson } from './dialect.ts';

export interface DataVersion {
  service: string;
  dataset: string;
  version: string;
  source: string | null;
  is_demo: boolean;
  imported_at: string;
}

export function newDataVersion(now = new Date()): string {
  return `${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${randomBytes(4).toString('hex')}`;
}

export async function recordDataVersion(
  database: AnyDatabase,
  entry: { service: string; dataset: string; version: string; source: string | null; isDemo: boolean; report: unknown },
): Promise<void> {
  const db = coreTables(database);
  const row = {
    service: entry.service,
    dataset: entry.dataset,
    version: entry.version,
    source: entry.source,
    is_demo: dbBool(db, entry.isDemo),
    imported_at: new Date().toISOString(),
    report: dbJson(db, entry.report),
  };
  await db
    .insertInto('data_versions')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['service', 'dataset'])
        .doUpdateSet({ version: row.version, source: row.source, is_demo: row.is_demo, imported_at: row.imported_at, report: row.report }),
    )
    .execute();
}

export async function listDataVersions(database: AnyDatabase, service: string): Promise<DataVersion[]> {
  const db = coreTables(database);
  const rows = await db.selectFrom('data_versions').selectAll().where('service', '=', service).orderBy('dataset').execute();
  return rows.map((r) => ({
    service: r.service,
    dataset: r.dataset,
    version: r.version,
    source: r.source,
    is_demo: Boolean(r.is_demo),
    imported_at: r.imported_at,
  }));
}

/** One string that changes whenever any dataset of the service changes; null when it has no data. */
export async function serviceDataVersion(database: AnyDatabase, service: string): Promise<string | null> {
  const db = coreTables(database);
  const rows = await listDataVersions(db, service);
  if (rows.length === 0) return null;
  return rows.map((r) => `${r.dataset}:${r.version}`).join('|');
}

export async function putAggregate(
  database: AnyDatabase,
  service: string,
  name: string,
  dataVersion: string,
  value: unknown,
): Promise<void> {
  const db = coreTables(database);
  const row = { service, name, data_version: dataVersion, computed_at: new Date().toISOString(), value: dbJson(db, value) };
  await db
    .insertInto('aggregates')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['service', 'name']).doUpdateSet({ data_version: row.data_version, computed_at: row.computed_at, value: row.value }),
    )
    .execute();
}

export interface StoredAggregate<T> {
  value: T;
  data_version: string;
  computed_at: string;
}

export async function getAggregate<T>(database: AnyDatabase, service: string, name: string): Promise<StoredAggregate<T> | null> {
  const db = coreTables(database);
  const row = await db.selectFrom('aggregates').selectAll().where('service', '=', service).where('name', '=', name).executeTakeFirst();
  if (!row) return null;
  return { value: readJson<T>(row.value), data_version: row.data_version, computed_at: row.computed_at };
}
