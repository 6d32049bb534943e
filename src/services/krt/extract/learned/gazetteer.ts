// A gazetteer learned from authors' key resources tables: the names (and their variants, names.ts) that papers list
// as key resources, with how many papers list each, the types they give it, and — from the same papers' texts — how
// often a paper that mentions the name also lists it (a name every methods section mentions but no table lists,
// such as "PBS", earns a low rate). Names are found in text as the longest run of normalised words (a word trie).
//
// For training, each paper's own contribution can be left out (`without`), so that the features of a training
// paper's mentions are what they would be for a paper the gazetteer has never seen.

import { RESOURCE_TYPES, type ResourceType } from '../krt-row.ts';
import { nameVariants, nameKey, usableKey, type Word } from './names.ts';

export interface GazetteerStats {
  /** Papers whose table lists the name. */
  listed: number;
  /** Papers whose text mentions the name, and of those, papers that also list it. */
  mentioned: number;
  mentionedListed: number;
  /** Types the tables give it (counts over listing papers). */
  types: Partial<Record<ResourceType, number>>;
}

/** Stored compactly: key → [listed, mentioned, mentionedListed, "typeIndex:count,…"] (RESOURCE_TYPES order). */
export interface GazetteerSnapshot {
  format: 'krt-gazetteer';
  version: 2;
  entries: Record<string, [number, number, number, string]>;
}

interface TrieNode {
  next: Map<string, TrieNode>;
  key: string | null;
}

export interface GazetteerHit {
  key: string;
  /** Word positions [from, to) in the words matched against. */
  from: number;
  to: number;
}

export interface PaperContribution {
  listed: Map<string, ResourceType>;
  mentioned: Set<string>;
}

export class Gazetteer {
  private readonly stats = new Map<string, GazetteerStats>();
  private readonly root: TrieNode = { next: new Map(), key: null };

  /** Keys (usable variants) of the names a table lists, with the row's type. */
  static keysOfRows(rows: readonly { name: string; type: ResourceType }[]): Map<string, ResourceType> {
    const out = new Map<string, ResourceType>();
    for (const row of rows)
      for (const variant of nameVariants(row.name)) {
        const key = nameKey(variant);
        if (usableKey(key) && !out.has(key)) out.set(key, row.type);
      }
    return out;
  }

  /** Adds a paper: the keys its table lists (with types). Mentions are added with addMentions once all are listed. */
  addListed(listed: ReadonlyMap<string, ResourceType>): void {
    for (const [key, type] of listed) {
      const s = this.entry(key);
      s.listed++;
      s.types[type] = (s.types[type] ?? 0) + 1;
      this.insert(key);
    }
  }

  /** Adds which keys a paper's text mentions (and whether its table lists them). */
  addMentions(mentioned: ReadonlySet<string>, listed: ReadonlyMap<string, ResourceType>): void {
    for (const key of mentioned) {
      const s = this.stats.get(key);
      if (!s) continue;
      s.mentioned++;
      if (listed.has(key)) s.mentionedListed++;
    }
  }

  private entry(key: string): GazetteerStats {
    let s = this.stats.get(key);
    if (!s) {
      s = { listed: 0, mentioned: 0, mentionedListed: 0, types: {} };
      this.stats.set(key, s);
    }
    return s;
  }

  private insert(key: string): void {
    let node = this.root;
    for (const word of key.split(' ')) {
      let next = node.next.get(word);
      if (!next) {
        next = { next: new Map(), key: null };
        node.next.set(word, next);
      }
      node = next;
    }
    node.key = key;
  }

  /** Statistics of a key, with one paper's contribution left out when given. */
  get(key: string, without?: PaperContribution): GazetteerStats | null {
    const s = this.stats.get(key);
    if (!s) return null;
    if (!without) return s;
    const listedType = without.listed.get(key);
    const listed = s.listed - (listedType ? 1 : 0);
    const mentioned = s.mentioned - (without.mentioned.has(key) ? 1 : 0);
    const mentionedListed = s.mentionedListed - (listedType && without.mentioned.has(key) ? 1 : 0);
    const types = { ...s.types };
    if (listedType) types[listedType] = (types[listedType] ?? 1) - 1;
    return { listed, mentioned, mentionedListed, types };
  }

  /**
   * Longest matches, left to right, not overlapping. With `without`, names only that paper lists are not matched
   * (for training: as if the gazetteer had never seen it).
   */
  match(words: readonly Word[], without?: PaperContribution): GazetteerHit[] {
    const hits: GazetteerHit[] = [];
    let i = 0;
    while (i < words.length) {
      let node: TrieNode | undefined = this.root;
      let best: GazetteerHit | null = null;
      for (let j = i; j < words.length && node; j++) {
        node = node.next.get(words[j].norm);
        if (node?.key && (!without || (this.get(node.key, without)?.listed ?? 0) > 0)) best = { key: node.key, from: i, to: j + 1 };
      }
      if (best) {
        hits.push(best);
        i = best.to;
      } else i++;
    }
    return hits;
  }

  get size(): number {
    return this.stats.size;
  }

  toJSON(): GazetteerSnapshot {
    const entries: Record<string, [number, number, number, string]> = {};
    for (const key of [...this.stats.keys()].sort()) {
      const s = this.stats.get(key)!;
      if (s.listed <= 0) continue;
      const types = RESOURCE_TYPES.map((t, i) => ((s.types[t] ?? 0) > 0 ? `${i}:${s.types[t]}` : ''))
        .filter(Boolean)
        .join(',');
      entries[key] = [s.listed, s.mentioned, s.mentionedListed, types];
    }
    return { format: 'krt-gazetteer', version: 2, entries };
  }

  static fromJSON(snapshot: GazetteerSnapshot): Gazetteer {
    if (snapshot?.format !== 'krt-gazetteer' || snapshot.version !== 2) throw new Error('not a krt-gazetteer version 2 snapshot');
    const g = new Gazetteer();
    for (const [key, [listed, mentioned, mentionedListed, typeText]] of Object.entries(snapshot.entries)) {
      const types: Partial<Record<ResourceType, number>> = {};
      for (const pair of typeText ? typeText.split(',') : []) {
        const [i, n] = pair.split(':').map(Number);
        if (RESOURCE_TYPES[i]) types[RESOURCE_TYPES[i]] = n;
      }
      g.stats.set(key, { listed, mentioned, mentionedListed, types });
      g.insert(key);
    }
    return g;
  }
}
