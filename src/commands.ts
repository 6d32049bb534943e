// What each command of the command line does (cli.ts parses the arguments and loads this module only when a command
// runs, so that `serve`'s primary process loads no service code).
import path from 'node:path';
import { COMMAND_SQLITE_CACHE_BYTES, loadConfig } from './core/config.ts';
import type { Config } from './core/config.ts';
import { collectStartupGarbage, holdTickObject, serverStarting } from './core/gc.ts';
import { openRuntime } from './core/runtime.ts';
import type { Runtime } from './core/runtime.ts';
import { buildServiceApp } from './core/http/service-app.ts';
import { closeListeners, stopOnSignals } from './core/http/lifecycle.ts';
import type { WorkerRole } from './core/cluster.ts';
import { joinCluster, stopWhenAsked } from './core/cluster-worker.ts';
import { formatImportReport } from './core/import.ts';
import { listenQuietly, readyLine } from './core/log.ts';
import type { ServiceApp, ServiceModule } from './core/service.ts';
import { listDataVersions } from './core/db/datasets.ts';
import { SERVICES, findService } from './services/registry.ts';
import { SYNC_SOURCES, syncSourceOf } from './services/sync-sources.ts';
import { formatSyncReport, isSuccess, runSync } from './core/sync/run.ts';
import { startSyncSchedules } from './core/sync/scheduler.ts';
import { fetchArticles } from './services/krt/sync.ts';

async function withRuntime<T>(work: (runtime: Runtime) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const sqliteCacheBytes = process.env.PDI_SQLITE_CACHE_BYTES ? config.sqliteCacheBytes : COMMAND_SQLITE_CACHE_BYTES;
  const runtime = await openRuntime({ ...config, sqliteCacheBytes }, SERVICES); // migrate every service: one schema
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}

/**
 * `serve` in a process that serves (a worker, or the one process of `--workers 0`), or in the prepare worker, which
 * migrates and loads demo data and ends. `config` carries the ports and host the command line chose.
 */
export async function serve(options: {
  names: readonly string[];
  config: Config;
  host: string | undefined;
  demo: boolean;
  syncEveryMs: number | null;
  role: WorkerRole | null;
}): Promise<void> {
  const { config, role } = options;
  await holdTickObject();
  serverStarting();
  const services = options.names.length === 0 ? [...SERVICES] : options.names.map(findService);
  const runtime = await openRuntime(config, SERVICES);
  // Migrations (openRuntime) and demo data once, before any worker serves: a worker finds them done.
  if (role !== 'sync' && role !== 'serve' && options.demo) {
    for (const service of services) {
      const ctx = runtime.contexts.get(service.name)!;
      if ((await listDataVersions(runtime.db.kysely, service.name)).length > 0) continue;
      runtime.log.info({ service: service.name }, 'no data yet: loading generated demo data');
      for (const report of await service.loadDemo(ctx, {})) runtime.log.info(formatImportReport(report));
      ctx.dataVersion.invalidate();
    }
  }
  if (role === 'prepare') {
    await runtime.close();
    process.exit(0);
  }
  joinCluster(runtime.contexts);
  const apps: ServiceApp[] = [];
  let syncs: { stop(): Promise<void> } | null = null;
  // SIGTERM/SIGINT (in a worker: the primary's request): stop accepting, let requests in flight finish within
  // PDI_SHUTDOWN_GRACE_MS, then close the rest; the database and Redis close after the last answer (and after a
  // scheduled import in progress).
  const stop = async () => {
    await Promise.all([closeListeners(apps, config.http.shutdownGraceMs, runtime.log), syncs?.stop()]);
    await runtime.close();
  };
  if (role !== null) stopWhenAsked(stop, runtime.log);
  else stopOnSignals(stop, runtime.log);
  for (const service of services) {
    const app = await buildServiceApp(service, runtime.contexts.get(service.name)!);
    const address = await listenQuietly(app, { port: config.ports[service.name], host: options.host ?? config.host });
    const where = { service: service.name, address, docs: `${address}/docs` };
    runtime.log.debug(where, `${service.title} listening on ${address}`);
    // Every worker listens on the same port: one of them (the one process, or the sync worker) says it is ready.
    if (role === null || role === 'sync') runtime.log.info(where, readyLine(service.name, address));
    apps.push(app);
  }
  collectStartupGarbage();
  if (options.syncEveryMs !== null && (role === null || role === 'sync')) {
    syncs = startSyncSchedules(
      services.map((service) => ({ ctx: runtime.contexts.get(service.name)!, service, definition: SYNC_SOURCES[service.name] })),
      { everyMs: options.syncEveryMs },
    );
  }
}

