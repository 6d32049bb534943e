#!/usr/bin/env node
// Command line: serve | import | sync | fetch | generate | extract | fit | migrate.
import path from 'node:path';
import { Command, Option } from 'commander';
import { createLogger } from './core/log.ts';
import { COMMAND_SQLITE_CACHE_BYTES, loadConfig, parsePort } from './core/config.ts';
import type { ServiceName } from './core/config.ts';
import { collectStartupGarbage, openRuntime } from './core/runtime.ts';
import type { Runtime } from './core/runtime.ts';
import { buildServiceApp } from './core/http/service-app.ts';
import { closeListeners, stopOnSignals } from './core/http/lifecycle.ts';
import { joinCluster, runPrimary, stopWhenAsked, workerCount, workerRole } from './core/cluster.ts';
import { formatImportReport } from './core/import.ts';
import type { ServiceApp, ServiceModule } from './core/service.ts';
import { listDataVersions } from './core/db/datasets.ts';
import { SERVICES, findService } from './services/registry.ts';
import { SYNC_SOURCES, syncSourceOf } from './services/sync-sources.ts';
import { parseDuration } from './core/sync/duration.ts';
import { formatSyncReport, isSuccess, runSync } from './core/sync/run.ts';
import { startSyncSchedules } from './core/sync/scheduler.ts';
import { fetchArticles } from './services/krt/sync.ts';

const program = new Command().name('pdi').description('Public Data Interfaces: five public data services');

function pickServices(names: string[]): ServiceModule[] {
  return names.length === 0 ? [...SERVICES] : names.map(findService);
}

async function withRuntime<T>(services: ServiceModule[], work: (runtime: Runtime) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const sqliteCacheBytes = process.env.PDI_SQLITE_CACHE_BYTES ? config.sqliteCacheBytes : COMMAND_SQLITE_CACHE_BYTES;
  const runtime = await openRuntime({ ...config, sqliteCacheBytes }, SERVICES); // migrate every service: one schema
  void services;
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}

program
  .command('serve')
  .description('serve the named services (all by default), each on its own port; fills empty services with demo data first')
  .argument('[services...]', `any of: ${SERVICES.map((s) => s.name).join(', ')}`)
  .option('--port <service=port...>', 'override a port, e.g. --port oral=9001', [])
  .option('--host <host>', 'address to listen on (default PDI_HOST or 127.0.0.1)')
  .option('--no-demo', 'do not load demo data into services that have no data')
  .option(
    '--sync-every <duration>',
    'sync each served service from its official source on this schedule, e.g. 6h (default PDI_SYNC_EVERY; off)',
  )
  .option(
    '--workers <n>',
    'processes serving every service on the shared ports (default PDI_WORKERS, else one per core); 1 serves in this process',
  )
  .action(async (names: string[], opts: { port: string[]; host?: string; demo: boolean; syncEvery?: string; workers?: string }) => {
    const config = loadConfig();
    const syncEvery = opts.syncEvery ?? (config.env.PDI_SYNC_EVERY?.trim() || undefined);
    const syncEveryMs = syncEvery ? parseDuration(syncEvery, opts.syncEvery ? '--sync-every' : 'PDI_SYNC_EVERY') : null;
    const services = pickServices(names);
    for (const spec of opts.port) {
      const [name, port] = spec.split('=');
      if (port === undefined) throw new Error(`--port takes service=port (e.g. --port oral=9001), got "${spec}"`);
      config.ports[findService(name).name as ServiceName] = parsePort(port, `--port ${spec}`);
    }
    const role = workerRole();
    const workers = role === null ? workerCount(opts.workers ?? config.env.PDI_WORKERS) : 1;
    if (workers > 1) {
      collectStartupGarbage(); // the primary serves nothing: what loading the modules left is garbage
      runPrimary({
        workers,
        log: createLogger(config.logLevel),
        stopTimeoutMs: config.http.shutdownGraceMs + 15_000,
      });
      return;
    }
    const runtime = await openRuntime(config, SERVICES);
    // Migrations (openRuntime) and demo data once, before any worker serves: a worker finds them done.
    if (role !== 'sync' && role !== 'serve' && opts.demo) {
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
      const address = await app.listen({ port: config.ports[service.name], host: opts.host ?? config.host });
      runtime.log.info({ service: service.name, address, docs: `${address}/docs` }, `${service.title} listening`);
      apps.push(app);
    }
    collectStartupGarbage();
    if (syncEveryMs !== null && (role === null || role === 'sync')) {
      syncs = startSyncSchedules(
        services.map((service) => ({ ctx: runtime.contexts.get(service.name)!, service, definition: SYNC_SOURCES[service.name] })),
        { everyMs: syncEveryMs },
      );
    }
  });

