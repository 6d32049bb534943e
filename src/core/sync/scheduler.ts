// `serve --sync-every 6h`: each served service with a sync source is synced on a schedule inside the server. The
// schedule lives in the database (sync_state.next_run_at), so every instance on the same database shares it: each
// looks every `pollMs` (with jitter) whether the run is due, and the one whose conditional UPDATE takes the lease
// runs it and sets the next run (period plus up to `jitter` of it, so instances and services drift apart).
import type { ServiceContext, ServiceModule } from '../service.ts';
import { Random } from '../random.ts';
import { runSync } from './run.ts';
import type { SyncReport, SyncRunOptions } from './run.ts';
import type { SyncDefinition } from './source.ts';
import { resolveSyncFiles, syncSettings } from './source.ts';
import { claimLease, newHolderId, readSyncState } from './state.ts';
import { formatDuration } from './duration.ts';

export interface ScheduleOptions {
  /** The period. */
  everyMs: number;
  /** Fraction of the period added at random to each next run (default 0.1, at most one hour). */
  jitter?: number;
  /** How often an instance looks whether the run is due (default: a tenth of the period, 5 s to 60 s). */
  pollMs?: number;
  random?: Random;
  /** Passed to every run (tests shorten download delays). */
  run?: Omit<SyncRunOptions, 'holder' | 'trigger' | 'signal'>;
  onRun?: (report: SyncReport) => void;
}

export type TickResult = 'ran' | 'not-due' | 'busy' | 'failed';

export class SyncScheduler {
  readonly service: ServiceModule;
  private readonly ctx: ServiceContext;
  private readonly definition: SyncDefinition;
  private readonly everyMs: number;
  private readonly jitter: number;
  private readonly pollMs: number;
  private readonly random: Random;
  private readonly options: ScheduleOptions;
  private readonly stopper = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<TickResult> | null = null;

  constructor(ctx: ServiceContext, service: ServiceModule, definition: SyncDefinition, options: ScheduleOptions) {
    this.ctx = ctx;
    this.service = service;
    this.definition = definition;
    this.options = options;
    this.everyMs = options.everyMs;
    this.jitter = Math.min(Math.max(options.jitter ?? 0.1, 0), 1);
    this.pollMs = options.pollMs ?? Math.min(60_000, Math.max(5_000, options.everyMs / 10));
    // Jitter differs between instances: the seed is this process and its start.
    this.random = options.random ?? new Random(`sync:${service.name}:${process.pid}:${Date.now()}`);
  }

  /** Starts looking; the first look comes after a random part of the poll period. */
  start(): void {
    this.schedule(this.random.next() * this.pollMs);
    this.ctx.log.info(
      { every: formatDuration(this.everyMs) },
      `sync of ${this.service.name} scheduled every ${formatDuration(this.everyMs)}`,
    );
  }

  /** Stops looking; a download in progress is stopped, an import in progress finishes (it is one transaction). */
  async stop(): Promise<void> {
    this.stopper.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  private schedule(delayMs: number): void {
    if (this.stopper.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.tick().finally(() => this.schedule(this.pollMs * (0.9 + 0.2 * this.random.next())));
    }, delayMs);
    this.timer.unref();
  }

  /** One look: runs the sync when it is due and this instance takes the lease. */
  async tick(now = new Date()): Promise<TickResult> {
    if (this.running) return 'busy';
    this.running = this.look(now);
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }

  private async look(now: Date): Promise<TickResult> {
    try {
      const state = await readSyncState(this.ctx.db.kysely, this.service.name);
      if (state?.next_run_at && state.next_run_at > now.toISOString()) return 'not-due';
      const holder = newHolderId();
      const spread = Math.min(this.everyMs * this.jitter, 3_600_000) * this.random.next();
      const nextRunAt = new Date(now.getTime() + this.everyMs + spread);
      const leaseMs = this.options.run?.leaseMs ?? syncSettings(this.ctx.config.env).leaseMs;
      const taken = await claimLease(this.ctx.db.kysely, this.service.name, {
        holder,
        now,
        leaseMs,
        schedule: { nextRunAt, everySeconds: this.everyMs / 1000 },
      });
      if (!taken) return 'busy';
      const report = await runSync(this.ctx, this.service, this.definition, {
        ...this.options.run,
        holder,
        trigger: 'schedule',
        signal: this.stopper.signal,
      });
      this.options.onRun?.(report);
      return 'ran';
    } catch (error) {
      this.ctx.log.error({ err: error }, `scheduled sync of ${this.service.name} failed`);
      return 'failed';
    }
  }
}

/** Schedules every given service that has a sync source; returns what stops them all. */
export function startSyncSchedules(
  entries: ReadonlyArray<{ ctx: ServiceContext; service: ServiceModule; definition: SyncDefinition | undefined }>,
  options: ScheduleOptions,
): { schedulers: SyncScheduler[]; stop(): Promise<void> } {
  const schedulers: SyncScheduler[] = [];
  for (const { ctx, service, definition } of entries) {
    if (!definition) {
      ctx.log.info(`${service.name} has no sync source: not scheduled`);
      continue;
    }
    try {
      resolveSyncFiles(definition, ctx.config.env);
    } catch (error) {
      ctx.log.warn(`${service.name}: not scheduled: ${(error as Error).message}`);
      continue;
    }
    const scheduler = new SyncScheduler(ctx, service, definition, options);
    scheduler.start();
    schedulers.push(scheduler);
  }
  return {
    schedulers,
    async stop() {
      await Promise.all(schedulers.map((s) => s.stop()));
    },
  };
}
