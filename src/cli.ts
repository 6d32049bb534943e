#!/usr/bin/env node
// Command line: serve | import | sync | fetch | generate | extract | fit | migrate. This module parses the arguments;
// commands.ts does the work and is loaded only when a command runs, so that `serve`'s primary process, which forks
// the workers and serves nothing, loads no service code.
import { Command, Option } from 'commander';
import { SERVICE_NAMES, loadConfig, parsePort, serviceNameOf } from './core/config.ts';
import { createLogger } from './core/log.ts';
import { collectGarbage } from './core/gc.ts';
import { runPrimary, workerCount, workerRole } from './core/cluster.ts';
import { parseDuration } from './core/sync/duration.ts';

const program = new Command().name('pdi').description('Public Data Interfaces: five public data services');
const commands = () => import('./commands.ts');

program
  .command('serve')
  .description('serve the named services (all by default), each on its own port; fills empty services with demo data first')
  .argument('[services...]', `any of: ${SERVICE_NAMES.join(', ')}`)
  .option('--port <service=port...>', 'override a port, e.g. --port oral=9001', [])
  .option('--host <host>', 'address to listen on (default PDI_HOST or 127.0.0.1)')
  .option('--no-demo', 'do not load demo data into services that have no data')
  .option(
    '--sync-every <duration>',
    'sync each served service from its official source on this schedule, e.g. 6h (default PDI_SYNC_EVERY; off)',
  )
  .option(
    '--workers <n>',
    'processes serving every service on the shared ports, under a primary that restarts one that dies (default PDI_WORKERS, else one per core); 0 serves in this process',
  )
  .action(async (names: string[], opts: { port: string[]; host?: string; demo: boolean; syncEvery?: string; workers?: string }) => {
    const config = loadConfig();
    const syncEvery = opts.syncEvery ?? (config.env.PDI_SYNC_EVERY?.trim() || undefined);
    const syncEveryMs = syncEvery ? parseDuration(syncEvery, opts.syncEvery ? '--sync-every' : 'PDI_SYNC_EVERY') : null;
    for (const name of names) serviceNameOf(name);
    for (const spec of opts.port) {
      const [name, port] = spec.split('=');
      if (port === undefined) throw new Error(`--port takes service=port (e.g. --port oral=9001), got "${spec}"`);
      config.ports[serviceNameOf(name)] = parsePort(port, `--port ${spec}`);
    }
    const role = workerRole();
    const workers = role === null ? workerCount(opts.workers ?? config.env.PDI_WORKERS) : 0;
    if (workers > 0) {
      collectGarbage(); // the primary serves nothing: what loading the modules left is garbage
      runPrimary({
        workers,
        log: createLogger(config.logLevel),
        stopTimeoutMs: config.http.shutdownGraceMs + 15_000,
      });
      return;
    }
    await (await commands()).serve({ names, config, host: opts.host, demo: opts.demo, syncEveryMs, role });
  });

program
  .command('import')
  .description('import real data into a service (atomic: a failure leaves the old data)')
  .argument('<service>')
  .argument('<path>', 'file or directory (or URL where the importer accepts one)')
  .option('--kind <kind>', 'which importer, when a service has several')
  .option('--allow-shrink', 'accept an import that deletes more than PDI_IMPORT_MAX_SHRINK (10%) of the stored records')
  .option('--allow-skips', 'accept an import that cannot read more than PDI_IMPORT_MAX_UNREADABLE (5%) of its rows')
  .action(async (name: string, source: string, opts: { kind?: string; allowShrink?: boolean; allowSkips?: boolean }) =>
    (await commands()).importData(name, source, opts),
  );

program
  .command('sync')
  .description("download a service's official source and import it if it changed (the same importer and guards as import)")
  .argument('<service>', 'a service (krt: the Cellosaurus registry; its papers come by DOI: see fetch)')
  .option('--source <url>', 'fetch from this address instead of PDI_SYNC_URL_<SERVICE> or the official one')
  .option('--force', 'download and import even when the source says nothing changed')
  .option('--deadline <duration>', 'give up a download not finished within this time, e.g. 20m (default PDI_SYNC_DEADLINE; 1h)')
  .option('--allow-shrink', 'accept an import that deletes more than PDI_IMPORT_MAX_SHRINK (10%) of the stored records')
  .option('--allow-skips', 'accept an import that cannot read more than PDI_IMPORT_MAX_UNREADABLE (5%) of its rows')
  .action(
    async (name: string, opts: { source?: string; force?: boolean; deadline?: string; allowShrink?: boolean; allowSkips?: boolean }) =>
      (await commands()).sync(name, { ...opts, deadlineMs: opts.deadline ? parseDuration(opts.deadline, '--deadline') : undefined }),
  );

program
  .command('fetch')
  .description('krt: fetch papers by DOI from bioRxiv/medRxiv or Europe PMC, store them and extract their tables')
  .argument('<service>', 'krt')
  .argument('<dois...>')
  .option('--allow-shrink', 'accept an import that deletes more than PDI_IMPORT_MAX_SHRINK (10%) of the stored records')
  .option('--allow-skips', 'accept an import that cannot read more than PDI_IMPORT_MAX_UNREADABLE (5%) of its rows')
  .action(async (name: string, dois: string[], opts: { allowShrink?: boolean; allowSkips?: boolean }) =>
    (await commands()).fetch(name, dois, opts),
  );

program
  .command('generate')
  .description("write generated data in the sources' own formats (clearly marked as generated)")
  .argument('<service>')
  .option('--size <n>', 'number of records', (v) => Number(v))
  .option('--seed <n>', 'random seed', (v) => Number(v))
  .option('--out <dir>', 'output directory (default data/generated/<service>)')
  .option('--import', 'import the generated files into the service afterwards')
  .action(async (name: string, opts: { size?: number; seed?: number; out?: string; import?: boolean }) =>
    (await commands()).generate(name, opts),
  );

program
  .command('extract')
  .description('extract key resource tables (service krt) for DOIs, or for the whole store with --all')
  .argument('[dois...]')
  .option('--all', 'every article in the store')
  .option('--workers <n>', 'worker threads', (v) => Number(v))
  .action(async (dois: string[], opts: { all?: boolean; workers?: number }) => (await commands()).extract(dois, opts));

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
  .option('--parameterisation <p>', 'effects: auto (default; centred, non-centred when that diverges), centred or non-centred')
  .option('--label <name>', 'the name the fit is kept under beside the others for model comparison (default <family>-<parameterisation>)')
  .action(async (name: string, opts: Record<string, unknown>) => (await commands()).fit(name, opts));

program
  .command('migrate')
  .description('create or update the database schema')
  .action(async () => (await commands()).migrate());

program.parseAsync().catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
