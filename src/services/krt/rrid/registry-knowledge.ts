// What the imported public registries (registry/: Cellosaurus for cell lines, the Antibody Registry for antibodies)
// say about an identifier or a name, for validation, the knowledge base and suggestions. Read from the database on
// demand (the Antibody Registry alone has millions of entries: they are not held in memory); the registries'
// releases are read once per data version of the service.
import type { Kysely } from 'kysely';
import { getAggregate } from '../../../core/db/datasets.ts';
import { readJson } from '../../../core/db/dialect.ts';
import { catalogKey } from '../extract/identifier.ts';
import type { ResourceType } from '../extract/krt-row.ts';
import { REGISTRY_INFO, REGISTRY_NAMES, registryAggregate, registryNameKey } from '../registry/records.ts';
import type { RegistryDetail, RegistryName, RegistryRelease } from '../registry/records.ts';
import type { KrtDatabase } from '../tables.ts';
import { parseRrid } from './registry.ts';

export interface RegistryEntry {
  /** As the registry writes it (CVCL_0030, AB_2210370). */
  identifier: string;
  registry: RegistryName;
  /** "Cellosaurus", "Antibody Registry". */
  registryTitle: string;
  resourceType: ResourceType;
  name: string;
  synonyms: string[];
  vendor: string | null;
  catalog: string | null;
  species: string | null;
  release: string;
  detail: RegistryDetail;
}

/** What the registries say about one identifier (validate.ts reads it). */
export interface RegistryEvidence {
  /** The release of the registry that issues the identifier's prefix, when its dump is imported; else null. */
  release: { registry: RegistryName; title: string; release: string } | null;
  /** The registry's entry for the identifier (its current entry when the identifier is a former accession). */
  entry: RegistryEntry | null;
  /** The identifier is a former (secondary) accession merged into `entry`. */
  secondary: boolean;
}

const NO_EVIDENCE: RegistryEvidence = { release: null, entry: null, secondary: false };

type EntryRow = {
  identifier: string;
  registry: string;
  resource_type: string;
  name: string;
  synonyms: unknown;
  vendor: string | null;
  catalog: string | null;
  species: string | null;
  release: string;
  detail: unknown;
};

function entryOf(row: EntryRow): RegistryEntry {
  const registry = row.registry as RegistryName;
  return {
    identifier: row.identifier,
    registry,
    registryTitle: REGISTRY_INFO[registry]?.title ?? row.registry,
    resourceType: row.resource_type as ResourceType,
    name: row.name,
    synonyms: readJson<string[]>(row.synonyms),
    vendor: row.vendor,
    catalog: row.catalog,
    species: row.species,
    release: row.release,
    detail: readJson<RegistryDetail>(row.detail),
  };
}

const ENTRY_COLUMNS = [
  'e.identifier',
  'e.registry',
  'e.resource_type',
  'e.name',
  'e.synonyms',
  'e.vendor',
  'e.catalog',
  'e.species',
  'e.release',
  'e.detail',
] as const;

/**
 * The imported registries as a lookup. Knowledge-base and suggestion code call `byName` (a resource name or synonym →
 * the registry entries that carry it, e.g. "HEK293T" → CVCL_0063), `byCatalog` (a catalog number, optionally with
 * its vendor) and `byIdentifier`; validation calls `evidenceFor`.
 */
export class RegistryKnowledge {
  private readonly db: Kysely<KrtDatabase>;
  private readonly versionOf: () => Promise<string | null>;
  private loaded: { key: string; releases: RegistryRelease[] } | null = null;

  /** `versionOf` is the service's data version (ctx.dataVersion.current()): the releases are re-read when it changes. */
  constructor(db: Kysely<KrtDatabase>, versionOf: () => Promise<string | null> = async () => null) {
    this.db = db;
    this.versionOf = versionOf;
  }

  /** The imported registries' releases (none imported: empty). */
  async releases(): Promise<RegistryRelease[]> {
    const key = (await this.versionOf()) ?? 'none';
    if (this.loaded && this.loaded.key === key && key !== 'none') return this.loaded.releases;
    const releases: RegistryRelease[] = [];
    for (const name of REGISTRY_NAMES) {
      const found = await getAggregate<RegistryRelease>(this.db, 'krt', registryAggregate(name));
      if (found) releases.push(found.value);
    }
    this.loaded = { key, releases };
    return releases;
  }

