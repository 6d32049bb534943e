// What a service is to the rest of the program: its routes, migrations, importers, demo data and
// optional jobs. The CLI, the HTTP kernel and the tests only talk to services through this shape.
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import type { Migration } from 'kysely/migration';
import type { Redis } from 'ioredis';
import type { Config, ServiceName } from './config.ts';
import type { Db } from './db/database.ts';
import type { ErrorInfo } from './http/errors.ts';
import type { ImportReport } from './import.ts';
import { serviceDataVersion } from './db/datasets.ts';
import type { PageHeader, PageKit } from './pages/index.ts';
import type { Language } from './i18n/language.ts';
import type { NewestObservationReader } from './sync/status.ts';

export type ServiceApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** A service's pages: its page routes, and what the layout needs to know (title, sections of the navigation). */
export interface ServicePages<State = unknown> {
  /** The service's name as people read it in the page header. */
  title: string;
  /** Links in the header (e.g. Search, Statistics). */
  sections: Array<{ label: string; href: string }>;
  /** Script assets of the service's own (name → file path), served beside the core assets. */
  scripts?: Record<string, string>;
  /** The languages the pages speak, the default first (absent: English only). */
  languages?: readonly Language[];
  /** The title and sections in a language, from the service's catalogue (absent: `title` and `sections`). */
  header?: (language: Language) => PageHeader;
  routes(app: ServiceApp, ctx: ServingContext<State>, kit: PageKit): Promise<void>;
}

export interface ServiceContext {
  name: ServiceName;
  db: Db;
  config: Config;
  log: FastifyBaseLogger;
  /** Shared Redis connection when PDI_REDIS_URL is set (rate limits and caches across instances). */
  redis: Redis | null;
  dataVersion: DataVersionWatcher;
}

/**
 * What a served service's routes and pages are given: its context and `state`, the value its `createState` made
 * once for the process (undefined for a service without one).
 */
export interface ServingContext<State = unknown> extends ServiceContext {
  readonly state: State;
}

/**
 * The one shape of route registration: a service's `routes` and each of its endpoint groups (routes/<group>.ts)
 * register on `app` what the context and the service's state serve.
 */
export type ServiceRoutes<State> = (app: ServiceApp, ctx: ServingContext<State>) => Promise<void> | void;

export interface ImporterDefinition {
  description: string;
  /** Imports from a file or directory (or URL where the importer says so). */
  run(ctx: ServiceContext, source: string, options: Record<string, unknown>): Promise<ImportReport[]>;
}

/**
 * A service. `State` is what its routes and pages share in a server process (held data, indexes, caches, the
 * typed database): `createState` makes it once, before the routes and pages are registered, and both get it as
 * `ctx.state`. State that depends on the data holds itself per data version (core/held.ts, ctx.dataVersion).
 * A service without `createState` (its state type admits undefined) gets `undefined`.
 */
export type ServiceModule<State = unknown> = ServiceDefinition<State> & StateHook<State>;

/** `createState` may be left out only by a service whose state may be undefined (a service without state). */
type StateHook<State> = undefined extends State
  ? { createState?(ctx: ServiceContext): State | Promise<State> }
  : { createState(ctx: ServiceContext): State | Promise<State> };

interface ServiceDefinition<State> {
  name: ServiceName;
  title: string;
  description: string;
  version: string;
  /** The body of every error response of this service. */
  errorBody(error: ErrorInfo): Record<string, unknown>;
  /** The JSON schema of `errorBody`'s result: the kernel documents every route's error responses with it. */
  errorSchema: TSchema;
  /** Default `Cache-Control: public, max-age=N` for successful JSON GETs (a route may override). */
  cacheSeconds: number;
  migrations: Record<string, Migration>;
  // Method syntax on purpose: a ServiceModule<KrtState> is then a ServiceModule (the kernel passes each service
  // only the state its own createState made).
  routes(app: ServiceApp, ctx: ServingContext<State>): Promise<void>;
  /**
   * The service's web pages (HTML, hidden from OpenAPI), built on the same repository functions as the API.
   * `kit` renders the shared layout; the kernel serves the kit's assets.
   */
  pages?: ServicePages<State>;
  /**
   * The date of the newest observation in the data (e.g. the newest draw) and how old it may be: staleness then
   * counts from it as well as from the last import (/api/sync-status/, /metrics, the pages' notice).
   */
  newestObservation?: NewestObservationReader;
  /** `import <service> <path> [--kind k]`; the first is the default kind. */
  importers: Record<string, ImporterDefinition>;
  /** Writes demo data in the sources' own formats and imports it through the same importers. */
  loadDemo(ctx: ServiceContext, options: { size?: number; seed?: number }): Promise<ImportReport[]>;
  /** `generate <service>`: writes source-format files of any size to `out` (a directory). */
  generate(options: { out: string; size?: number; seed?: number }): Promise<string[]>;
  /** `fit <service>`: recomputes stored models from the data already imported. */
  fit?(ctx: ServiceContext, options: Record<string, unknown>): Promise<unknown>;
  /** `extract …`: B's extraction of key resource tables. */
  extract?(ctx: ServiceContext, dois: string[], options: Record<string, unknown>): Promise<unknown>;
}

/**
 * The current data version of a service, re-read at most every `ttlMs` so that a request costs no
 * query; an import from another process is noticed within that time.
 */
export class DataVersionWatcher {
  private value: string | null = null;
  private checkedAt = 0;
  private pending: Promise<string | null> | null = null;
  private readonly db: Db;
  private readonly service: string;
  private readonly ttlMs: number;

  constructor(db: Db, service: string, ttlMs = 1000) {
    this.db = db;
    this.service = service;
    this.ttlMs = ttlMs;
  }

  /**
   * Called with the service's name whenever a watcher of this process is invalidated: `serve --workers n` tells
   * the other workers (src/core/cluster.ts), so they do not wait for their next re-read.
   */
  static onInvalidate: ((service: string) => void) | null = null;

  /** The value without a query: undefined when it is due for a re-read (then call `current()`). */
  peek(): string | null | undefined {
    return Date.now() - this.checkedAt < this.ttlMs ? this.value : undefined;
  }

  async current(): Promise<string | null> {
    if (Date.now() - this.checkedAt < this.ttlMs) return this.value;
    this.pending ??= serviceDataVersion(this.db.kysely, this.service)
      .then((v) => {
        this.value = v;
        this.checkedAt = Date.now();
        return v;
      })
      .finally(() => {
        this.pending = null;
      });
    return this.pending;
  }

  /** After an import in this process: forget the cached value (and tell the other workers, if any). */
  invalidate(): void {
    this.checkedAt = 0;
    DataVersionWatcher.onInvalidate?.(this.service);
  }

  /** Another worker imported: forget the cached value, telling no one. */
  forget(): void {
    this.checkedAt = 0;
  }
}
