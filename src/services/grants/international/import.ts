// `pdi import grants <file> --kind international`: the Project Browser CSV (format.ts) into the projects and their
// allocations, in one transaction with the usual guards: a deletion of more than a tenth of the stored projects
// or more than 5% of unreadable rows is refused (runImport), a file cut inside its last record is refused (openCsv),
// an empty file is refused, a project whose row cannot be read keeps its stored copy, and a secondary field that
// cannot be read is stored as null for a new project and left as stored for a known one. The statistics are
// recomputed in the same transaction. Importing this file never touches the grants agreements.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { openCsv } from '../../../core/csv-rows.ts';
import { putAggregate } from '../../../core/db/datasets.ts';
import { dbBool } from '../../../core/db/dialect.ts';
import { runImport } from '../../../core/import.ts';
import type { ImportGuard, ImportReport, ImportTally } from '../../../core/import.ts';
import type { Db } from '../../../core/db/database.ts';
import type { ServiceContext } from '../../../core/service.ts';
import { INTERNATIONAL_FILE } from './generate.ts';
import { allocateCents, parseProjectRow, resolveProjectColumns, PROJECT_COLUMNS } from './format.ts';
import type { Allocation, ProjectRecord, UnreadableField } from './format.ts';
import { computeInternationalStats, INTERNATIONAL_STATS } from './stats.ts';
import type { GrantsDatabase, GrantsTables } from '../tables.ts';

export const INTERNATIONAL_DATASET = 'international';
const DUPLICATE = 'duplicate projectNumber (first kept)';

type Trx = Kysely<GrantsDatabase>;

interface Stored {
  id: number;
  content_hash: string;
  is_demo: boolean;
  date_modified: string | null;
  end_date: string | null;
  disbursements_cents: number | null;
}

/** What is stored of a project, hashed: an import that changes nothing counts it unchanged. */
function contentHash(record: ProjectRecord): string {
  return createHash('sha256').update(JSON.stringify(record)).digest('hex');
}

function allocationRows(projectId: number, kind: 'country' | 'sector', list: Allocation[], record: ProjectRecord) {
  return list.map((a) => ({
    project_id: projectId,
    kind,
    code: a.code,
    name_en: a.name_en,
    name_fr: a.name_fr,
    share_hundredths: a.share_hundredths,
    contribution_cents: allocateCents(record.maximum_contribution_cents, a.share_hundredths),
    disbursements_cents: record.disbursements_cents === null ? null : allocateCents(record.disbursements_cents, a.share_hundredths),
  }));
}

/** A known project's allocations as stored (to keep them when the file's cannot be read). */
async function storedAllocations(trx: Trx, projectId: number, kind: 'country' | 'sector'): Promise<Allocation[]> {
  const rows = await trx
    .selectFrom('grants_international_allocations')
    .select(['code', 'name_en', 'name_fr', 'share_hundredths'])
    .where('project_id', '=', projectId)
    .where('kind', '=', kind)
    .orderBy('code')
    .execute();
  return rows.map((r) => ({ ...r, share_hundredths: Number(r.share_hundredths) }));
}

/** The record to store: a field the row could not read keeps a known project's stored value. */
async function withKeptValues(
  trx: Trx,
  record: ProjectRecord,
  unreadable: UnreadableField[],
  stored: Stored | undefined,
): Promise<ProjectRecord> {
  if (!stored || unreadable.length === 0) return record;
  const kept = { ...record };
  for (const field of unreadable) {
    if (field === 'end') kept.end_date = stored.end_date;
    else if (field === 'dateModified') kept.date_modified = stored.date_modified;
    else if (field === 'disbursements') kept.disbursements_cents = stored.disbursements_cents;
    else if (field === 'countries') kept.countries = await storedAllocations(trx, stored.id, 'country');
    else kept.sectors = await storedAllocations(trx, stored.id, 'sector');
  }
  return kept;
}

async function writeProject(
  trx: Trx,
  record: ProjectRecord,
  stored: Stored | undefined,
  isDemo: boolean,
  dataVersion: string,
  tally: ImportTally,
): Promise<void> {
  const hash = contentHash(record);
  if (stored && stored.content_hash === hash && stored.is_demo === isDemo) {
    await trx.updateTable('grants_international_projects').set({ import_version: dataVersion }).where('id', '=', stored.id).execute();
    tally.unchanged();
    return;
  }
  const { countries, sectors, ...columns } = record;
  const row = { ...columns, is_demo: dbBool(trx, isDemo), content_hash: hash, import_version: dataVersion };
  let id: number;
  if (stored) {
    await trx.updateTable('grants_international_projects').set(row).where('id', '=', stored.id).execute();
    await trx.deleteFrom('grants_international_allocations').where('project_id', '=', stored.id).execute();
    id = stored.id;
    tally.updated();
  } else {
    const inserted = await trx.insertInto('grants_international_projects').values(row).returning('id').executeTakeFirstOrThrow();
    id = Number(inserted.id);
    tally.inserted();
  }
  const allocations = [...allocationRows(id, 'country', countries, record), ...allocationRows(id, 'sector', sectors, record)];
  if (allocations.length) await trx.insertInto('grants_international_allocations').values(allocations).execute();
}

