// Which dictionary texts (grants_texts) contain a search string, answered from memory with the semantics of
// `substringMatch` (src/core/db/search-index.ts) on each database, so that a search costs no query for it.
//
// Why: the FTS5 trigram query that lists the texts containing "health" took 30–43 ms on the generated
// 1.3-million-row file (9,930 of 334,718 texts), most of a search; scanning the 63 MB of texts in memory takes
// about as long. Here a trigram index of our own narrows the texts to the few that hold every trigram of the
// string (about 1 ms), and each is then checked for the exact substring.
//
// The semantics reproduced (needle = the search string trimmed; "fold" = foldCase, NFC then toLowerCase):
//  - SQLite, under 3 characters: fold(text) contains fold(needle)                     (pdi_fold, instr)
//  - SQLite, fold(needle) ASCII: lower(text) contains fold(needle); lower() folds ASCII letters only. The FTS5
//    candidates are a superset there: the matched characters are ASCII, which FTS5 folds as lower() does.
//  - SQLite, fold(needle) not ASCII: fold(text) contains fold(needle), among FTS5's candidates. FTS5 folds with
//    its own table (Unicode CaseFolding), which agrees with fold on an NFC text of Latin letters (below
//    U+0250 but İ): on such texts the candidates are a superset. A match on any other text is not decided
//    here (the caller asks the database).
//  - PostgreSQL, under 3 characters: lower(text) contains fold(needle)                 (strpos)
//  - PostgreSQL, otherwise: lower(text) contains lower(needle) (ILIKE lowers both sides, then LIKE; the
//    escaped %, _ and \ are literal): texts and needle are lowered by the server itself.
// Needles the database would read differently than JavaScript (a lone surrogate, which the drivers send as
// U+FFFD; NUL, which FTS5 skips and PostgreSQL refuses) are not decided here either.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { dialectOf, foldCase } from '../../core/db/dialect.ts';
import type { DialectName } from '../../core/db/dialect.ts';
import { MIN_INDEXED_LENGTH } from '../../core/db/search-index.ts';
import type { GrantsDatabase } from './tables.ts';

const LOAD_CHUNK_ROWS = 10_000;
/** 2^19 hash buckets of trigrams: 4 MiB of offsets and counts; collisions only add candidates. */
const BUCKET_BITS = 19;
const BUCKETS = 1 << BUCKET_BITS;
/** The rarest lists intersected; the candidates they leave are checked one by one (cheaper than more lists). */
const MAX_LISTS = 4;
/** The index is built in slices of texts, the event loop let run whenever a turn took longer than BUILD_TURN_MS. */
const BUILD_SLICE_TEXTS = 200;
const BUILD_TURN_MS = 10;
/** Share of the texts above which a trigram's list is not kept. */
const DENSE_SHARE = 0.5;
/** Highest code point (excluded) of the texts whose FTS5 folding provably agrees with foldCase. */
const FTS_SAFE_LIMIT = 0x250;
const DOTTED_CAPITAL_I = 0x130; // lowercases to two code points ("i" and a combining dot)

const ASCII = /^[\x00-\x7f]*$/;

function bucketOf(c0: number, c1: number, c2: number): number {
  return (Math.imul(c0, 0x9e3779b1) ^ Math.imul(c1, 0x85ebca77) ^ Math.imul(c2, 0xc2b2ae3d)) >>> (32 - BUCKET_BITS);
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/**
 * Whether FTS5's folding agrees with foldCase on these characters of a text (taken from its ASCII-lowered
 * form, which keeps every other character as it is stored): Latin letters below U+0250 but İ and NUL.
 */
function isFtsSafe(lowered: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = lowered.charCodeAt(i);
    if (c === 0 || c >= FTS_SAFE_LIMIT || c === DOTTED_CAPITAL_I) return false;
  }
  return true;
}

