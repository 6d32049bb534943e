import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { html, joinHtml, queryString, trustedHtml } from './html.ts';
import { barChart, chartFigure, forestPlot, lineChart, renderChartSvg } from './charts.ts';
import { AssetRegistry, coreAssets } from './assets.ts';
import { renderDocument } from './layout.ts';
import { keepLanguage, languageHref } from './links.ts';
import { pageLocale } from './locale.ts';
import { tableRows } from '../../../test/support/pages.ts';

/** Data elements ECharts drew for one series (it marks each with its series and data index; legend icons are not data). */
function plotted(svg: string, series: number): number {
  return new Set(
    [...svg.matchAll(new RegExp(`ecmeta_series_index="${series}" ecmeta_data_index="(\\d+)" ecmeta_ssr_type="chart"`, 'g'))].map(
      (m) => m[1],
    ),
  ).size;
}

describe('html templates', () => {
  it('escape every interpolated text, keep nested fragments, print nothing for null/undefined/false', () => {
    const name = '<script>alert("x")</script> & \'';
    const out = html`<p title="${name}">${name}${html`<b>${name}</b>`}${null}${undefined}${false}${[1, 'a<', html`<i>ok</i>`]}</p>`;
    assert.equal(
      out.text,
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;' +
        '<b>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;</b>1a&lt;<i>ok</i></p>',
    );
    assert.equal(joinHtml(['a<', trustedHtml('<br>')], html`, `).text, 'a&lt;, <br>');
    assert.equal(queryString({ q: 'a b', page: 2, empty: '', none: undefined }), '?q=a+b&page=2');
  });

  it('no text can open a tag or close an attribute (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('<', '>', '"', "'", '&', 'a', ' ', 'é', '/', '='), maxLength: 64 }), (text) => {
        const out = html`<a href="${text}">${text}</a>`.text;
        const inner = out.slice('<a href="'.length, out.length - '</a>'.length);
        assert.ok(!/[<>]/.test(inner.replace('">', '')));
        assert.equal(out.split('"').length, 3); // only the attribute's own quotes
      }),
      { numRuns: 500, seed: 17 },
    );
  });
});

describe('server-rendered charts', () => {
  it('a bar chart draws one bar per category and series, with title, description and its data table', () => {
    const spec = barChart({
      id: 'per-year',
      title: 'Retractions per year',
      description: 'Count of retraction notices by year.',
      categories: ['2021', '2022', '2023', '2024'],
      series: [
        { name: 'Retractions', values: [5, 8, 3, 0] },
        { name: 'Corrections', values: [1, 2, 0, 4] },
      ],
    });
    const svg = renderChartSvg(spec);
    assert.equal(plotted(svg, 0), 4);
    assert.equal(plotted(svg, 1), 4);
    assert.match(svg, /^<svg role="img" aria-labelledby="per-year-title per-year-desc"/);
    assert.match(
      svg,
      /<title id="per-year-title">Retractions per year<\/title><desc id="per-year-desc">Count of retraction notices by year.<\/desc>/,
    );
    const figure = chartFigure(spec, svg).text;
    assert.equal((figure.match(/<tr>/g) ?? []).length, 1 + 4); // header + one row per category
    assert.match(figure, /<td>2023<\/td><td>3<\/td><td>0<\/td>/);
  });

  it('a forest plot draws one estimate and one interval per row, on a log axis for ratios', () => {
    const rows = [
      { label: 'Caries (RR)', estimate: 0.72, lower: 0.61, upper: 0.85, group: 'High' },
      { label: 'Gingivitis (RR)', estimate: 1.1, lower: 0.8, upper: 1.6, group: 'Low' },
      { label: 'Pain (RR)', estimate: 0.9, lower: 0.5, upper: 1.4, group: 'High' },
    ];
    const spec = forestPlot({ id: 'forest', title: 'Effects', description: 'Risk ratios with 95% CIs.', rows, logScale: true });
    const svg = renderChartSvg(spec);
    // per group: series 2g is the intervals, 2g+1 the estimates; group High has 2 rows, Low 1
    assert.equal(plotted(svg, 1), 2);
    assert.equal(plotted(svg, 3), 1);
    assert.equal(spec.table.rows.length, 3);
    assert.deepEqual(spec.table.rows[0], ['Caries (RR)', 0.72, 0.61, 0.85, 'High']);
    assert.match(svg, /Caries \(RR\)/);
  });

  it('a line chart with a band plots every point and lists lower and upper bounds in its table', () => {
    const spec = lineChart({
      id: 'crs',
      title: 'Lowest CRS',
      description: 'Cut-off scores and forecasts with 95% intervals.',
      series: [
        {
          name: 'Lowest CRS',
          points: [
            ['2025-01-01', 500],
            ['2025-02-01', 505],
            ['2025-03-01', 498],
          ],
        },
        { name: 'Forecast', points: [['2025-04-01', 502]], dashed: true },
      ],
      bands: [{ name: '95% interval', points: [['2025-04-01', 490, 514]] }],
    });
    const svg = renderChartSvg(spec);
    assert.equal(plotted(svg, 2), 3); // series 0–1 are the band's two stacked halves
    assert.equal(plotted(svg, 3), 1);
    assert.deepEqual(spec.table.rows.at(-1), ['2025-04-01', null, 502, 490, 514]);
  });
});