export async function importData(
  name: string,
  source: string,
  opts: { kind?: string; allowShrink?: boolean; allowSkips?: boolean },
): Promise<void> {
  const service = findService(name);
  const kinds = Object.keys(service.importers);
  const kind = opts.kind ?? kinds[0];
  const importer = service.importers[kind];
  if (!importer) throw new Error(`unknown importer "${kind}" for ${service.name}; available: ${kinds.join(', ')}`);
  await withRuntime(async (runtime) => {
    const options = { allowShrink: opts.allowShrink === true, allowSkips: opts.allowSkips === true };
    const reports = await importer.run(
      runtime.contexts.get(service.name)!,
      /^https?:/.test(source) ? source : path.resolve(source),
      options,
    );
    for (const report of reports) {
      console.log(formatImportReport(report));
      for (const warning of report.warning_samples) console.log(`  warning: ${warning}`);
      if (report.warnings > report.warning_samples.length)
        console.log(`  … and ${report.warnings - report.warning_samples.length} more warnings`);
    }
  });
}

export async function sync(
  name: string,
  opts: { source?: string; force?: boolean; deadlineMs?: number; allowShrink?: boolean; allowSkips?: boolean },
): Promise<void> {
  const service = findService(name);
  const definition = syncSourceOf(service.name);
  await withRuntime(async (runtime) => {
    const report = await runSync(runtime.contexts.get(service.name)!, service, definition, {
      source: opts.source,
      force: opts.force === true,
      deadlineMs: opts.deadlineMs,
      allowShrink: opts.allowShrink === true,
      allowSkips: opts.allowSkips === true,
      quiet: true,
      onRetry: (r) => console.log(`${service.name}/${r.file}: ${r.reason}; retrying in ${(r.delayMs / 1000).toFixed(1)} s`),
    });
    for (const line of formatSyncReport(report)) console.log(line);
    for (const r of report.files.flatMap((f) => f.reports)) console.log(`  ${formatImportReport(r)}`);
    if (!isSuccess(report.result)) process.exitCode = 1;
  });
}

export async function fetch(name: string, dois: string[], opts: { allowShrink?: boolean; allowSkips?: boolean }): Promise<void> {
  const service = findService(name);
  if (service.name !== 'krt')
    throw new Error(`fetch is for krt (papers by DOI); to refresh ${service.name}, run: pdi sync ${service.name}`);
  await withRuntime(async (runtime) => {
    const run = await fetchArticles(runtime.contexts.get('krt')!, service.importers.store.run, dois, {
      allowShrink: opts.allowShrink === true,
      allowSkips: opts.allowSkips === true,
    });
    for (const p of run.papers)
      console.log(`${p.doi}: ${p.source} ${p.url} (${p.bytes} bytes): ${p.total_resources ?? 0} resources, session ${p.session_id ?? '—'}`);
    for (const e of run.errors) console.error(`${e.doi}: ${e.error}`);
    if (run.report) console.log(formatImportReport(run.report));
    if (run.errors.length > 0) process.exitCode = 1;
  });
}

export async function generate(name: string, opts: { size?: number; seed?: number; out?: string; import?: boolean }): Promise<void> {
  const service = findService(name);
  const out = path.resolve(opts.out ?? path.join(loadConfig().dataDir, 'generated', service.name));
  const files = await service.generate({ out, size: opts.size, seed: opts.seed });
  for (const file of files) console.log(`wrote ${file}`);
  if (opts.import) {
    await withRuntime(async (runtime) => {
      const ctx = runtime.contexts.get(service.name)!;
      const importer = Object.values(service.importers)[0];
      for (const report of await importer.run(ctx, out, { generated: true })) console.log(formatImportReport(report));
    });
  }
}

export async function extract(dois: string[], opts: { all?: boolean; workers?: number }): Promise<void> {
  const service: ServiceModule = findService('krt');
  if (!service.extract) throw new Error('this build has no extractor');
  await withRuntime(async (runtime) => {
    console.log(JSON.stringify(await service.extract!(runtime.contexts.get('krt')!, dois, opts), null, 2));
  });
}

export async function fit(name: string, opts: Record<string, unknown>): Promise<void> {
  const service = findService(name);
  if (!service.fit) throw new Error(`${service.name} has no models to fit`);
  await withRuntime(async (runtime) => {
    const result = await service.fit!(runtime.contexts.get(service.name)!, opts);
    console.log(typeof result === 'string' ? result : JSON.stringify(result, null, 2));
  });
}

export async function migrate(): Promise<void> {
  await withRuntime(async (runtime) => {
    console.log(`schema up to date on ${runtime.db.description}`);
  });
}
