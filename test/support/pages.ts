// Reading the pages' HTML in tests: the figures by id, the data elements ECharts drew per series (it marks
// each with its series and data index; legend icons are not data), and a figure's data table.

/** The figures of a page (`<figure class="chart" id="…">…</figure>`), by id. */
export function figures(page: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of page.matchAll(/<figure class="chart" id="([^"]+)">([\s\S]*?)<\/figure>/g)) found.set(m[1], m[2]);
  return found;
}

/** How many data items of series `series` the chart drew. */
export function plotted(svg: string, series: number): number {
  return new Set(
    [...svg.matchAll(new RegExp(`ecmeta_series_index="${series}" ecmeta_data_index="(\\d+)" ecmeta_ssr_type="chart"`, 'g'))].map(
      (m) => m[1],
    ),
  ).size;
}

/** The series indexes that drew at least one data item. */
export function seriesDrawn(svg: string): number[] {
  return [
    ...new Set([...svg.matchAll(/ecmeta_series_index="(\d+)" ecmeta_data_index="\d+" ecmeta_ssr_type="chart"/g)].map((m) => Number(m[1]))),
  ].sort((a, b) => a - b);
}

/** The body rows of a figure's data table, as cell texts (entities decoded). */
export function tableRows(figure: string): string[][] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(figure)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1].matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((c) => decode(c[1].trim())),
  );
}

export function decode(text: string): string {
  return text
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The visible text of an HTML fragment, with runs of white space folded. */
export function textOf(fragment: string): string {
  return decode(fragment).replace(/\s+/g, ' ').trim();
}
