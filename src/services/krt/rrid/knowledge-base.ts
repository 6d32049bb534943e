// The RRID knowledge base: what the papers of the store say about resources. Each paper contributes
// observations (name, vendor, catalog numbers, RRID, type) from its key resources table or its text; entries
// aggregate them per resource (per RRID, else per vendor + catalog number, else per software name) with the
// evidence kept: which papers, how many mentions, which names, vendors and catalog numbers.
//
// Storage-agnostic and incremental: addPaper() replaces a paper's observations (idempotent), removePaper()
// takes them out, toJSON()/fromJSON() give a plain serialisable snapshot (papers' observations, stable entry
// ids, calibration) from which the indexes are rebuilt.
//
// Identifiers are facts. An entry's RRID is one that a paper wrote in its registry's shape. An RRID written
// broken ("RRID: A B_2127 260") is an unresolved mention: it joins the entry of its repaired form
// ("AB_2127260", spaces and separators fixed, nothing cut or padded) only while some paper of the base writes
// that form verbatim; otherwise it stays with the row's catalog number, or alone, and is never suggested.

import { catalogKey, parseIdentifierText } from '../extract/identifier.ts';
import { isNewSource, isResourceType, type KrtRow, type ResourceType } from '../extract/krt-row.ts';
import { canonicalVendor, vendorKey } from '../extract/vendors.ts';
import type { Calibration } from './calibration-map.ts';
import { nameTokens, TokenStats } from './similarity.ts';

export interface KbObservation {
  /**
   * Entry key: `RRID:<id>`, `CAT:<vendor key>:<catalog key>`, `NAME:software:<name key>` or
   * `UNRESOLVED:<as written>`. A repaired mention is counted under `RRID:<repair>` instead (see above).
   */
  key: string;
  /** An RRID the source wrote in its registry's shape. */
  rrid: string | null;
  /** An RRID the source wrote broken, as written (without "RRID:"). */
  written?: string;
  /** Its form with spaces and separators fixed, used only when a paper writes that form verbatim. */
  repair?: string;
  name: string;
  vendor: string;
  catalogs: string[];
  type: ResourceType;
}

export interface KbPaper {
  /** Where the observations come from: `jats-table`, `text-pattern`, … */
  provider: string;
  observations: KbObservation[];
  /** RRIDs the paper writes verbatim elsewhere than in its observations (e.g. its methods text): evidence for repairs. */
  attested?: string[];
}

export interface KbEntry {
  id: number;
  key: string;
  rrid: string | null;
  /** Majority type over the mentions. */
  type: ResourceType;
  names: Map<string, number>;
  vendors: Map<string, number>;
  catalogs: Map<string, number>;
  types: Map<ResourceType, number>;
  /** DOI → mentions in that paper. */
  papers: Map<string, number>;
  /** Broken spellings repaired into this entry (as written → mentions). */
  repairedFrom: Map<string, number>;
  mentions: number;
  /** Union of name tokens (for retrieval). */
  tokens: Set<string>;
}

export interface KbSnapshot {
  format: 'krt-rrid-kb';
  /** 2: observations keep broken RRIDs as written (version 1 stored repaired, cut or padded forms). */
  version: 2;
  nextId: number;
  ids: Record<string, number>;
  papers: Record<string, KbPaper>;
  calibration: Calibration | null;
}

function bump<K>(map: Map<K, number>, key: K, delta: number): void {
  const next = (map.get(key) ?? 0) + delta;
  if (next <= 0) map.delete(key);
  else map.set(key, next);
}

/** The key counted most often (the first of equal counts), or undefined for an empty map. */
export function majority<K>(map: Map<K, number>): K | undefined {
  let best: K | undefined;
  let bestCount = -1;
  for (const [key, count] of map)
    if (count > bestCount) {
      best = key;
      bestCount = count;
    }
  return best;
}

