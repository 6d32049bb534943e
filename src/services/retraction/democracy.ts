// The democracy country-year panel: descriptive summaries computed at import (overview, visualisations) and
// the panel as the Bayesian model reads it. Descriptive correlations here are cross-country associations of
// country means; the adjusted effects come from the model (model.ts).
import { putAggregate } from '../../core/db/datasets.ts';
import { readJson } from '../../core/db/dialect.ts';
import type { PanelRow } from './bayes/types.ts';
import type { PanelRecord } from './sources/panel.ts';
import type { RetractionDb } from './tables.ts';

export const PANEL_AGGREGATES = { summary: 'democracy_summary', visualizations: 'democracy_visualizations' } as const;

export const DEMOCRACY_PREDICTOR = 'democracy_index';

/** A panel row as stored: the importer's record. */
export type StoredPanelRow = PanelRecord;

export async function readPanel(db: RetractionDb): Promise<StoredPanelRow[]> {
  const rows = await db
    .selectFrom('retraction_panel')
    .select(['country', 'iso3', 'region', 'year', 'democracy_index', 'publications', 'retractions', 'covariates'])
    .orderBy('country')
    .orderBy('year')
    .execute();
  return rows.map((r) => ({
    country: r.country,
    iso3: r.iso3,
    region: r.region,
    year: Number(r.year),
    democracy_index: r.democracy_index === null ? null : Number(r.democracy_index),
    publications: r.publications === null ? null : Number(r.publications),
    retractions: r.retractions === null ? null : Number(r.retractions),
    covariates: readJson<Record<string, number | null>>(r.covariates),
  }));
}