export interface InternationalImportOptions {
  isDemo?: boolean;
  guard?: ImportGuard;
  progress?: boolean;
}

export async function importInternationalCsv(db: Db, file: string, options: InternationalImportOptions = {}): Promise<ImportReport> {
  const { header } = await openCsv(file, 1);
  const columns = resolveProjectColumns(header);
  if (columns.missing.length) {
    throw new Error(
      `${file}: not a Project Browser CSV: no ${columns.missing.map((f) => PROJECT_COLUMNS[f]).join(', ')} column (the header names the columns)`,
    );
  }
  const isDemo = (options.isDemo ?? false) || columns.generated;
  return runImport(
    db,
    {
      service: 'grants',
      importer: 'international',
      dataset: INTERNATIONAL_DATASET,
      source: file,
      isDemo,
      guard: options.guard,
      progress: { unit: 'rows', enabled: options.progress ?? false },
    },
    async (coreTrx, { tally, dataVersion }) => {
      const trx = coreTrx.withTables<GrantsTables>();
      const existing = await trx
        .selectFrom('grants_international_projects')
        .select(['id', 'project_number', 'content_hash', 'is_demo', 'date_modified', 'end_date', 'disbursements_cents'])
        .execute();
      const stored = new Map<string, Stored>();
      let demoRows = 0;
      for (const r of existing) {
        if (!isDemo && Boolean(r.is_demo)) {
          demoRows++;
          continue;
        }
        stored.set(r.project_number, {
          id: Number(r.id),
          content_hash: r.content_hash,
          is_demo: Boolean(r.is_demo),
          date_modified: r.date_modified,
          end_date: r.end_date,
          disbursements_cents: r.disbursements_cents === null ? null : Number(r.disbursements_cents),
        });
      }
      if (demoRows > 0) {
        // real data replaces the generated projects (reported apart; the shrink guard does not count them)
        const demoIds = trx.selectFrom('grants_international_projects').select('id').where('is_demo', '=', dbBool(trx, true));
        await trx.deleteFrom('grants_international_allocations').where('project_id', 'in', demoIds).execute();
        await trx.deleteFrom('grants_international_projects').where('is_demo', '=', dbBool(trx, true)).execute();
        tally.demoRemoved(demoRows);
      }
      tally.storedBefore(stored.size);

      const seen = new Set<string>();
      const unreadRows = new Set<string>();
      const { batches } = await openCsv(file, 500);
      for await (const batch of batches) {
        for (const row of batch) {
          tally.read();
          const parsed = parseProjectRow(row.cells, columns.index);
          if (!parsed.ok) {
            tally.skip(parsed.reason);
            // a project the file names but whose row cannot be read stays as stored
            if (parsed.projectNumber) unreadRows.add(parsed.projectNumber);
            continue;
          }
          const number = parsed.record.project_number;
          if (seen.has(number)) {
            tally.exclude(DUPLICATE);
            continue;
          }
          seen.add(number);
          const known = stored.get(number);
          for (const { field, raw } of parsed.unreadable) {
            tally.warn(
              `line ${row.line}, project ${number}: ${PROJECT_COLUMNS[field]} "${raw}" cannot be read; ` +
                (known ? 'the stored value is kept' : 'stored as null (or without those entries)'),
            );
          }
          const record = await withKeptValues(
            trx,
            parsed.record,
            parsed.unreadable.map((u) => u.field),
            known,
          );
          await writeProject(trx, record, known, isDemo, dataVersion, tally);
        }
      }
      if (tally.rowsRead === 0) throw new Error(`${file}: no projects (an empty file would delete every stored project)`);
      const gone = [...stored.entries()].filter(([number]) => !seen.has(number) && !unreadRows.has(number)).map(([, s]) => s.id);
      for (let i = 0; i < gone.length; i += 500) {
        const ids = gone.slice(i, i + 500);
        await trx.deleteFrom('grants_international_allocations').where('project_id', 'in', ids).execute();
        await trx.deleteFrom('grants_international_projects').where('id', 'in', ids).execute();
      }
      tally.deleted(gone.length);
      const kept = [...unreadRows].filter((n) => !seen.has(n) && stored.has(n)).length;
      if (kept > 0) tally.warn(`${kept} project(s) whose row could not be read keep their stored copy`);
      await putAggregate(trx, 'grants', INTERNATIONAL_STATS, dataVersion, await computeInternationalStats(trx));
    },
  );
}

/** `pdi import grants <path> --kind international`: a file, or a directory holding international-projects.csv. */
export async function importInternationalPath(
  ctx: ServiceContext,
  source: string,
  options: InternationalImportOptions,
): Promise<ImportReport> {
  const file = fs.statSync(source).isDirectory() ? path.join(source, INTERNATIONAL_FILE) : source;
  const report = await importInternationalCsv(ctx.db, file, options);
  ctx.dataVersion.invalidate();
  return report;
}