/** SOURCE text that names a supplier (not "This study", a citation or a URL). */
function supplierOf(source: string): string {
  const s = source.trim();
  if (
    !s ||
    !/\p{L}{2}/u.test(s) ||
    isNewSource(s) ||
    /et al|\b(19|20)\d\d\b|^\(|^ref|https?:|www\.|\bgift\b|\bkindly\b|\blab(oratory)?\s+of\b|^n\/?a$/i.test(s)
  )
    return '';
  return canonicalVendor(s);
}

/** Resource name without dilutions and usage notes ("Rabbit anti-GFP (1:1000)" → "Rabbit anti-GFP"). */
export function cleanResourceName(name: string): string {
  return name
    .replace(/\((?:[^()]*\b(?:1\s*:\s*\d[\d,]*|dilution|wb|if|ihc|icc|facs|ip)\b[^()]*)\)/gi, ' ')
    .replace(/\b1\s*:\s*\d[\d,]*\b/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/[\s,;:]+$/, '')
    .trim();
}

function softwareNameKey(name: string): string {
  return nameTokens(name, { dropVersions: true }).sort().join(' ');
}

/** Observations a key resources table row gives (one per RRID; else one per vendor catalog; else software). */
function observationsOfRow(row: KrtRow): KbObservation[] {
  const parts = parseIdentifierText(row.IDENTIFIER);
  const rrids = [...new Set(parts.filter((p) => p.kind === 'rrid').map((p) => p.value))];
  const broken = parts.filter((p) => p.kind === 'unresolved-rrid');
  const catalogs = [...new Set(parts.filter((p) => p.kind === 'catalog').map((p) => p.value))];
  const vendor = supplierOf(row.SOURCE) || [...new Set(parts.filter((p) => p.kind === 'catalog' && p.label).map((p) => p.label))][0] || '';
  const name = cleanResourceName(row['RESOURCE NAME']);
  const type = row['RESOURCE TYPE'];
  if (!name) return [];
  // Several RRIDs in one row usually mean several resources written together; the catalog numbers then
  // cannot be attributed, so they are kept only when there is one RRID.
  const one = rrids.length + broken.length === 1;
  const catalogKeyed = catalogs.length > 0 ? `CAT:${vendorKey(vendor)}:${catalogKey(catalogs[0])}` : '';
  const out: KbObservation[] = rrids.map((rrid) => ({ key: `RRID:${rrid}`, rrid, name, vendor, catalogs: one ? catalogs : [], type }));
  for (const part of broken) {
    const key = one && catalogKeyed ? catalogKeyed : `UNRESOLVED:${part.value}`;
    const o: KbObservation = { key, rrid: null, written: part.value, name, vendor, catalogs: one ? catalogs : [], type };
    if (part.repair) o.repair = part.repair;
    out.push(o);
  }
  if (out.length > 0) return out;
  if (catalogs.length > 0) return [{ key: catalogKeyed, rrid: null, name, vendor, catalogs, type }];
  if (type === 'Software/code') {
    const key = softwareNameKey(name);
    if (key) return [{ key: `NAME:software:${key}`, rrid: null, name, vendor, catalogs: [], type }];
  }
  return [];
}

export class RridKnowledgeBase {
  private readonly paperData = new Map<string, KbPaper>();
  private readonly entriesByKey = new Map<string, KbEntry>();
  private readonly entriesById = new Map<number, KbEntry>();
  private readonly ids = new Map<string, number>();
  private nextId = 1;
  private readonly catalogIndex = new Map<string, Set<number>>();
  private readonly tokenIndex = new Map<string, Set<number>>();
  private readonly counted = new Set<number>();
  /** RRID → verbatim writings in the papers of the base (observations and `attested` lists). */
  private readonly attested = new Map<string, number>();
  /** Repair → the broken mentions that would join it, with the paper they come from. */
  private readonly pendingRepairs = new Map<string, Set<{ doi: string; o: KbObservation }>>();
  /** The key each applied observation was counted under (a repaired mention moves when attestation changes). */
  private readonly appliedKey = new Map<KbObservation, string>();
  /** Entry key → the observations counted in it, with their paper: what each paper wrote for that entry. */
  private readonly observationsByKey = new Map<string, Map<KbObservation, string>>();
  readonly tokenStats = new TokenStats();
  /** Maps raw suggestion scores to probabilities; null until calibrate() (see calibration.ts). */
  calibration: Calibration | null = null;

  // ---- building -------------------------------------------------------------------------------------------

  /**
   * Adds (or replaces) a paper's rows, with the RRIDs its text writes verbatim elsewhere (`attested`, optional).
   * Returns the number of observations taken from the rows.
   */
  addPaper(doi: string, rows: readonly KrtRow[], provider = 'jats-table', attested: readonly string[] = []): number {
    const observations = rows.flatMap((row) => observationsOfRow(row));
    this.addObservations(doi, attested.length ? { provider, observations, attested: [...attested] } : { provider, observations });
    return observations.length;
  }

  /** Adds (or replaces) a paper's observations as stored in a snapshot. */
  addObservations(doi: string, paper: KbPaper): void {
    if (this.paperData.has(doi)) this.removePaper(doi);
    const observations = paper.observations.filter((o) => isResourceType(o.type) && o.name && o.key);
    const stored: KbPaper = { provider: paper.provider, observations };
    if (paper.attested?.length) stored.attested = [...new Set(paper.attested)].sort();
    this.paperData.set(doi, stored);
    for (const rrid of this.verbatimOf(stored)) this.attest(rrid, +1);
    for (const o of observations) {
      if (o.repair && !o.rrid) {
        const set = this.pendingRepairs.get(o.repair) ?? new Set();
        set.add({ doi, o });
        this.pendingRepairs.set(o.repair, set);
        // Both places the mention can be counted get their ids now, so that moving it never makes new ids.
        this.idOf(o.key);
        this.idOf(`RRID:${o.repair}`);
      }
      this.applyAt(doi, o, this.effectiveKey(o), +1);
    }
  }

  removePaper(doi: string): boolean {
    const paper = this.paperData.get(doi);
    if (!paper) return false;
    for (const o of paper.observations) {
      const key = this.appliedKey.get(o);
      if (key) this.applyAt(doi, o, key, -1);
      if (o.repair && !o.rrid) {
        const set = this.pendingRepairs.get(o.repair);
        for (const item of set ?? []) if (item.o === o) set!.delete(item);
        if (set?.size === 0) this.pendingRepairs.delete(o.repair);
      }
    }
    this.paperData.delete(doi);
    for (const rrid of this.verbatimOf(paper)) this.attest(rrid, -1);
    return true;
  }

  /** RRIDs a paper writes verbatim: those of its observations and its `attested` list. */
  private verbatimOf(paper: KbPaper): string[] {
    const out: string[] = [];
    for (const o of paper.observations) if (o.rrid) out.push(o.rrid);
    for (const rrid of paper.attested ?? []) out.push(rrid);
    return out;
  }

  /** Counts a verbatim writing; when an RRID becomes (un)attested, the broken mentions of it move. */
  private attest(rrid: string, delta: 1 | -1): void {
    const before = this.attested.get(rrid) ?? 0;
    const after = before + delta;
    if (after > 0) this.attested.set(rrid, after);
    else this.attested.delete(rrid);
    if (before > 0 === after > 0) return;
    for (const { doi, o } of this.pendingRepairs.get(rrid) ?? []) {
      const from = this.appliedKey.get(o);
      const to = this.effectiveKey(o);
      if (from === to) continue;
      if (from) this.applyAt(doi, o, from, -1);
      this.applyAt(doi, o, to, +1);
    }
  }

  /** Whether some paper of the base writes this RRID verbatim. */
  isAttested(rrid: string): boolean {
    return (this.attested.get(rrid) ?? 0) > 0;
  }

  private effectiveKey(o: KbObservation): string {
    if (!o.rrid && o.repair && this.isAttested(o.repair)) return `RRID:${o.repair}`;
    return o.key;
  }

  /** The stable id of an entry key (allocated on first use, kept in snapshots). */
  private idOf(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(key, id);
    }
    return id;
  }

  private applyAt(doi: string, o: KbObservation, key: string, delta: 1 | -1): void {
    let written = this.observationsByKey.get(key);
    if (delta > 0) {
      this.appliedKey.set(o, key);
      if (!written) this.observationsByKey.set(key, (written = new Map()));
      written.set(o, doi);
    } else {
      this.appliedKey.delete(o);
      written?.delete(o);
      if (written?.size === 0) this.observationsByKey.delete(key);
    }
    this.apply(doi, o, key, delta);
  }

  private apply(doi: string, o: KbObservation, key: string, delta: 1 | -1): void {
    let entry = this.entriesByKey.get(key);
    if (!entry) {
      if (delta < 0) return;
      const id = this.idOf(key);
      entry = {
        id,
        key,
        rrid: key.startsWith('RRID:') ? key.slice(5) : null,
        type: o.type,
        names: new Map(),
        vendors: new Map(),
        catalogs: new Map(),
        types: new Map(),
        papers: new Map(),
        repairedFrom: new Map(),
        mentions: 0,
        tokens: new Set(),
      };
      this.entriesByKey.set(key, entry);
      this.entriesById.set(id, entry);
    }
    bump(entry.names, o.name, delta);
    if (o.vendor) bump(entry.vendors, o.vendor, delta);
    if (o.written && entry.rrid) bump(entry.repairedFrom, o.written, delta);
    for (const c of o.catalogs) {
      bump(entry.catalogs, c, delta);
      const key = catalogKey(c);
      const set = this.catalogIndex.get(key) ?? new Set<number>();
      // A catalog number stays indexed while any spelling of it is left in the entry.
      const stillThere = [...entry.catalogs.keys()].some((k) => catalogKey(k) === key);
      if (stillThere) set.add(entry.id);
      else set.delete(entry.id);
      if (set.size) this.catalogIndex.set(key, set);
      else this.catalogIndex.delete(key);
    }
    bump(entry.types, o.type, delta);
    bump(entry.papers, doi, delta);
    entry.mentions += delta;
    entry.type = majority(entry.types) ?? entry.type;
    if (entry.mentions <= 0) {
      this.setTokens(entry, new Set());
      this.entriesByKey.delete(entry.key);
      this.entriesById.delete(entry.id);
      return;
    }
    const next = new Set<string>();
    const software = entry.type === 'Software/code';
    for (const name of entry.names.keys()) for (const t of nameTokens(name, { dropVersions: software })) next.add(t);
    this.setTokens(entry, next);
  }

  /** Replaces an entry's token set in the index and in the document frequencies (one document per entry). */
  private setTokens(entry: KbEntry, next: Set<string>): void {
    if (this.counted.has(entry.id)) this.tokenStats.add(entry.tokens, -1);
    for (const t of entry.tokens) if (!next.has(t)) this.unindexToken(t, entry.id);
    for (const t of next) {
      const set = this.tokenIndex.get(t) ?? new Set<number>();
      set.add(entry.id);
      this.tokenIndex.set(t, set);
    }
    entry.tokens = next;
    if (next.size > 0) {
      this.tokenStats.add(next, +1);
      this.counted.add(entry.id);
    } else this.counted.delete(entry.id);
  }

  private unindexToken(token: string, id: number): void {
    const set = this.tokenIndex.get(token);
    if (!set) return;
    set.delete(id);
    if (set.size === 0) this.tokenIndex.delete(token);
  }

  // ---- reading --------------------------------------------------------------------------------------------

  get size(): number {
    return this.entriesById.size;
  }
  get paperCount(): number {
    return this.paperData.size;
  }
  papers(): IterableIterator<string> {
    return this.paperData.keys();
  }
  /**
   * The observations counted in an entry, each with the paper that wrote it: which name, supplier and catalog numbers
   * each paper wrote with the entry's identifier.
   */
  observationsOf(entry: KbEntry): { doi: string; observation: KbObservation }[] {
    return [...(this.observationsByKey.get(entry.key) ?? [])].map(([observation, doi]) => ({ doi, observation }));
  }
  paper(doi: string): KbPaper | undefined {
    return this.paperData.get(doi);
  }
  hasPaper(doi: string): boolean {
    return this.paperData.has(doi);
  }
  entries(): IterableIterator<KbEntry> {
    return this.entriesById.values();
  }
  entryById(id: number): KbEntry | undefined {
    return this.entriesById.get(id);
  }
  entryByRrid(rrid: string): KbEntry | undefined {
    return this.entriesByKey.get(`RRID:${rrid.replace(/^RRID:\s*/i, '')}`);
  }
  hasRrid(rrid: string): boolean {
    return this.entryByRrid(rrid) !== undefined;
  }

  /** Entries that list this catalog number (any spelling: "A-11039" = "A11039"). */
  entriesWithCatalog(catalog: string): KbEntry[] {
    const ids = this.catalogIndex.get(catalogKey(catalog));
    return ids ? [...ids].map((id) => this.entriesById.get(id)!).filter(Boolean) : [];
  }

  /** Entries sharing a name token. */
  entriesWithToken(token: string): KbEntry[] {
    const ids = this.tokenIndex.get(token);
    return ids ? [...ids].map((id) => this.entriesById.get(id)!).filter(Boolean) : [];
  }

  /**
   * RRIDs the base links to a vendor's catalog number, most papers first: the majority decides, the others stay
   * visible as conflicting evidence. Empty when no paper links that catalog number to an RRID.
   */
  rridsForCatalog(catalog: string, vendor = ''): { rrid: string; entry: KbEntry; papers: number; vendorMatches: boolean }[] {
    const wanted = vendor ? vendorKey(vendor) : '';
    return this.entriesWithCatalog(catalog)
      .filter((e) => e.rrid)
      .map((entry) => ({
        rrid: entry.rrid!,
        entry,
        papers: entry.papers.size,
        vendorMatches: !wanted || [...entry.vendors.keys()].some((v) => vendorKey(v) === wanted),
      }))
      .filter((x) => x.vendorMatches)
      .sort((a, b) => b.papers - a.papers || b.entry.mentions - a.entry.mentions || a.entry.id - b.entry.id);
  }

  // ---- serialisation --------------------------------------------------------------------------------------

  toJSON(): KbSnapshot {
    const papers: Record<string, KbPaper> = {};
    for (const [doi, paper] of [...this.paperData].sort(([a], [b]) => a.localeCompare(b))) papers[doi] = paper;
    return {
      format: 'krt-rrid-kb',
      version: 2,
      nextId: this.nextId,
      ids: Object.fromEntries(this.ids),
      papers,
      calibration: this.calibration,
    };
  }

  static fromJSON(snapshot: KbSnapshot): RridKnowledgeBase {
    if (!isCurrentSnapshot(snapshot)) throw new Error('not a krt-rrid-kb version 2 snapshot');
    const kb = new RridKnowledgeBase();
    for (const [key, id] of Object.entries(snapshot.ids)) kb.ids.set(key, id);
    let maxId = 0;
    for (const id of kb.ids.values()) maxId = Math.max(maxId, id);
    kb.nextId = Math.max(snapshot.nextId, maxId + 1);
    for (const [doi, paper] of Object.entries(snapshot.papers)) kb.addObservations(doi, paper);
    kb.calibration = snapshot.calibration;
    return kb;
  }
}

/** Whether a stored snapshot can be loaded (older versions kept repaired identifiers; they are rebuilt instead). */
export function isCurrentSnapshot(snapshot: unknown): snapshot is KbSnapshot {
  const s = snapshot as Partial<KbSnapshot> | null;
  return s?.format === 'krt-rrid-kb' && s.version === 2;
}

/** What the suggestion and consensus code read of a knowledge-base entry. */
export interface SuggestableEntry {
  id: number;
  rrid: string | null;
  type: ResourceType;
  names: Map<string, number>;
  vendors: Map<string, number>;
  catalogs: Map<string, number>;
  papers: { readonly size: number };
  mentions: number;
  repairedFrom: Map<string, number>;
}
