// A world map shaded by a value per country (a choropleth), server-rendered like every chart: Natural Earth's 1:110m
// country boundaries from the world-atlas package (public domain, read from disk, never a network), keyed by
// ISO 3166-1 alpha-3 and registered with ECharts once. The caller gives the values and the data table beside it.
import { createRequire } from 'node:module';
import * as echarts from 'echarts';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countryCodes from 'i18n-iso-countries';
import type { ChartSpec, ChartTable } from './charts.ts';
import type { Language } from '../i18n/language.ts';

const WORLD_MAP_NAME = 'pdi-world-110m';
let mapRegistered = false;

/** Registers the countries (Antarctica left out: no data names it and it takes a fifth of the height). */
function registerWorld(): void {
  if (mapRegistered) return;
  const require = createRequire(import.meta.url);
  const atlas = require('world-atlas/countries-110m.json') as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const countries = feature(atlas, atlas.objects.countries);
  countries.features = countries.features
    .filter((f) => f.id !== '010')
    .map((f) => ({
      ...f,
      properties: { name: (f.id !== undefined && countryCodes.numericToAlpha3(String(f.id))) || `(${f.properties.name})` },
    }));
  echarts.registerMap(WORLD_MAP_NAME, countries as unknown as Parameters<typeof echarts.registerMap>[1]); // GeoJSON typed by topojson, read by ECharts as the same object
  mapRegistered = true;
}

/** The alpha-3 codes the map draws. */
export function worldMapCodes(): Set<string> {
  registerWorld();
  const map = echarts.getMap(WORLD_MAP_NAME) as { geoJSON?: { features: Array<{ properties: { name: string } }> } } | undefined;
  return new Set((map?.geoJSON?.features ?? []).map((f) => f.properties.name));
}

/** An ISO 3166-1 alpha-2 code as alpha-3 (undefined when it names no country). */
export function alpha3Of(alpha2: string): string | undefined {
  return countryCodes.alpha2ToAlpha3(alpha2.toUpperCase()) || undefined;
}

/** A world map shaded from light to dark by `values` (alpha-3 codes); countries without a value are light grey. */
export function choroplethMap(options: {
  id: string;
  title: string;
  description: string;
  values: Array<{ alpha3: string; value: number }>;
  /** The legend's ends: [high, low]. */
  legend: [string, string];
  table: ChartTable;
  language?: Language;
  height?: number;
}): ChartSpec {
  registerWorld();
  const values = options.values.map((v) => v.value);
  return {
    id: options.id,
    title: options.title,
    description: options.description,
    height: options.height ?? 380,
    language: options.language,
    option: {
      visualMap: {
        type: 'continuous',
        min: values.length ? Math.min(...values) : 0,
        max: values.length ? Math.max(...values) : 1,
        orient: 'horizontal',
        left: 'center',
        bottom: 0,
        text: options.legend,
        inRange: { color: ['#deebf7', '#08306b'] },
        calculable: false,
      },
      series: [
        {
          type: 'map',
          map: WORLD_MAP_NAME,
          roam: false,
          top: 8,
          bottom: 48,
          itemStyle: { areaColor: '#eeeeee', borderColor: '#777777', borderWidth: 0.4 },
          emphasis: { disabled: true },
          label: { show: false },
          data: options.values.map((v) => ({ name: v.alpha3, value: v.value })),
        },
      ],
    },
    table: options.table,
  };
}