/**
 * Inverted lists from each trigram bucket (of UTF-16 code units) to the texts holding a trigram of it:
 * ascending text ids, delta-encoded in 7-bit groups (about one byte a posting: 51 million postings for the
 * dictionary of the generated 1.3-million-row file).
 */
class TrigramIndex {
  readonly offsets = new Uint32Array(BUCKETS + 1);
  readonly counts = new Uint32Array(BUCKETS);
  bytes = new Uint8Array(0);

  private constructor() {}

  /**
   * `variants(t)`: the strings of text t that needles are compared with (each indexed). Built in slices of
   * texts with the event loop let run between them: the whole takes over a second for 335,000 texts.
   */
  static async build(textCount: number, variants: (t: number) => readonly string[]): Promise<TrigramIndex> {
    const index = new TrigramIndex();
    const last = new Int32Array(BUCKETS);
    const size = new Uint32Array(BUCKETS);
    const visit = async (emit: (b: number, t: number, delta: number) => void) => {
      last.fill(-1);
      let turn = performance.now();
      for (let from = 0; from < textCount; from += BUILD_SLICE_TEXTS) {
        if (performance.now() - turn > BUILD_TURN_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          turn = performance.now();
        }
        for (let t = from, to = Math.min(textCount, from + BUILD_SLICE_TEXTS); t < to; t++) {
          for (const s of variants(t)) {
            for (let i = 0; i + 2 < s.length; i++) {
              const b = bucketOf(s.charCodeAt(i), s.charCodeAt(i + 1), s.charCodeAt(i + 2));
              const previous = last[b];
              if (previous === t) continue;
              last[b] = t;
              emit(b, t, t - previous); // (previous -1 for a bucket's first text: deltas are ≥ 1)
            }
          }
        }
      }
    };
    await visit((b, _t, delta) => {
      size[b] += delta < 0x80 ? 1 : delta < 0x4000 ? 2 : delta < 0x200000 ? 3 : 5;
      index.counts[b]++;
    });
    // a trigram in most texts hardly narrows a search: its list is not kept (18 of 50 MiB on the generated file)
    const dense = (b: number) => index.counts[b] > textCount * DENSE_SHARE;
    for (let b = 0; b < BUCKETS; b++) index.offsets[b + 1] = index.offsets[b] + (dense(b) ? 0 : size[b]);
    const bytes = new Uint8Array(index.offsets[BUCKETS]);
    const at = index.offsets.slice(0, BUCKETS);
    await visit((b, _t, delta) => {
      if (dense(b)) return;
      let p = at[b];
      while (delta >= 0x80) {
        bytes[p++] = (delta & 0x7f) | 0x80;
        delta >>>= 7;
      }
      bytes[p++] = delta;
      at[b] = p;
    });
    index.bytes = bytes;
    return index;
  }

  get byteLength(): number {
    return this.offsets.byteLength + this.counts.byteLength + this.bytes.byteLength;
  }

  /**
   * The distinct buckets of a needle's trigrams whose lists are kept, rarest first (empty for a needle under 3
   * code units or of dense trigrams only); null when a trigram is in no text (then no text holds the needle).
   */
  bucketsOf(needle: string): number[] | null {
    const buckets = new Set<number>();
    for (let i = 0; i + 2 < needle.length; i++)
      buckets.add(bucketOf(needle.charCodeAt(i), needle.charCodeAt(i + 1), needle.charCodeAt(i + 2)));
    const all = [...buckets];
    if (all.some((b) => this.counts[b] === 0)) return null;
    return all.filter((b) => this.offsets[b + 1] > this.offsets[b]).sort((x, y) => this.counts[x] - this.counts[y]);
  }

  /**
   * Stamps `to` on each text of bucket b whose stamp is `from` (on every text of it for `from` -1): one step
   * of the intersection.
   */
  advance(b: number, stamps: Uint32Array, from: number, to: number): void {
    const bytes = this.bytes;
    let t = -1;
    for (let p = this.offsets[b], end = this.offsets[b + 1]; p < end;) {
      let x = bytes[p++];
      let delta = x & 0x7f;
      for (let shift = 7; x & 0x80; shift += 7) {
        x = bytes[p++];
        delta |= (x & 0x7f) << shift;
      }
      t += delta;
      if (from === -1 || stamps[t] === from) stamps[t] = to;
    }
  }

