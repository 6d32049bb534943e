// `pdi import krt <file> --kind registry` (and `pdi sync krt`): a public registry's dump into
// krt_registry_entries/krt_registry_keys, with the guards of every import (core/import.ts): one transaction, rows
// that cannot be read counted (more than 5% refuses the import), a file cut inside its last entry refused, more than
// 10% of the registry's stored entries deleted refused, and a second import of the same file changing nothing.
// The kind of file is told by its content: Cellosaurus' flat file (cellosaurus.ts) or the Antibody Registry's CSV
// export (antibody-registry.ts). Each registry is its own dataset: importing one never touches the other's entries
// or the store's articles. Its release and size are stored as the aggregate `registry:<name>` (registry-knowledge.ts).
import fs from 'node:fs';
import type { Kysely } from 'kysely';
import { putAggregate } from '../../../core/db/datasets.ts';
import { dbJson, insertMany } from '../../../core/db/dialect.ts';
import { importGuard, runImport } from '../../../core/import.ts';
import type { ImportReport, ImportTally } from '../../../core/import.ts';
import type { ServiceContext } from '../../../core/service.ts';
import type { KrtDatabase, KrtTables } from '../tables.ts';
import { readAntibodyRegistry } from './antibody-registry.ts';
import { looksLikeCellosaurus, openCellosaurus } from './cellosaurus.ts';
import { REGISTRY_INFO, contentHash, keysOf, registryAggregate } from './records.ts';
import type { RegistryName, RegistryRecord, RegistryRelease } from './records.ts';

const BATCH = 1000;

interface Item {
  line: number;
  record: RegistryRecord | null;
  problem: string | null;
}

