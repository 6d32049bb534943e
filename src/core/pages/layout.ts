// The one layout the five services' pages share: a header naming the service, navigation to the others
// through their configured addresses, the page, and a footer with the data version, the sources and the
// demo label when the data is generated. The stale-data and demo notices open <main>: every piece of content
// sits in a landmark, and the skip link lands on them before the page itself. No inline script (the content security policy forbids it); the
// scripts a page needs are assets loaded with `defer`.
import { html } from './html.ts';
import type { HtmlValue, SafeHtml } from './html.ts';
import type { AssetRegistry } from './assets.ts';
import type { Language } from '../i18n/language.ts';
import type { PageLocale } from './locale.ts';
import { layoutMessages } from '../i18n/messages/index.ts';
import type { LayoutKey } from '../i18n/messages/index.ts';

export interface ServiceLink {
  name: string;
  title: string;
  url: string;
  current: boolean;
}

/** One imported dataset: its name as the service records it (data_versions.dataset) and the file it came from. */
interface DataSource {
  dataset: string;
  /** A file's name or a URL's host and file, never a server path; null when the import recorded none. */
  file: string | null;
}

export interface DataFooter {
  dataVersion: string | null;
  /** Where the data came from: each dataset, named in the page's language, with its file. */
  sources: DataSource[];
  isDemo: boolean;
  /** When the data was imported (ISO time), if known. */
  importedAt?: string | null;
  /** Set when real data is stale: last confirmed longer ago than PDI_SYNC_STALE_AFTER, or its newest observation too old. */
  stale?: StaleData | null;
}

interface StaleData {
  /** When the data was last confirmed against its source, if that is longer ago than the limit. */
  confirmed: { confirmedAt: string; ageDays: number } | null;
  /** The newest observation (a draw), if it is older than the service allows. */
  observation: { noun: string; date: string; ageDays: number; staleAfterDays: number } | null;
}

export interface PageOptions {
  /** The page's own title (the service's title is appended). */
  title: string;
  /** One sentence for search engines and link previews. */
  description?: string;
  serviceTitle: string;
  /** Links inside this service (e.g. Search, Statistics), with the current one marked. */
  sections: Array<{ label: string; href: string; current?: boolean }>;
  services: ServiceLink[];
  footer: DataFooter;
  body: HtmlValue;
  /** Asset names of scripts to load (deferred). */
  scripts?: string[];
  assets: AssetRegistry;
  locale: PageLocale;
  /** The same page in the service's other languages (none for a service with one language). */
  translations: Array<{ language: Language; href: string; label: string }>;
}

/** A navigation link; the current one carries aria-current (written whole, so no stray space is left when it is not). */
function navLink(href: string, label: string, current: 'page' | 'true' | null): SafeHtml {
  return current ? html`<a href="${href}" aria-current="${current}">${label}</a>` : html`<a href="${href}">${label}</a>`;
}

/** The footer's line on the data: demo label, data version and import date. */
function dataLine(footer: DataFooter, locale: PageLocale): SafeHtml {
  const t = locale.layout;
  const demo = footer.isDemo ? html`<strong>${t('layout.demoData')}</strong> ` : '';
  const imported = footer.importedAt ? t('layout.imported', { date: locale.date(footer.importedAt) }) : '';
  return html`${demo}${t('layout.dataVersion')} <code>${footer.dataVersion ?? t('layout.noData')}</code>${imported}.`;
}

/** A dataset's name in the page's language: the catalogue's for the datasets the services import, else as recorded. */
function datasetName(dataset: string, locale: PageLocale): string {
  const key = `dataset.${dataset}`;
  return isLayoutKey(key) ? locale.layout(key) : dataset;
}

function isLayoutKey(key: string): key is LayoutKey {
  return Object.hasOwn(layoutMessages.tables.en, key);
}

/** The footer's sources: each dataset by its name in the page's language, with the file it came from. */
function sourcesLine(sources: readonly DataSource[], locale: PageLocale): string {
  const t = locale.layout;
  const named = sources.map(({ dataset, file }) =>
    file ? t('layout.source', { dataset: datasetName(dataset, locale), file }) : datasetName(dataset, locale),
  );
  return t('layout.sources', { sources: named.join('; ') });
}

/** Said on every page while the data is older than its limit: the figures may have changed at the source. */
function staleBanner(stale: StaleData, locale: PageLocale): SafeHtml {
  const t = locale.layout;
  const { confirmed, observation } = stale;
  const noun = (name: string) => (name === 'draw' ? t('layout.observation.draw') : name);
  return html`<p class="stale-banner" role="note">
    <strong>${t('layout.staleTitle')}</strong>
    ${
      observation
        ? t('layout.staleObservation', {
            noun: noun(observation.noun),
            date: locale.date(observation.date),
            age: observation.ageDays,
            limit: observation.staleAfterDays,
          })
        : ''
    }
    ${confirmed ? t('layout.staleConfirmed', { date: locale.date(confirmed.confirmedAt), age: confirmed.ageDays }) : ''}
  </p>`;
}

export function renderDocument(options: PageOptions): SafeHtml {
  const { footer, locale } = options;
  const t = locale.layout;
  return html`<!doctype html>
    <html lang="${locale.language}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${options.title} · ${options.serviceTitle}</title>
        ${options.description ? html`<meta name="description" content="${options.description}" />` : ''}
        <link rel="icon" href="/favicon.ico" />
        <link rel="stylesheet" href="${options.assets.url('pdi.css')}" />
        <script src="${options.assets.url('pdi.js')}" defer></script>
        ${(options.scripts ?? []).map((name) => html`<script src="${options.assets.url(name)}" defer></script>`)}
      </head>
      <body>
        <a class="skip" href="#main">${t('layout.skip')}</a>
        <header class="site">
          <div class="brand"><a href="/">${options.serviceTitle}</a></div>
          <nav aria-label="${options.serviceTitle}">
            <ul>
              ${options.sections.map((s) => html`<li>${navLink(s.href, s.label, s.current ? 'page' : null)}</li>`)}
            </ul>
          </nav>
          <nav aria-label="${t('layout.otherServices')}" class="services">
            <ul>
              ${options.services.map((s) => html`<li>${navLink(s.url, s.title, s.current ? 'true' : null)}</li>`)}
            </ul>
          </nav>
          ${
            options.translations.length > 0
              ? html`<nav aria-label="${t('layout.language')}" class="languages">
                  <ul>
                    ${options.translations.map(
                      (other) =>
                        html`<li><a href="${other.href}" lang="${other.language}" hreflang="${other.language}">${other.label}</a></li>`,
                    )}
                  </ul>
                </nav>`
              : ''
          }
        </header>
        <main id="main">
          ${footer.stale ? staleBanner(footer.stale, locale) : ''}
          ${
            footer.isDemo
              ? html`<p class="demo-banner" role="note"><strong>${t('layout.demoBanner')}</strong> ${t('layout.demoBannerText')}</p>`
              : ''
          }
          ${options.body}
        </main>
        <footer class="site">
          <p>${dataLine(footer, locale)}</p>
          ${footer.sources.length > 0 ? html`<p>${sourcesLine(footer.sources, locale)}</p>` : ''}
          <p><a href="/docs">${t('layout.apiDocs')}</a> · <a href="/openapi.json">${t('layout.openApi')}</a></p>
        </footer>
      </body>
    </html>`;
}
