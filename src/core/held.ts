// Data held in memory per data version (A's recommendations, B's articles, C's search): one value at a time, loaded
// on first use and again when the service's data version changes, one load at a time however many requests ask.
import type { DataVersionWatcher } from './service.ts';

export interface HeldOptions<T> {
  /** Reads the value of the data as stored under `version`. */
  read: (version: string | null) => Promise<T>;
  /**
   * The version as stored now, bypassing the watcher's cache: read before and after `read`, so that a value is
   * held only when no import committed in between (the reads are not one transaction: that would hold SQLite's
   * only connection for seconds).
   */
  storedVersion: () => Promise<string | null>;
  /** Loads in a row that an import overtook before the last one is held anyway (the next request sees it stale). */
  maxAttempts?: number;
  /**
   * Called once a newly loaded value is held (the one before it no longer is): for a load that leaves much garbage,
   * to collect it now (gc.ts's `collectGarbage`).
   */
  afterHeld?: () => void;
}

/** A value belonging to the current data version of one service. */
export class HeldPerVersion<T> {
  private readonly versions: DataVersionWatcher;
  private readonly options: HeldOptions<T>;
  private held: { version: string | null; value: T } | null = null;
  private loading: Promise<{ version: string | null; value: T }> | null = null;

  constructor(versions: DataVersionWatcher, options: HeldOptions<T>) {
    this.versions = versions;
    this.options = options;
  }

  /** The value held now, whatever its version (for memory accounting), or null before the first load. */
  get now(): T | null {
    return this.held?.value ?? null;
  }

  /** The value of the current data version (through the watcher: no query unless it is due for a re-read). */
  async current(): Promise<T> {
    const version = await this.versions.current();
    if (this.held && this.held.version === version) return this.held.value;
    this.loading ??= this.load().finally(() => {
      this.loading = null;
    });
    const loaded = await this.loading;
    // A load that began before another import committed is followed by one more.
    return loaded.version === version ? loaded.value : this.current();
  }

  private async load(): Promise<{ version: string | null; value: T }> {
    const maxAttempts = this.options.maxAttempts ?? 5;
    for (let attempt = 1; ; attempt++) {
      const version = await this.options.storedVersion();
      const value = await this.options.read(version);
      if ((await this.options.storedVersion()) === version || attempt >= maxAttempts) {
        this.held = { version, value };
        this.options.afterHeld?.();
        return this.held;
      }
    }
  }
}
