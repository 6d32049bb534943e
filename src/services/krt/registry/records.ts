// An entry of a public registry as pdi keeps it, whichever dump it came from (cellosaurus.ts, antibody-registry.ts),
// and the keys that find it. The identifier is the one the registry writes for the entry (Cellosaurus' AC, the
// Antibody Registry's AB_ identifier), never reshaped.
import { createHash } from 'node:crypto';
import { catalogKey } from '../extract/identifier.ts';
import type { ResourceType } from '../extract/krt-row.ts';
import { foldText } from '../rrid/similarity.ts';

export const REGISTRY_NAMES = ['cellosaurus', 'antibody-registry'] as const;
export type RegistryName = (typeof REGISTRY_NAMES)[number];

/** What each registry is, for reports and recommendations. */
export const REGISTRY_INFO: Record<RegistryName, { title: string; rridPrefix: string; resourceType: ResourceType }> = {
  cellosaurus: { title: 'Cellosaurus', rridPrefix: 'CVCL_', resourceType: 'Experimental model: Cell line' },
  'antibody-registry': { title: 'Antibody Registry', rridPrefix: 'AB_', resourceType: 'Antibody' },
};

export interface RegistryRelease {
  registry: RegistryName;
  title: string;
  /** The registry's release as the file says ("49.0"), or the export's file date when it says none. */
  release: string;
  /** The file's "last update" when it has one. */
  last_update: string | null;
  entries: number;
  source: string;
  imported_at: string;
}

/** The aggregate holding a registry's RegistryRelease (stored with its import's data version). */
export const registryAggregate = (registry: RegistryName) => `registry:${registry}`;

export interface RegistryDetail {
  /** Former accessions merged into this entry (Cellosaurus AS). */
  secondary?: string[];
  /** Every supplier and its catalog number the entry lists (Cellosaurus DR lines of cell banks). */
  suppliers?: { vendor: string; catalog: string }[];
  /** Cellosaurus CA ("Cancer cell line"). */
  category?: string;
  /** Antibody Registry: target, clonality, clone, host organism. */
  target?: string;
  clonality?: string;
  clone?: string;
  host?: string;
}

export interface RegistryRecord {
  registry: RegistryName;
  identifier: string;
  name: string;
  synonyms: string[];
  vendor: string | null;
  catalog: string | null;
  species: string | null;
  detail: RegistryDetail;
}

/** Comparison key of a resource name or synonym: folded (case, accents, Greek letters), letters and digits only ("HEK-293T" ~ "hek293t"). */
export function registryNameKey(name: string): string {
  return foldText(name).replace(/[^a-z0-9]+/g, '');
}

export interface RegistryKey {
  kind: 'name' | 'catalog' | 'accession';
  key: string;
}

/** The keys that find a record: its name and synonyms, its catalog numbers, its secondary accessions. */
export function keysOf(record: RegistryRecord): RegistryKey[] {
  const keys = new Map<string, RegistryKey>();
  const add = (kind: RegistryKey['kind'], key: string) => {
    // Keys too short to tell resources apart ("3T3" folds to 3 characters and stays; "A" does not).
    if (key.length >= 2) keys.set(`${kind}\u0000${key}`, { kind, key });
  };
  for (const name of [record.name, ...record.synonyms]) add('name', registryNameKey(name));
  const catalogs = [record.catalog, ...(record.detail.suppliers ?? []).map((s) => s.catalog)];
  for (const catalog of catalogs) if (catalog) add('catalog', catalogKey(catalog));
  for (const secondary of record.detail.secondary ?? []) add('accession', secondary);
  return [...keys.values()];
}

/** What a record's stored fields hash to (the release aside: a new release that changes nothing else leaves the row). */
export function contentHash(record: RegistryRecord): string {
  const { registry, identifier, name, synonyms, vendor, catalog, species, detail } = record;
  return createHash('sha256')
    .update(JSON.stringify([registry, identifier, name, synonyms, vendor, catalog, species, detail]))
    .digest('base64url')
    .slice(0, 22);
}
