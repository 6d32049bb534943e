// The one layout the five services' pages share: a header naming the service, navigation to the others
// through their configured addresses, the page, and a footer with the data version, the sources and the
// demo label when the data is generated. No inline script (the content security policy forbids it); the
// scripts a page needs are assets loaded with `defer`.
import { html } from './html.ts';
import type { HtmlValue, SafeHtml } from './html.ts';
import type { AssetRegistry } from './assets.ts';

export interface ServiceLink {
  name: string;
  title: string;
  url: string;
  current: boolean;
}

export interface DataFooter {
  dataVersion: string | null;
  /** Where the data came from, in a few words each (file names, publishers). */
  sources: string[];
  isDemo: boolean;
  /** When the data was imported (ISO time), if known. */
  importedAt?: string | null;
  /** Set when real data is stale: last confirmed longer ago than PDI_SYNC_STALE_AFTER, or its newest observation too old. */
  stale?: StaleData | null;
}

export interface StaleData {
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
}

/** A navigation link; the current one carries aria-current (written whole, so no stray space is left when it is not). */
function navLink(href: string, label: string, current: 'page' | 'true' | null): SafeHtml {
  return current ? html`<a href="${href}" aria-current="${current}">${label}</a>` : html`<a href="${href}">${label}</a>`;
}

/** The footer's line on the data: demo label, data version and import date. */
function dataLine(footer: DataFooter): SafeHtml {
  const demo = footer.isDemo ? html`<strong>Generated demo data.</strong> ` : '';
  const imported = footer.importedAt ? `, imported ${footer.importedAt.slice(0, 10)}` : '';
  return html`${demo}Data version <code>${footer.dataVersion ?? 'none (no data imported)'}</code>${imported}.`;
}

/** Said on every page while the data is older than its limit: the figures may have changed at the source. */
function staleBanner(stale: StaleData): SafeHtml {
  const days = (n: number) => (n === 1 ? '1 day' : `${n} days`);
  const { confirmed, observation } = stale;
  return html`<p class="stale-banner" role="note">
    <strong>Data may be out of date.</strong>
    ${
      observation
        ? html`The newest ${observation.noun} in it is dated ${observation.date}, ${days(observation.ageDays)} ago: no ${observation.noun}
          for more than ${days(observation.staleAfterDays)}, so newer ones are probably missing.`
        : ''
    }
    ${
      confirmed
        ? html`It was last confirmed against its source on ${confirmed.confirmedAt.slice(0, 10)} (${days(confirmed.ageDays)} ago); the
          source may have changed since.`
        : ''
    }
  </p>`;
}

export function renderDocument(options: PageOptions): SafeHtml {
  const { footer } = options;
  return html`<!doctype html>
    <html lang="en">
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
        <a class="skip" href="#main">Skip to content</a>
        <header class="site">
          <div class="brand"><a href="/">${options.serviceTitle}</a></div>
          <nav aria-label="${options.serviceTitle}">
            <ul>
              ${options.sections.map((s) => html`<li>${navLink(s.href, s.label, s.current ? 'page' : null)}</li>`)}
            </ul>
          </nav>
          <nav aria-label="Other services" class="services">
            <ul>
              ${options.services.map((s) => html`<li>${navLink(s.url, s.title, s.current ? 'true' : null)}</li>`)}
            </ul>
          </nav>
        </header>
        ${footer.stale ? staleBanner(footer.stale) : ''}
        ${footer.isDemo ? html`<p class="demo-banner" role="note"><strong>Demo data.</strong> What this service shows now is generated for demonstration; no figure on these pages is real.</p>` : ''}
        <main id="main">${options.body}</main>
        <footer class="site">
          <p>${dataLine(footer)}</p>
          ${footer.sources.length > 0 ? html`<p>Sources: ${footer.sources.join('; ')}.</p>` : ''}
          <p><a href="/docs">API documentation</a> · <a href="/openapi.json">OpenAPI</a></p>
        </footer>
      </body>
    </html>`;
}
