// What a service's pages get from core: the shared layout filled in for this service and request (navigation
// to the other services, the data footer), the assets, the chart cache, and an HTML reply. Pages read through
// the same repository functions as the API; nothing here queries a service's tables.
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_PORTS, SERVICE_NAMES } from '../config.ts';
import type { ServiceName } from '../config.ts';
import { listDataVersions } from '../db/datasets.ts';
import type { DataVersion } from '../db/datasets.ts';
import { readSyncStatus } from '../sync/status.ts';
import type { NewestObservationReader } from '../sync/status.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { coreAssets } from './assets.ts';
import type { AssetRegistry } from './assets.ts';
import { ChartCache } from './charts.ts';
import type { ChartSpec } from './charts.ts';
import { chartKey } from './chart-key.ts';
import type { ChartKey } from './chart-key.ts';
import { renderDocument } from './layout.ts';
import type { DataFooter, ServiceLink } from './layout.ts';
import { isWebAddress } from './html.ts';
import type { HtmlValue, SafeHtml } from './html.ts';
import { layoutMessages } from '../i18n/messages/index.ts';
import type { Language } from '../i18n/language.ts';
import { keepLanguage, languageHref } from './links.ts';
import { requestLocale } from './locale.ts';
import type { PageLocale } from './locale.ts';

export { html, joinHtml, queryString, trustedHtml, escapeHtml, externalLink, SafeHtml } from './html.ts';
export type { HtmlValue } from './html.ts';
export { formatNumber } from './format.ts';
export { pageLocale, untranslated } from './locale.ts';
export type { PageLocale } from './locale.ts';
export { barChart, chartFigure, forestPlot, lineChart, numberAxisLabel, PALETTE } from './charts.ts';
export type { ChartSpec, ForestRow } from './charts.ts';

/** The short titles used in the navigation between services, in a language. */
function serviceTitle(name: ServiceName, language: Language = 'en'): string {
  return layoutMessages.format(language, `service.${name}`);
}

/**
 * What the kit reads of the service it draws for (a ServiceContext has all of it). Declared here, not imported from
 * service.ts, because the service contract names the kit: core/service.ts ⇄ pages would be an import cycle.
 */
export interface PagesContext {
  name: ServiceName;
  db: Db;
  config: Pick<Config, 'env' | 'ports'>;
  dataVersion: { current(): Promise<string | null> };
}

export interface PageSection {
  label: string;
  href: string;
}

export interface PageRequest {
  title: string;
  description?: string;
  /** The href of the section this page belongs to (marked current in the navigation). */
  section?: string;
  body: HtmlValue;
  /** Extra script assets (names registered with `kit.assets`). */
  scripts?: string[];
}

/** The header of a service in one language: its name and its sections. */
export interface PageHeader {
  serviceTitle: string;
  sections: PageSection[];
}

/** How long a page may show a stale (or fresh) verdict before it is read again. */
const STALE_RECHECK_MS = 60_000;

export class PageKit {
  readonly assets: AssetRegistry;
  readonly charts = new ChartCache();
  private readonly ctx: PagesContext;
  /** The languages the pages speak, the default first (one: no language switch, no negotiation). */
  readonly languages: readonly Language[];
  private readonly header: (language: Language) => PageHeader;
  private footerCache: { version: string | null; footer: DataFooter } | null = null;
  private readonly newestObservation: NewestObservationReader | undefined;

  constructor(
    ctx: PagesContext,
    options: {
      serviceTitle: string;
      sections: PageSection[];
      assets?: AssetRegistry;
      newestObservation?: NewestObservationReader;
      languages?: readonly Language[];
      /** The header in another language than English (the service's catalogue); absent: `serviceTitle` and `sections`. */
      header?: (language: Language) => PageHeader;
    },
  ) {
    this.ctx = ctx;
    this.newestObservation = options.newestObservation;
    const english = { serviceTitle: options.serviceTitle, sections: options.sections };
    this.header = options.header ?? (() => english);
    this.languages = options.languages && options.languages.length > 0 ? options.languages : ['en'];
    this.assets = options.assets ?? coreAssets();
  }

  /** The language of this request's page (`?lang=`, Accept-Language, the first language), with its formatters. */
  locale(request: FastifyRequest): PageLocale {
    return requestLocale(request, this.languages);
  }

  /** The data version pages key their cached charts on ('none' without data). */
  async dataVersion(): Promise<string> {
    return (await this.ctx.dataVersion.current()) ?? 'none';
  }

  /**
   * Data version, source file names (never server paths) and the demo label, re-read when the data changes; and
   * whether the data is stale, which changes with time, not with the data: re-read at most once a minute.
   */
  async footer(): Promise<DataFooter> {
    const version = await this.ctx.dataVersion.current();
    if (!this.footerCache || this.footerCache.version !== version) {
      const versions = await listDataVersions(this.ctx.db.kysely, this.ctx.name);
      this.footerCache = { version, footer: footerOf(version, versions) };
    }
    return { ...this.footerCache.footer, stale: await this.staleness() };
  }