program
  .command('import')
  .description('import real data into a service (atomic: a failure leaves the old data)')
  .argument('<service>')
  .argument('<path>', 'file or directory (or URL where the importer accepts one)')
  .option('--kind <kind>', 'which importer, when a service has several')
  .option('--allow-shrink', 'accept an import that deletes more than PDI_IMPORT_MAX_SHRINK (10%) of the stored records')
  .option('--allow-skips', 'accept an import that cannot read more than PDI_IMPORT_MAX_UNREADABLE (5%) of its rows')
  .action(async (name: string, source: string, opts: { kind?: string; allowShrink?: boolean; allowSkips?: boolean }) => {
    const service = findService(name);
    const kinds = Object.keys(service.importers);
    const kind = opts.kind ?? kinds[0];
    const importer = service.importers[kind];
    if (!importer) throw new Error(`unknown importer "${kind}" for ${service.name}; available: ${kinds.join(', ')}`);
    await withRuntime([service], async (runtime) => {
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
  });

program
  .command('sync')
  .description("download a service's official source and import it if it changed (the same importer and guards as import)")
  .argument('<service>', `any of: ${Object.keys(SYNC_SOURCES).join(', ')}`)
  .option('--source <url>', 'fetch from this address instead of PDI_SYNC_URL_<SERVICE> or the official one')
  .option('--force', 'download and import even when the source says nothing changed')
  .option('--allow-shrink', 'accept an import that deletes more than PDI_IMPORT_MAX_SHRINK (10%) of the stored records')
  .option('--allow-skips', 'accept an import that cannot read more than PDI_IMPORT_MAX_UNREADABLE (5%) of its rows')
  .action(async (name: string, opts: { source?: string; force?: boolean; allowShrink?: boolean; allowSkips?: boolean }) => {
    const service = findService(name);
    const definition = syncSourceOf(service.name);
    await withRuntime([service], async (runtime) => {
      const report = await runSync(runtime.contexts.get(service.name)!, service, definition, {
        source: opts.source,
        force: opts.force === true,
        allowShrink: opts.allowShrink === true,
        allowSkips: opts.allowSkips === true,
        quiet: true,
        onRetry: (r) => console.log(`${service.name}/${r.file}: ${r.reason}; retrying in ${(r.delayMs / 1000).toFixed(1)} s`),
      });
      for (const line of formatSyncReport(report)) console.log(line);
      for (const r of report.files.flatMap((f) => f.reports)) console.log(`  ${formatImportReport(r)}`);
      if (!isSuccess(report.result)) process.exitCode = 1;
    });
  });

program
  .command('fetch')
  .description('krt: fetch papers by DOI from bioRxiv/medRxiv or Europe PMC, store them and extract their tables')
  .argument('<service>', 'krt')
  .argument('<dois...>')
  .option('--allow-shrink', 'accept an import that deletes more than PDI_IMPORT_MAX_SHRINK (10%) of the stored records')
  .option('--allow-skips', 'accept an import that cannot read more than PDI_IMPORT_MAX_UNREADABLE (5%) of its rows')
  .action(async (name: string, dois: string[], opts: { allowShrink?: boolean; allowSkips?: boolean }) => {
    const service = findService(name);
    if (service.name !== 'krt')
      throw new Error(`fetch is for krt (papers by DOI); to refresh ${service.name}, run: pdi sync ${service.name}`);
    await withRuntime([service], async (runtime) => {
      const run = await fetchArticles(runtime.contexts.get('krt')!, service.importers.store.run, dois, {
        allowShrink: opts.allowShrink === true,
        allowSkips: opts.allowSkips === true,
      });
      for (const p of run.papers)
        console.log(
          `${p.doi}: ${p.source} ${p.url} (${p.bytes} bytes): ${p.total_resources ?? 0} resources, session ${p.session_id ?? '—'}`,
        );
      for (const e of run.errors) console.error(`${e.doi}: ${e.error}`);
      if (run.report) console.log(formatImportReport(run.report));
      if (run.errors.length > 0) process.exitCode = 1;
    });
  });

program
  .command('generate')
  .description("write generated data in the sources' own formats (clearly marked as generated)")
  .argument('<service>')
  .option('--size <n>', 'number of records', (v) => Number(v))
  .option('--seed <n>', 'random seed', (v) => Number(v))
  .option('--out <dir>', 'output directory (default data/generated/<service>)')
  .option('--import', 'import the generated files into the service afterwards')
  .action(async (name: string, opts: { size?: number; seed?: number; out?: string; import?: boolean }) => {
    const service = findService(name);
    const out = path.resolve(opts.out ?? path.join(loadConfig().dataDir, 'generated', service.name));
    const files = await service.generate({ out, size: opts.size, seed: opts.seed });
    for (const file of files) console.log(`wrote ${file}`);
    if (opts.import) {
      await withRuntime([service], async (runtime) => {
        const ctx = runtime.contexts.get(service.name)!;
        const importer = Object.values(service.importers)[0];
        for (const report of await importer.run(ctx, out, { generated: true })) console.log(formatImportReport(report));
      });
    }
  });

program
  .command('extract')
  .description('extract key resource tables (service krt) for DOIs, or for the whole store with --all')
  .argument('[dois...]')
  .option('--all', 'every article in the store')
  .option('--workers <n>', 'worker threads', (v) => Number(v))
  .action(async (dois: string[], opts: { all?: boolean; workers?: number }) => {
    const service = findService('krt');
    if (!service.extract) throw new Error('this build has no extractor');
    await withRuntime([service], async (runtime) => {
      console.log(JSON.stringify(await service.extract!(runtime.contexts.get('krt')!, dois, opts), null, 2));
    });
  });

program
  .command('fit')
  .description("recompute a service's stored models from its imported data (draws: forecasts; retraction: the Bayesian model)")
  .argument('<service>')
  .addOption(new Option('--seed <n>', 'random seed').argParser((v) => Number(v)))
  // Model choices for retraction's Bayesian model (other services ignore them); each is recorded with the fit.
  .option('--iter <n>', 'MCMC iterations per chain, warmup included (warmup defaults to half)')
  .option('--warmup <n>', 'warmup iterations per chain')
  .option('--chains <n>', 'number of chains')
  .option('--adapt-delta <x>', 'target acceptance statistic of step-size adaptation, in (0, 1)')
  .option('--max-treedepth <n>', 'maximum NUTS tree depth')
  .option('--prior <spec...>', 'a prior, e.g. beta=normal(0,0.5) sigma_country=exponential(2) phi=gamma(2,0.1) (repeatable)')
  .option('--family <name>', 'count distribution: negbinomial2 (default) or poisson')
  .option('--kfold <k>', 'also run k-fold cross-validation by country (k refits)')
  .action(async (name: string, opts: Record<string, unknown>) => {
    const service = findService(name);
    if (!service.fit) throw new Error(`${service.name} has no models to fit`);
    await withRuntime([service], async (runtime) => {
      const result = await service.fit!(runtime.contexts.get(service.name)!, opts);
      console.log(typeof result === 'string' ? result : JSON.stringify(result, null, 2));
    });
  });

program
  .command('migrate')
  .description('create or update the database schema')
  .action(async () => {
    await withRuntime([...SERVICES], async (runtime) => {
      console.log(`schema up to date on ${runtime.db.description}`);
    });
  });

program.parseAsync().catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