describe('layout and assets', () => {
  it('assets get content-hashed addresses; the same bytes the same address', () => {
    const registry = new AssetRegistry();
    const a = registry.add('x.css', 'body{}');
    assert.match(a.url, /^\/assets\/x\.[0-9a-f]{10}\.css$/);
    assert.equal(new AssetRegistry().add('x.css', 'body{}').url, a.url);
    assert.notEqual(new AssetRegistry().add('x.css', 'body{ }').url, a.url);
    assert.equal(registry.find(a.url)?.contentType, 'text/css; charset=utf-8');
  });

  it('a page names its service, links the others, labels demo data, and has no inline script', () => {
    const page = renderDocument({
      title: 'Search',
      serviceTitle: 'Oral health evidence',
      sections: [{ label: 'Search', href: '/', current: true }],
      services: [
        { name: 'oral', title: 'Oral health evidence', url: 'http://127.0.0.1:8001/', current: true },
        { name: 'krt', title: 'Key resources tables', url: 'http://127.0.0.1:8002/', current: false },
      ],
      footer: { dataVersion: 'v1', sources: [{ dataset: 'toolkit', file: 'toolkit.json' }], isDemo: true },
      body: html`<h1>Search</h1>`,
      assets: coreAssets(),
      locale: pageLocale('en', false),
      translations: [],
    }).text;
    assert.match(page, /<html lang="en">/);
    assert.doesNotMatch(page, /class="languages"/);
    assert.match(page, /<title>Search · Oral health evidence<\/title>/);
    assert.match(page, /href="http:\/\/127.0.0.1:8002\/">Key resources tables/);
    assert.match(page, /Demo data\./);
    // The notice opens <main>: every piece of content is in a landmark, and the skip link lands on it.
    assert.match(page, /<a class="skip" href="#main">[^]*<main id="main">\s*<p class="demo-banner" role="note">/);
    assert.match(page, /Data version <code>v1<\/code>/);
    assert.match(page, /Sources: toolkit: toolkit\.json\./);
    assert.equal((page.match(/<script(?![^>]*\bsrc=)[^>]*>/g) ?? []).length, 0);
  });

  it('a French page says so, is framed in French and links its English version', () => {
    const page = renderDocument({
      title: 'Recherche',
      serviceTitle: 'Subventions fédérales',
      sections: [{ label: 'Recherche', href: '/', current: true }],
      services: [],
      footer: {
        dataVersion: 'v1',
        sources: [
          { dataset: 'agreements', file: 'grants.csv' },
          { dataset: 'a-dataset-the-catalogue-does-not-name', file: null },
        ],
        isDemo: true,
        importedAt: '2026-03-04T10:00:00Z',
        stale: { confirmed: { confirmedAt: '2026-03-04T10:00:00Z', ageDays: 31 }, observation: null },
      },
      body: html`<h1>Recherche</h1>`,
      assets: coreAssets(),
      locale: pageLocale('fr', true),
      translations: [{ language: 'en', href: '/?search=eau&lang=en', label: 'English' }],
    }).text;
    assert.match(page, /<html lang="fr">/);
    assert.match(page, /<a href="\/\?search=eau&amp;lang=en" lang="en" hreflang="en">English<\/a>/);
    assert.match(page, /Passer au contenu principal/);
    assert.match(page, /Version des données <code>v1<\/code>, importée le 4 mars 2026\./);
    assert.match(page, /il y a 31 jours/);
    assert.match(page, /<main id="main">\s*<p class="stale-banner" role="note">[^]*<p class="demo-banner" role="note">[^]*<h1>Recherche/);
    // Each dataset by its French name (one the catalogue does not name, as recorded), with its file.
    assert.match(page, /Sources : ententes de subvention : grants\.csv; a-dataset-the-catalogue-does-not-name\./);
    assert.doesNotMatch(page, /Skip to content|Data version|Demo data/);
  });
});