  /** The texts of bucket b whose stamp is `stamp`, ascending, that pass `accept`. */
  collect(b: number, stamps: Uint32Array, stamp: number, accept: (t: number) => boolean, out: number[]): void {
    const bytes = this.bytes;
    let t = -1;
    for (let p = this.offsets[b], end = this.offsets[b + 1]; p < end;) {
      let x = bytes[p++];
      let delta = x & 0x7f;
      for (let shift = 7; x & 0x80; shift += 7) {
        x = bytes[p++];
        delta |= (x & 0x7f) << shift;
      }
      t += delta;
      if (stamps[t] === stamp && accept(t)) out.push(t);
    }
  }
}

/** The search dictionary of one data version, in memory. */
export class TextDictionary {
  readonly dialect: DialectName;
  /** Highest text id + 1 (ids are positions in the arrays below). */
  readonly size: number;
  /**
   * Each text as the indexed comparison lowers it: SQLite's lower() (ASCII letters only), PostgreSQL's
   * lower(); '' for an id the dictionary does not hold.
   */
  private readonly lowered: string[];
  /** SQLite: foldCase(text) where it differs from `lowered` (texts with other than ASCII characters). */
  private readonly folded: Map<number, string>;
  /**
   * SQLite: texts whose folded form does not align with the stored characters (not NFC, or a letter that
   * folds to more code units): where a match lies in the stored text is not known for them.
   */
  private readonly misaligned: Set<number>;
  /** Ids below the highest that the dictionary does not hold (deleted texts): '' in `lowered`. */
  private readonly absent: Set<number>;
  private readonly index: TrigramIndex;
  /** Per-query marks of the intersection (epochs, so that they are never cleared between queries). */
  private readonly stamps: Uint32Array;
  private epoch = 0;
  private readonly textBytes: number;

  private constructor(
    dialect: DialectName,
    lowered: string[],
    folded: Map<number, string>,
    misaligned: Set<number>,
    absent: Set<number>,
    index: TrigramIndex,
  ) {
    this.dialect = dialect;
    this.absent = absent;
    this.size = lowered.length;
    this.lowered = lowered;
    this.folded = folded;
    this.misaligned = misaligned;
    this.index = index;
    this.stamps = new Uint32Array(lowered.length);
    let chars = 0;
    for (const s of lowered) chars += s.length;
    for (const s of folded.values()) chars += s.length;
    this.textBytes = chars;
  }

  /** Reads the dictionary (in chunks, so that other requests run between two reads). */
  static async load(db: Kysely<GrantsDatabase>): Promise<TextDictionary> {
    const dialect = dialectOf(db);
    const lowered: string[] = [];
    const folded = new Map<number, string>();
    const misaligned = new Set<number>();
    const absent: number[] = [];
    let after = -1;
    for (;;) {
      // PostgreSQL lowers the texts itself: its lower() depends on the database's locale
      const rows =
        dialect === 'postgres'
          ? await db
              .selectFrom('grants_texts')
              .select(['id', sql<string>`lower(text)`.as('text')])
              .where('id', '>', after)
              .orderBy('id')
              .limit(LOAD_CHUNK_ROWS)
              .execute()
          : await db
              .selectFrom('grants_texts')
              .select(['id', 'text'])
              .where('id', '>', after)
              .orderBy('id')
              .limit(LOAD_CHUNK_ROWS)
              .execute();
      for (const r of rows) {
        const id = Number(r.id);
        const text = r.text ?? '';
        while (lowered.length < id) {
          absent.push(lowered.length);
          lowered.push('');
        }
        if (dialect === 'postgres') lowered.push(text);
        else if (ASCII.test(text)) lowered.push(text.toLowerCase());
        else {
          lowered.push(asciiLower(text));
          const f = foldCase(text);
          folded.set(id, f);
          // (no lowercase mapping shortens a character, so equal lengths mean each kept its own)
          if (f.length !== text.length || text.normalize('NFC') !== text) misaligned.add(id);
        }
      }
      if (rows.length < LOAD_CHUNK_ROWS) break;
      after = Number(rows[rows.length - 1].id);
    }
    const index = await TrigramIndex.build(lowered.length, (t) => {
      const f = folded.get(t);
      return f === undefined ? [lowered[t]] : [lowered[t], f];
    });
    return new TextDictionary(dialect, lowered, folded, misaligned, new Set(absent), index);
  }