/** Rows as the model takes them: democracy_index first, then the covariates in file order. */
export function modelPanel(rows: readonly StoredPanelRow[], covariates: readonly string[]): { rows: PanelRow[]; predictors: string[] } {
  const predictors = [DEMOCRACY_PREDICTOR, ...covariates];
  return {
    predictors,
    rows: rows.map((r) => ({
      country: r.country,
      year: r.year,
      publications: r.publications ?? Number.NaN,
      retractions: r.retractions ?? Number.NaN,
      predictors: Object.fromEntries([[DEMOCRACY_PREDICTOR, r.democracy_index], ...covariates.map((c) => [c, r.covariates[c] ?? null])]),
    })),
  };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const round = (x: number | null, digits = 4) => (x === null || !Number.isFinite(x) ? null : Math.round(x * 10 ** digits) / 10 ** digits);
/** Retractions per 1,000 publications. */
const per1000 = (retractions: number, publications: number) => (publications > 0 ? round((1000 * retractions) / publications) : null);

export function pearson(x: readonly number[], y: readonly number[]): number | null {
  const n = x.length;
  if (n < 3) return null;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0,
    sxx = 0,
    syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : null;
}

/** Ranks from 1, ties sharing their average rank. */
function ranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    for (let k = i; k <= j; k++) out[order[k][1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}

/** 95% interval of a Pearson r by Fisher's z transform (normal approximation, n ≥ 4). */
function fisherInterval(r: number, n: number): { lower: number; upper: number } | null {
  if (n < 4 || Math.abs(r) >= 1) return null;
  const z = Math.atanh(r);
  const half = 1.959963984540054 / Math.sqrt(n - 3);
  return { lower: Math.tanh(z - half), upper: Math.tanh(z + half) };
}

export interface PanelSummary {
  rows: number;
  countries: number;
  regions: string[];
  years: { first: number; last: number; count: number } | null;
  predictors: string[];
  covariates: string[];
  complete_rows: number;
  total_publications: number;
  total_retractions: number;
  retractions_per_1000_publications: number | null;
  democracy_index: { mean: number | null; min: number | null; max: number | null };
}

function summarisePanel(rows: readonly StoredPanelRow[], covariates: string[]): PanelSummary {
  const predictors = [DEMOCRACY_PREDICTOR, ...covariates];
  const years = [...new Set(rows.map((r) => r.year))].sort((a, b) => a - b);
  const democracy = rows.map((r) => r.democracy_index).filter((v): v is number => v !== null);
  let publications = 0,
    retractions = 0;
  for (const r of rows) {
    if (r.publications !== null && r.retractions !== null) {
      publications += r.publications;
      retractions += r.retractions;
    }
  }
  const complete = rows.filter(
    (r) =>
      r.publications !== null &&
      r.publications > 0 &&
      r.retractions !== null &&
      r.democracy_index !== null &&
      covariates.every((c) => r.covariates[c] !== null && r.covariates[c] !== undefined),
  ).length;
  return {
    rows: rows.length,
    countries: new Set(rows.map((r) => r.country)).size,
    regions: [...new Set(rows.map((r) => r.region).filter((r): r is string => r !== null))].sort(),
    years: years.length ? { first: years[0], last: years[years.length - 1], count: years.length } : null,
    predictors,
    covariates,
    complete_rows: complete,
    total_publications: publications,
    total_retractions: retractions,
    retractions_per_1000_publications: per1000(retractions, publications),
    democracy_index: {
      mean: round(mean(democracy)),
      min: democracy.length ? Math.min(...democracy) : null,
      max: democracy.length ? Math.max(...democracy) : null,
    },
  };
}

export interface DemocracyVisualizations {
  scatter: {
    description: string;
    points: {
      country: string;
      iso3: string | null;
      region: string | null;
      democracy_index: number;
      retraction_rate: number;
      publications: number;
      retractions: number;
      years: number;
    }[];
    correlation: {
      pearson_r: number | null;
      pearson_95ci: { lower: number; upper: number } | null;
      spearman_rho: number | null;
      n: number;
    };
  };
  temporal_trends: {
    year: number;
    countries: number;
    publications: number;
    retractions: number;
    retraction_rate: number | null;
    mean_democracy_index: number | null;
  }[];
  regional_summary: {
    region: string;
    countries: number;
    publications: number;
    retractions: number;
    retraction_rate: number | null;
    mean_democracy_index: number | null;
  }[];
  world_map: {
    iso3: string;
    country: string;
    region: string | null;
    latest_year: number;
    democracy_index: number | null;
    publications: number;
    retractions: number;
    retraction_rate: number | null;
  }[];
}

/** Rates are retractions per 1,000 publications, pooled over the rows where both counts are known. */
function computeVisualizations(rows: readonly StoredPanelRow[]): DemocracyVisualizations {
  const byCountry = new Map<string, StoredPanelRow[]>();
  for (const r of rows) byCountry.set(r.country, [...(byCountry.get(r.country) ?? []), r]);
  const counted = (list: readonly StoredPanelRow[]) => {
    let publications = 0,
      retractions = 0;
    for (const r of list) {
      if (r.publications !== null && r.retractions !== null) {
        publications += r.publications;
        retractions += r.retractions;
      }
    }
    return { publications, retractions };
  };
  const points: DemocracyVisualizations['scatter']['points'] = [];
  const world: DemocracyVisualizations['world_map'] = [];
  for (const [country, list] of [...byCountry.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const democracy = mean(list.map((r) => r.democracy_index).filter((v): v is number => v !== null));
    const { publications, retractions } = counted(list);
    const first = list[0];
    if (democracy !== null && publications > 0) {
      points.push({
        country,
        iso3: first.iso3,
        region: first.region,
        democracy_index: round(democracy)!,
        retraction_rate: per1000(retractions, publications)!,
        publications,
        retractions,
        years: list.length,
      });
    }
    if (first.iso3) {
      const latest = list.reduce((a, b) => (b.year > a.year ? b : a));
      world.push({
        iso3: first.iso3,
        country,
        region: first.region,
        latest_year: latest.year,
        democracy_index: latest.democracy_index,
        publications,
        retractions,
        retraction_rate: per1000(retractions, publications),
      });
    }
  }
  const x = points.map((p) => p.democracy_index);
  const y = points.map((p) => p.retraction_rate);
  const r = pearson(x, y);

  const byYear = new Map<number, StoredPanelRow[]>();
  for (const row of rows) byYear.set(row.year, [...(byYear.get(row.year) ?? []), row]);
  const temporal_trends = [...byYear.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([year, list]) => {
      const { publications, retractions } = counted(list);
      return {
        year,
        countries: new Set(list.map((l) => l.country)).size,
        publications,
        retractions,
        retraction_rate: per1000(retractions, publications),
        mean_democracy_index: round(mean(list.map((l) => l.democracy_index).filter((v): v is number => v !== null))),
      };
    });

  const byRegion = new Map<string, StoredPanelRow[]>();
  for (const row of rows) byRegion.set(row.region ?? 'not stated', [...(byRegion.get(row.region ?? 'not stated') ?? []), row]);
  const regional_summary = [...byRegion.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([region, list]) => {
      const { publications, retractions } = counted(list);
      return {
        region,
        countries: new Set(list.map((l) => l.country)).size,
        publications,
        retractions,
        retraction_rate: per1000(retractions, publications),
        mean_democracy_index: round(mean(list.map((l) => l.democracy_index).filter((v): v is number => v !== null))),
      };
    });

  return {
    scatter: {
      description:
        'One point per country: mean democracy index over its years against retractions per 1,000 publications pooled over its years. Pearson r with a Fisher-z 95% interval, and Spearman rank correlation; a descriptive association, not adjusted for covariates or year (see statistical-results for the model).',
      points,
      correlation: {
        pearson_r: round(r),
        pearson_95ci: r === null ? null : fisherInterval(r, points.length),
        spearman_rho: round(pearson(ranks(x), ranks(y))),
        n: points.length,
      },
    },
    temporal_trends,
    regional_summary,
    world_map: world,
  };
}

export async function recomputePanelAggregates(trx: RetractionDb, dataVersion: string, covariates: string[]): Promise<void> {
  const rows = await readPanel(trx);
  await putAggregate(trx, 'retraction', PANEL_AGGREGATES.summary, dataVersion, summarisePanel(rows, covariates));
  await putAggregate(trx, 'retraction', PANEL_AGGREGATES.visualizations, dataVersion, computeVisualizations(rows));
}