describe('pages in a language the request named', () => {
  it('internal links and GET forms keep the language; the API, assets, other services and POST forms do not get it', () => {
    const markup =
      '<a href="/draws?page=2#list">a</a><a href="/">b</a><a href="/x?lang=en">c</a><a href="/api/draws/">d</a>' +
      '<a href="https://example.org/">e</a><a href="/services/oral/">f</a><link href="/assets/pdi.css" />' +
      '<form method="get" action="/"><input name="q" /></form><form method="post" action="/calculator"></form>';
    const out = keepLanguage(markup, 'fr');
    assert.match(out, /href="\/draws\?page=2&amp;lang=fr#list"/);
    assert.match(out, /href="\/\?lang=fr"/);
    assert.match(out, /href="\/x\?lang=en"/);
    assert.match(out, /href="\/api\/draws\/"/);
    assert.match(out, /href="https:\/\/example.org\/"/);
    assert.match(out, /href="\/services\/oral\/"/);
    assert.match(out, /href="\/assets\/pdi.css"/);
    assert.match(out, /<form method="get" action="\/"><input type="hidden" name="lang" value="fr" \/>/);
    assert.match(out, /<form method="post" action="\/calculator\?lang=fr">/);
  });

  it('the switch links the same page with its query and lang changed', () => {
    assert.equal(languageHref('/draws?category=cec&page=2&lang=fr', 'en'), '/draws?category=cec&page=2&lang=en');
    assert.equal(languageHref('/', 'fr'), '/?lang=fr');
  });
});

describe('charts in the page’s language', () => {
  const points: Array<[string, number]> = [
    ['2025-01-06', 1200],
    ['2025-03-03', 2500],
    ['2025-06-02', 900],
    ['2025-09-01', 3100],
  ];
  const svgText = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
  const chart = (language: 'en' | 'fr') =>
    lineChart({ id: 'sizes', title: 'Sizes', description: 'Sizes over time.', series: [{ name: 'size', points }], language });

  it('a time axis names its months as the language does (Intl), in French and in English', () => {
    const fr = svgText(renderChartSvg(chart('fr')));
    const en = svgText(renderChartSvg(chart('en')));
    const frMonths = new Set(
      Array.from({ length: 12 }, (_, i) =>
        new Intl.DateTimeFormat('fr-CA', { month: 'short', timeZone: 'UTC' }).format(Date.UTC(2025, i, 1)),
      ),
    );
    const enMonths = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    assert.ok(
      fr.some((label) => frMonths.has(label)),
      `a French month among ${fr.join(' | ')}`,
    );
    assert.ok(!fr.some((label) => enMonths.includes(label)), `no English month among ${fr.join(' | ')}`);
    assert.ok(
      en.some((label) => enMonths.includes(label)),
      `an English month among ${en.join(' | ')}`,
    );
  });

  it('value axes group thousands as the language does; a table’s date column is written as the language writes dates', () => {
    const fr = svgText(renderChartSvg(chart('fr')));
    assert.ok(fr.includes('3\u00a0000'), `3 000 among ${fr.join(' | ')}`);
    assert.ok(!fr.some((label) => /^\d{1,3}(,\d{3})+$/.test(label)), `no English thousands among ${fr.join(' | ')}`);
    assert.ok(svgText(renderChartSvg(chart('en'))).includes('3,000'));
    const spec = chart('fr');
    assert.match(chartFigure({ ...spec, table: { ...spec.table, dateColumns: [0] } }).text, /<td>6 janv\. 2025<\/td>/);
    assert.match(chartFigure(spec).text, /<td>2025-01-06<\/td>/);
  });

  it('a data table writes every number of a column with the decimals the column needs (883,1 / 923,0 / 1 222,0)', () => {
    const table = (language: 'en' | 'fr') =>
      tableRows(
        chartFigure(
          barChart({
            id: 'decimals',
            title: 'Means',
            description: 'Means by year.',
            categories: ['2023', '2024', '2025'],
            series: [
              { name: 'mean', values: [883.1, 923, 1222] },
              { name: 'count', values: [4, 12, 1500] },
              { name: 'share', values: [0.125, 0.5, null] },
            ],
            language,
          }),
        ).text,
      );
    assert.deepEqual(table('fr'), [
      ['2023', '883,1', '4', '0,125'],
      ['2024', '923,0', '12', '0,500'],
      ['2025', '1\u00a0222,0', '1\u00a0500', '—'],
    ]);
    assert.deepEqual(
      table('en').map((row) => row[1]),
      ['883.1', '923.0', '1,222.0'],
    );
  });
});