  /** A key of the imported releases (changes with any registry import), for caches of answers that depend on them. */
  async version(): Promise<string> {
    const releases = await this.releases();
    return releases.length ? releases.map((r) => `${r.registry}@${r.imported_at}`).join(',') : 'none';
  }

  /** The entry whose identifier is exactly `identifier`, or whose former accession it is (then `secondary`). */
  async byIdentifier(identifier: string): Promise<{ entry: RegistryEntry; secondary: boolean } | null> {
    const direct = await this.db
      .selectFrom('krt_registry_entries as e')
      .select(ENTRY_COLUMNS)
      .where('e.identifier', '=', identifier)
      .executeTakeFirst();
    if (direct) return { entry: entryOf(direct), secondary: false };
    const merged = await this.db
      .selectFrom('krt_registry_keys as k')
      .innerJoin('krt_registry_entries as e', 'e.identifier', 'k.identifier')
      .select(ENTRY_COLUMNS)
      .where('k.kind', '=', 'accession')
      .where('k.key', '=', identifier)
      .orderBy('e.identifier')
      .executeTakeFirst();
    return merged ? { entry: entryOf(merged), secondary: true } : null;
  }

  /**
   * Entries whose name or a synonym is `name` once folded (case, accents, Greek letters, punctuation and spaces
   * ignored: "HEK-293T", "hek 293t" and "HEK293T" are one key), in identifier order. Several entries can share a
   * name (a synonym of one line is the name of another): the caller decides what an ambiguous name means.
   */
  async byName(name: string, options: { registry?: RegistryName; limit?: number } = {}): Promise<RegistryEntry[]> {
    const key = registryNameKey(name);
    if (key.length < 2) return [];
    return this.byKey('name', key, options);
  }

  /** Entries listing the catalog number (compared as extract/identifier.ts catalogKey); with `vendor`, those of that vendor first. */
  async byCatalog(catalog: string, options: { vendor?: string; registry?: RegistryName; limit?: number } = {}): Promise<RegistryEntry[]> {
    const key = catalogKey(catalog);
    if (key.length < 2) return [];
    const found = await this.byKey('catalog', key, options);
    if (!options.vendor) return found;
    const vendor = registryNameKey(options.vendor);
    const same = (e: RegistryEntry) =>
      [e.vendor, ...(e.detail.suppliers ?? []).map((s) => s.vendor)].some((v) => v && registryNameKey(v) === vendor);
    return [...found.filter(same), ...found.filter((e) => !same(e))];
  }

  private async byKey(
    kind: 'name' | 'catalog',
    key: string,
    options: { registry?: RegistryName; limit?: number },
  ): Promise<RegistryEntry[]> {
    let query = this.db
      .selectFrom('krt_registry_keys as k')
      .innerJoin('krt_registry_entries as e', 'e.identifier', 'k.identifier')
      .select(ENTRY_COLUMNS)
      .where('k.kind', '=', kind)
      .where('k.key', '=', key);
    if (options.registry) query = query.where('e.registry', '=', options.registry);
    const rows = await query
      .orderBy('e.identifier')
      .limit(options.limit ?? 20)
      .execute();
    return rows.map(entryOf);
  }

  /** What validation needs about an RRID as a client wrote it: nothing unless it is well-formed and of a registry imported here. */
  async evidenceFor(input: string): Promise<RegistryEvidence> {
    const parsed = parseRrid(input ?? '');
    if (!parsed.wellFormed || !parsed.normalized) return NO_EVIDENCE;
    const id = parsed.normalized;
    const registry = REGISTRY_NAMES.find((name) => id.startsWith(REGISTRY_INFO[name].rridPrefix));
    if (!registry) return NO_EVIDENCE;
    const release = (await this.releases()).find((r) => r.registry === registry);
    if (!release) return NO_EVIDENCE;
    const found = await this.byIdentifier(id);
    return {
      release: { registry, title: release.title, release: release.release },
      entry: found?.entry ?? null,
      secondary: found?.secondary ?? false,
    };
  }
}