  /** Memory held, in bytes (strings counted at one byte a character, as V8 stores Latin-1 text). */
  get bytes(): number {
    return this.index.byteLength + this.stamps.byteLength + this.textBytes + 16 * (this.size + this.folded.size);
  }

  /**
   * The ids (ascending) of the texts containing `text` as `substringMatch` decides it, or null when that is
   * not decided in memory (then ask the database). On PostgreSQL `db` lowers the string (one short query).
   */
  async match(db: Kysely<GrantsDatabase>, text: string): Promise<number[] | null> {
    const needle = text.trim();
    if (!needle.isWellFormed() || needle.includes('\0')) return null;
    const short = [...needle].length < MIN_INDEXED_LENGTH;
    if (this.dialect === 'postgres') {
      const wanted = short ? foldCase(needle) : (await sql<{ l: string }>`select lower(${needle}) as l`.execute(db)).rows[0].l;
      return this.find(wanted, (t) => this.lowered[t].includes(wanted));
    }
    const folded = foldCase(needle);
    if (short) return this.find(folded, (t) => (this.folded.get(t) ?? this.lowered[t]).includes(folded));
    if ([...folded].length < MIN_INDEXED_LENGTH) return null; // FTS5 gets no trigram from it
    if (ASCII.test(folded)) return this.find(folded, (t) => this.lowered[t].includes(folded));
    // FTS5 finds a text when one occurrence's characters fold there as foldCase folds them (then every trigram
    // of the needle is in its index); a text with none such is left to the database
    let undecided = false;
    const found = this.find(folded, (t) => {
      const f = this.folded.get(t);
      if (f === undefined) return this.lowered[t].includes(folded); // ASCII: safe throughout
      let at = f.indexOf(folded);
      if (at === -1) return false;
      if (this.misaligned.has(t)) {
        undecided = true;
        return true;
      }
      for (; at !== -1; at = f.indexOf(folded, at + 1)) if (isFtsSafe(this.lowered[t], at, at + folded.length)) return true;
      undecided = true;
      return true;
    });
    return undecided ? null : found;
  }

  /** The texts t passing `contains(t)`, found through the trigram index when `needle` has a trigram. */
  private find(needle: string, contains: (t: number) => boolean): number[] {
    const out: number[] = [];
    const buckets = this.index.bucketsOf(needle);
    if (buckets === null) return out;
    if (buckets.length === 0) {
      for (let t = 0; t < this.size; t++) if (!this.absent.has(t) && contains(t)) out.push(t);
      return out;
    }
    const lists = buckets.slice(0, MAX_LISTS);
    if (this.epoch + lists.length + 1 >= 0xffffffff) {
      this.stamps.fill(0);
      this.epoch = 0;
    }
    const base = this.epoch;
    this.epoch += lists.length + 1;
    // every text of the rarest list is stamped base + 1, then each list moves on the texts it also holds
    this.index.advance(lists[0], this.stamps, -1, base + 1);
    for (let k = 1; k < lists.length; k++) this.index.advance(lists[k], this.stamps, base + k, base + k + 1);
    this.index.collect(lists[0], this.stamps, base + lists.length, contains, out);
    return out;
  }
}