/** Which registry's dump a file is, from its first bytes; an Error naming what it expected otherwise. */
export function registryKindOf(file: string): RegistryName {
  const fd = fs.openSync(file, 'r');
  let head: string;
  try {
    const buffer = Buffer.alloc(256 * 1024);
    head = buffer.subarray(0, fs.readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
  if (looksLikeCellosaurus(head)) return 'cellosaurus';
  const firstLine = head.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  if (/,/.test(firstLine) && /(ab_?id|antibodyregistry_id|rrid|proper_citation)/i.test(firstLine)) return 'antibody-registry';
  throw new Error(
    `${file}: neither Cellosaurus' flat file (cellosaurus.txt: entries "ID   <name>" / "AC   CVCL_xxxx" ended by "//") ` +
      "nor the Antibody Registry's CSV export (a header naming abId/ab_id/antibodyregistry_id or rrid, and name or catalogNum)",
  );
}

export async function importRegistry(ctx: ServiceContext, file: string, options: Record<string, unknown> = {}): Promise<ImportReport[]> {
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new Error(`${file}: no such file (a registry dump is one file)`);
  const registry = registryKindOf(file);
  const fileDate = fs.statSync(file).mtime.toISOString().slice(0, 10);
  let release: string;
  let lastUpdate: string | null = null;
  let batches: AsyncGenerator<Item[], void, undefined>;
  if (registry === 'cellosaurus') {
    const opened = await openCellosaurus(file);
    release = opened.release ?? `file of ${fileDate}`;
    lastUpdate = opened.lastUpdate;
    batches = inBatches(opened.items);
  } else {
    release = `export of ${fileDate}`;
    batches = readAntibodyRegistry(file, BATCH);
  }
  const report = await runImport(
    ctx.db,
    { service: 'krt', importer: 'registry', dataset: registry, source: file, guard: importGuard(options, ctx.config.env) },
    async (core, { tally, dataVersion }) => {
      const db = core.withTables<KrtTables>();
      if (registry === 'cellosaurus' && release.startsWith('file of'))
        tally.warn(`${file}: the header names no release (" Version: …"); the file's date is stored instead`);
      const storedBefore = await countEntries(db, registry);
      tally.storedBefore(storedBefore);
      const seen = new Set<string>();
      for await (const batch of batches) await storeBatch(db, registry, release, batch, seen, tally);
      tally.deleted(await deleteUnseen(db, registry, seen));
      // A new release that changes no entry still says which release the entries are from.
      await db
        .updateTable('krt_registry_entries')
        .set({ release })
        .where('registry', '=', registry)
        .where('release', '<>', release)
        .execute();
      const value: RegistryRelease = {
        registry,
        title: REGISTRY_INFO[registry].title,
        release,
        last_update: lastUpdate,
        entries: seen.size,
        source: file,
        imported_at: new Date().toISOString(),
      };
      await putAggregate(db, 'krt', registryAggregate(registry), dataVersion, value);
    },
  );
  ctx.dataVersion.invalidate();
  return [report];
}

async function* inBatches(items: AsyncGenerator<Item, void, undefined>): AsyncGenerator<Item[], void, undefined> {
  let batch: Item[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

async function countEntries(db: Kysely<KrtDatabase>, registry: RegistryName): Promise<number> {
  const row = await db
    .selectFrom('krt_registry_entries')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('registry', '=', registry)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function storeBatch(
  db: Kysely<KrtDatabase>,
  registry: RegistryName,
  release: string,
  batch: readonly Item[],
  seen: Set<string>,
  tally: ImportTally,
): Promise<void> {
  const records: RegistryRecord[] = [];
  for (const item of batch) {
    tally.read();
    if (!item.record) {
      tally.skip(item.problem ?? 'unreadable entry');
      continue;
    }
    if (seen.has(item.record.identifier)) {
      tally.exclude('identifier listed again (the first entry is kept)');
      continue;
    }
    seen.add(item.record.identifier);
    records.push(item.record);
  }
  if (records.length === 0) return;
  const stored = new Map(
    (
      await db
        .selectFrom('krt_registry_entries')
        .select(['identifier', 'registry', 'content_hash'])
        .where(
          'identifier',
          'in',
          records.map((r) => r.identifier),
        )
        .execute()
    ).map((r) => [r.identifier, r]),
  );
  const changed: { record: RegistryRecord; hash: string }[] = [];
  for (const record of records) {
    const hash = contentHash(record);
    const before = stored.get(record.identifier);
    if (!before) tally.inserted();
    else if (before.content_hash === hash && before.registry === registry) tally.unchanged();
    else tally.updated();
    if (!before || before.content_hash !== hash || before.registry !== registry) changed.push({ record, hash });
  }
  if (changed.length === 0) return;
  const ids = changed.map((c) => c.record.identifier);
  await db.deleteFrom('krt_registry_keys').where('identifier', 'in', ids).execute();
  await insertMany(
    db,
    'krt_registry_entries',
    changed.map(({ record, hash }) => ({
      identifier: record.identifier,
      registry: record.registry,
      resource_type: REGISTRY_INFO[record.registry].resourceType,
      name: record.name,
      synonyms: dbJson(db, record.synonyms),
      vendor: record.vendor,
      catalog: record.catalog,
      species: record.species,
      release,
      detail: dbJson(db, record.detail),
      content_hash: hash,
    })),
    {
      columns: ['identifier'],
      update: ['registry', 'resource_type', 'name', 'synonyms', 'vendor', 'catalog', 'species', 'release', 'detail', 'content_hash'],
    },
  );
  await insertMany(
    db,
    'krt_registry_keys',
    changed.flatMap(({ record }) => keysOf(record).map((k) => ({ kind: k.kind, key: k.key, identifier: record.identifier }))),
    { columns: ['kind', 'key', 'identifier'], update: [] },
  );
}

/** Removes the registry's entries the file no longer lists; how many. */
async function deleteUnseen(db: Kysely<KrtDatabase>, registry: RegistryName, seen: ReadonlySet<string>): Promise<number> {
  const stored = await db.selectFrom('krt_registry_entries').select('identifier').where('registry', '=', registry).execute();
  const gone = stored.map((r) => r.identifier).filter((id) => !seen.has(id));
  for (let i = 0; i < gone.length; i += 500) {
    const chunk = gone.slice(i, i + 500);
    await db.deleteFrom('krt_registry_keys').where('identifier', 'in', chunk).execute();
    await db.deleteFrom('krt_registry_entries').where('identifier', 'in', chunk).execute();
  }
  return gone.length;
}