  private staleCache: { at: number; value: DataFooter['stale'] } | null = null;

  private async staleness(): Promise<DataFooter['stale']> {
    const now = Date.now();
    if (this.staleCache && now - this.staleCache.at < STALE_RECHECK_MS) return this.staleCache.value;
    const status = await readSyncStatus(this.ctx.db.kysely, this.ctx.name, this.ctx.config.env, new Date(now), this.newestObservation);
    const { import_stale: importStale, confirmed_at: confirmedAt, age_seconds: age, newest_observation: observed } = status.data;
    const confirmed = importStale && confirmedAt && age !== null ? { confirmedAt, ageDays: Math.floor(age / 86400) } : null;
    const observation =
      observed?.stale && observed.date && observed.age_days !== null && observed.stale_after_days !== null
        ? { noun: observed.noun, date: observed.date, ageDays: observed.age_days, staleAfterDays: observed.stale_after_days }
        : null;
    const value = confirmed || observation ? { confirmed, observation } : null;
    this.staleCache = { at: now, value };
    return value;
  }

  /**
   * Links to the five services: PDI_PUBLIC_URL_<NAME> when set; else this service's `/`, and for the others this
   * service's `/services/<name>/`, which redirects to that service's port on the host the browser asked for. Pages
   * are cached and shared by every client, so nothing a request says (its Host) may be written into one.
   */
  serviceLinks(language: Language = 'en'): ServiceLink[] {
    return SERVICE_NAMES.map((name) => ({
      name,
      title: serviceTitle(name, language),
      url: this.publicUrl(name) ?? (name === this.ctx.name ? '/' : `/services/${name}/`),
      current: name === this.ctx.name,
    }));
  }

  /** The configured public address of a service (PDI_PUBLIC_URL_<NAME>), when it is an http(s) URL. */
  publicUrl(name: ServiceName): string | null {
    const configured = this.ctx.config.env[`PDI_PUBLIC_URL_${name.toUpperCase()}`];
    return isWebAddress(configured) ? configured : null;
  }

  /** Where `/services/<name>/` sends this request: the service's port on the host this request named. */
  serviceAddress(request: FastifyRequest, name: ServiceName): string {
    const configured = this.publicUrl(name);
    if (configured) return configured;
    const host = (request.hostname || '127.0.0.1').replace(/:\d+$/, '');
    const port = this.ctx.config.ports[name] ?? DEFAULT_PORTS[name];
    return `${request.protocol}://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}/`;
  }

  /** The sections of the service's header in a language (the error page offers them to go on from). */
  sections(language: Language): PageSection[] {
    return this.header(language).sections;
  }

  /**
   * A chart drawn once per key and kept: the key is built from its parts (this service, the chart, the language, the
   * data version and the page's validated inputs, whole), so nothing that changes the chart can be left out of it.
   */
  chart(key: Omit<ChartKey, 'service'>, build: () => ChartSpec): SafeHtml {
    return this.charts.figure(chartKey({ ...key, service: this.ctx.name }), () => ({ ...build(), language: key.language }));
  }

  async render(request: FastifyRequest, page: PageRequest): Promise<SafeHtml> {
    const locale = this.locale(request);
    const header = this.header(locale.language);
    return renderDocument({
      title: page.title,
      description: page.description,
      serviceTitle: header.serviceTitle,
      sections: header.sections.map((s) => ({ ...s, current: s.href === page.section })),
      services: this.serviceLinks(locale.language),
      footer: await this.footer(),
      body: page.body,
      scripts: page.scripts,
      assets: this.assets,
      locale,
      translations: this.languages
        .filter((language) => language !== locale.language)
        .map((language) => ({
          language,
          href: languageHref(request.url, language),
          label: layoutMessages.format(language, 'layout.languageName'),
        })),
    });
  }

  /**
   * Renders and sends a page (text/html; the kernel adds ETag and Cache-Control). A page in a language the request
   * named keeps it in its links and forms.
   */
  async send(request: FastifyRequest, reply: FastifyReply, page: PageRequest): Promise<string> {
    reply.type('text/html; charset=utf-8');
    const locale = this.locale(request);
    const text = (await this.render(request, page)).text;
    return locale.explicit ? keepLanguage(text, locale.language) : text;
  }
}

function footerOf(version: string | null, versions: DataVersion[]): DataFooter {
  const latest =
    versions
      .map((v) => v.imported_at)
      .sort()
      .at(-1) ?? null;
  return {
    dataVersion: version,
    isDemo: versions.some((v) => v.is_demo),
    importedAt: latest,
    sources: versions.map((v) => ({ dataset: v.dataset, file: v.source ? sourceName(v.source) : null })),
  };
}

/** A file's name or a URL's host and file: never an absolute path of the server. */
function sourceName(source: string): string {
  if (/^https?:\/\//.test(source)) {
    try {
      const url = new URL(source);
      return `${url.host}/…/${path.posix.basename(url.pathname)}`;
    } catch {
      return source;
    }
  }
  return path.basename(source);
}
