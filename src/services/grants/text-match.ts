// Which dictionary texts (grants_texts) contain a search string, answered from memory with the semantics of
// `substringMatch` (src/core/db/search-index.ts) on each database, so that a search costs no query for it.
//
// Why: the FTS5 trigram query that lists the texts containing "health" took 30–43 ms on the generated
// 1.3-million-row file (9,930 of 334,718 texts), most of a search; scanning the 63 MB of texts in memory takes
// about as long. Here a trigram index of our own narrows the texts to the few that hold every trigram of the
// string (about 1 ms), and each is then checked for the exact substring.
// The texts are held as their UTF-8 bytes in one string of one-byte characters (63 MB for those 334,718 texts,
// where as many strings took 77 MiB with their headers), and a candidate is checked by String.prototype.indexOf
// on a slice of it (see verifier). On well-formed strings, a UTF-8 byte string contains another exactly when the
// strings do (UTF-8 synchronises: a match cannot begin inside a character), and the index's trigrams are of
// bytes. (A Buffer held outside the heap saved as much, but Buffer.indexOf costs 0.15 µs a call more: the first
// search of "support", 149,000 texts, took 64 ms against 30.)
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
import { VarintReader, varintLength, writeVarint } from './varint.ts';

const LOAD_CHUNK_ROWS = 10_000;
/**
 * The texts are checked through views of 2^VIEW_BITS bytes of them (each to the end of its last text): a search
 * for a needle never reads past a view, so a candidate far from the next occurrence costs at most a view.
 */
const VIEW_BITS = 13;
/**
 * 2^18 hash buckets of trigrams: 3 MiB of offsets, counts and bitmap numbers; collisions only add candidates (the
 * generated 1.3-million-row file's texts have 3,507 distinct byte trigrams).
 */
const BUCKET_BITS = 18;
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
 * Inverted lists from each trigram bucket (of UTF-8 bytes) to the texts holding a trigram of it:
 * ascending text ids, delta-encoded in 7-bit groups (about one byte a posting), or, where that takes more room, a
 * bitmap of the texts (a bit a text: the 322 lists of over an eighth of the texts of the generated 1.3-million-row
 * file take 12.8 MiB so, against 24.7 delta-encoded).
 */
class TrigramIndex {
  readonly offsets = new Uint32Array(BUCKETS + 1);
  readonly counts = new Uint32Array(BUCKETS);
  bytes = new Uint8Array(0);
  /** bitmapOf[b]: 1 + the number of bucket b's bitmap in `bitmaps`, or 0 (its list is delta-encoded or not kept). */
  readonly bitmapOf = new Uint32Array(BUCKETS);
  bitmaps = new Int32Array(0);
  words = 0;
  /** Reads the delta lists (a walk is synchronous: one reader serves every walk). */
  private readonly reader = new VarintReader();

  private constructor() {}

  /**
   * `variants(t, visit)`: visits the byte ranges of text t that needles are compared with (each indexed). Built
   * in slices of texts with the event loop let run between them: the whole takes over a second for 335,000 texts.
   */
  static async build(
    textCount: number,
    variants: (t: number, visit: (bytes: Uint8Array, from: number, to: number) => void) => void,
  ): Promise<TrigramIndex> {
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
          variants(t, (bytes, start, end) => {
            for (let i = start; i + 2 < end; i++) {
              const b = bucketOf(bytes[i], bytes[i + 1], bytes[i + 2]);
              const previous = last[b];
              if (previous === t) continue;
              last[b] = t;
              emit(b, t, t - previous); // (previous -1 for a bucket's first text: deltas are ≥ 1)
            }
          });
        }
      }
    };
    await visit((b, _t, delta) => {
      size[b] += varintLength(delta);
      index.counts[b]++;
    });
    // a trigram in most texts hardly narrows a search: its list is not kept
    const dense = (b: number) => index.counts[b] > textCount * DENSE_SHARE;
    const words = (index.words = Math.ceil(textCount / 32));
    let bitmapCount = 0;
    for (let b = 0; b < BUCKETS; b++) {
      const bitmap = !dense(b) && size[b] > 4 * words;
      if (bitmap) index.bitmapOf[b] = ++bitmapCount;
      index.offsets[b + 1] = index.offsets[b] + (dense(b) || bitmap ? 0 : size[b]);
    }
    const bitmaps = (index.bitmaps = new Int32Array(bitmapCount * words));
    const bytes = new Uint8Array(index.offsets[BUCKETS]);
    const at = index.offsets.slice(0, BUCKETS);
    await visit((b, t, delta) => {
      if (index.bitmapOf[b] !== 0) {
        bitmaps[(index.bitmapOf[b] - 1) * words + (t >>> 5)] |= 1 << (t & 31);
        return;
      }
      if (dense(b)) return;
      at[b] = writeVarint(bytes, at[b], delta);
    });
    index.bytes = bytes;
    return index;
  }

  get byteLength(): number {
    return this.offsets.byteLength + this.counts.byteLength + this.bytes.byteLength + this.bitmapOf.byteLength + this.bitmaps.byteLength;
  }

  /**
   * The distinct buckets of a needle's trigrams whose lists are kept, rarest first (empty for a needle under 3
   * bytes or of dense trigrams only); null when a trigram is in no text (then no text holds the needle).
   */
  bucketsOf(needle: Uint8Array): number[] | null {
    const buckets = new Set<number>();
    for (let i = 0; i + 2 < needle.length; i++) buckets.add(bucketOf(needle[i], needle[i + 1], needle[i + 2]));
    const all = [...buckets];
    if (all.some((b) => this.counts[b] === 0)) return null;
    return all
      .filter((b) => this.offsets[b + 1] > this.offsets[b] || this.bitmapOf[b] !== 0)
      .sort((x, y) => this.counts[x] - this.counts[y]);
  }

  /**
   * Stamps `to` on each text of bucket b whose stamp is `from` (on every text of it for `from` -1): one step
   * of the intersection.
   */
  advance(b: number, stamps: Uint32Array, from: number, to: number): void {
    this.walk(b, stamps, from, to, null, null);
  }

  /** The texts of bucket b whose stamp is `stamp`, ascending, that pass `accept`. */
  collect(b: number, stamps: Uint32Array, stamp: number, accept: (t: number) => boolean, out: number[]): void {
    this.walk(b, stamps, stamp, 0, accept, out);
  }

  /**
   * Every text of bucket b, ascending, from its bitmap or its delta list: without `out`, stamps `to` on those
   * stamped `stamp` (every one for -1); with it, lists those stamped `stamp` that pass `accept`. One walk for both,
   * the choice a branch per text rather than a callback (these loops are most of a first search).
   */
  private walk(
    b: number,
    stamps: Uint32Array,
    stamp: number,
    to: number,
    accept: ((t: number) => boolean) | null,
    out: number[] | null,
  ): void {
    if (this.bitmapOf[b] !== 0) {
      const base = (this.bitmapOf[b] - 1) * this.words;
      for (let w = 0; w < this.words; w++) {
        for (let word = this.bitmaps[base + w]; word !== 0;) {
          const low = word & -word;
          word ^= low;
          const t = (w << 5) | (31 - Math.clz32(low));
          if (out === null) {
            if (stamp === -1 || stamps[t] === stamp) stamps[t] = to;
          } else if (stamps[t] === stamp && accept!(t)) out.push(t);
        }
      }
      return;
    }
    const bytes = this.bytes;
    const reader = this.reader;
    let t = -1;
    const end = this.offsets[b + 1];
    for (reader.at = this.offsets[b]; reader.at < end;) {
      t += reader.next(bytes);
      if (out === null) {
        if (stamp === -1 || stamps[t] === stamp) stamps[t] = to;
      } else if (stamps[t] === stamp && accept!(t)) out.push(t);
    }
  }
}

/** A copy of the first `used` elements of `array` in an array of at least `size` (twice `used` when it grows). */
function grown<T extends Buffer | Uint32Array>(array: T, used: number, size: number): T {
  const copy = (
    array instanceof Buffer
      ? Buffer.allocUnsafe(size === used ? size : Math.max(size, 2 * used))
      : new Uint32Array(Math.max(size, 2 * used))
  ) as T;
  copy.set(array.subarray(0, used));
  return copy;
}

/** The search dictionary of one data version, in memory. */
export class TextDictionary {
  readonly dialect: DialectName;
  /** Highest text id + 1 (ids are positions in `starts`). */
  readonly size: number;
  /**
   * Each text as the indexed comparison lowers it (SQLite's lower(): ASCII letters only; PostgreSQL's lower()),
   * its UTF-8 bytes as characters U+0000–U+00FF, each followed by a NUL (which no needle holds: no match spans
   * two texts); empty for an id the dictionary does not hold. Text t is data[starts[t] … starts[t + 1] - 1).
   */
  private readonly data: string;
  private readonly starts: Uint32Array;
  /**
   * views[k]: data from byte k << VIEW_BITS to the end of the last text starting before (k + 1) << VIEW_BITS (a
   * slice: V8 keeps a reference into `data`, not a copy).
   */
  private readonly views: string[];
  /** SQLite: foldCase(text) where it differs from the lowered text (texts with other than ASCII characters). */
  private readonly folded: Map<number, string>;
  /**
   * SQLite: texts whose folded form does not align with the stored characters (not NFC, or a letter that
   * folds to more code units): where a match lies in the stored text is not known for them.
   */
  private readonly misaligned: Set<number>;
  /** Ids below the highest that the dictionary does not hold (deleted texts): empty in `data`. */
  private readonly absent: Set<number>;
  private readonly index: TrigramIndex;
  /** Per-query marks of the intersection (epochs, so that they are never cleared between queries). */
  private readonly stamps: Uint32Array;
  private epoch = 0;
  private readonly foldedChars: number;

  private constructor(
    dialect: DialectName,
    data: string,
    starts: Uint32Array,
    folded: Map<number, string>,
    misaligned: Set<number>,
    absent: Set<number>,
    index: TrigramIndex,
  ) {
    this.dialect = dialect;
    this.absent = absent;
    this.size = starts.length - 1;
    this.data = data;
    this.starts = starts;
    this.folded = folded;
    this.misaligned = misaligned;
    this.index = index;
    this.stamps = new Uint32Array(this.size);
    this.views = [];
    for (let k = 0, t = 0; k << VIEW_BITS < data.length; k++) {
      const next = (k + 1) << VIEW_BITS;
      while (t < this.size && starts[t] < next) t++;
      this.views.push(data.slice(k << VIEW_BITS, starts[t]));
    }
    let chars = 0;
    for (const f of folded.values()) chars += f.length;
    this.foldedChars = chars;
  }

  /** Reads the dictionary (in chunks, so that other requests run between two reads). */
  static async load(db: Kysely<GrantsDatabase>): Promise<TextDictionary> {
    const dialect = dialectOf(db);
    // The texts are written into one Buffer sized from the database's count of their bytes (grown, should an
    // import add texts meanwhile): pieces joined at the end held twice the texts for a moment, and the process
    // kept much of that peak.
    const lowerText = dialect === 'postgres' ? sql`lower(text)` : sql`text`;
    const total = (
      await sql<{ b: number | string | null; m: number | string | null }>`
        select sum(octet_length(${lowerText})) as b, max(id) as m from grants_texts`.execute(db)
    ).rows[0];
    const slots = Number(total.m ?? 0) + 1;
    let data = Buffer.allocUnsafe(Number(total.b ?? 0) + slots);
    let starts = new Uint32Array(slots + 1);
    let texts = 0;
    let bytes = 0;
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
      const add = (text: string, ascii: boolean) => {
        const length = ascii ? text.length : Buffer.byteLength(text);
        if (bytes + length + 1 > data.length) data = grown(data, bytes, bytes + length + 1);
        if (texts + 2 > starts.length) starts = grown(starts, texts + 1, texts + 2);
        starts[texts++] = bytes;
        bytes += data.write(text, bytes, ascii ? 'latin1' : 'utf8');
        data[bytes++] = 0;
      };
      for (const r of rows) {
        const id = Number(r.id);
        const text = r.text ?? '';
        while (texts < id) {
          absent.push(texts);
          add('', true);
        }
        const ascii = ASCII.test(text);
        if (dialect === 'postgres') add(text, ascii);
        else if (ascii) add(text.toLowerCase(), true);
        else {
          add(asciiLower(text), false);
          const f = foldCase(text);
          folded.set(id, f);
          // (no lowercase mapping shortens a character, so equal lengths mean each kept its own)
          if (f.length !== text.length || text.normalize('NFC') !== text) misaligned.add(id);
        }
      }
      if (rows.length < LOAD_CHUNK_ROWS) break;
      after = Number(rows[rows.length - 1].id);
    }
    starts[texts] = bytes;
    // (exact sizes: copies when the database's counts were not; else the same arrays)
    if (bytes < data.length) data = grown(data, bytes, bytes);
    const startArray = texts + 1 < starts.length ? starts.slice(0, texts + 1) : starts;
    const final = data;
    const index = await TrigramIndex.build(startArray.length - 1, (t, visit) => {
      visit(final, startArray[t], startArray[t + 1] - 1);
      const f = folded.get(t);
      if (f !== undefined) {
        const b = Buffer.from(f);
        visit(b, 0, b.length);
      }
    });
    // one-byte characters: 63 MB in V8's heap, the Buffer's memory returned (a block that large is mapped apart)
    return new TextDictionary(dialect, final.toString('latin1'), startArray, folded, misaligned, new Set(absent), index);
  }

  /** Memory held, in bytes (the folded strings counted at one byte a character, as V8 stores Latin-1 text). */
  get bytes(): number {
    return (
      this.index.byteLength +
      this.stamps.byteLength +
      this.data.length +
      this.starts.byteLength +
      32 * this.views.length +
      this.foldedChars +
      16 * this.folded.size
    );
  }

  /** Text t as the indexed comparison lowers it. */
  private lowered(t: number): string {
    return Buffer.from(this.data.slice(this.starts[t], this.starts[t + 1] - 1), 'latin1').toString('utf8');
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
      return this.find(wanted, null);
    }
    const folded = foldCase(needle);
    if (short) return this.find(folded, (t, f) => f.includes(folded));
    if ([...folded].length < MIN_INDEXED_LENGTH) return null; // FTS5 gets no trigram from it
    if (ASCII.test(folded)) return this.find(folded, null);
    // FTS5 finds a text when one occurrence's characters fold there as foldCase folds them (then every trigram
    // of the needle is in its index); a text with none such is left to the database
    let undecided = false;
    const found = this.find(folded, (t, f) => {
      let at = f.indexOf(folded);
      if (at === -1) return false;
      if (this.misaligned.has(t)) {
        undecided = true;
        return true;
      }
      const lowered = this.lowered(t);
      for (; at !== -1; at = f.indexOf(folded, at + 1)) if (isFtsSafe(lowered, at, at + folded.length)) return true;
      undecided = true;
      return true;
    });
    return undecided ? null : found;
  }

  /**
   * The texts containing `needle` (ascending), found through the trigram index when it has a trigram: each
   * candidate's lowered text is checked for it, or, where `ofFolded` is given and the text has a folded form,
   * `ofFolded(t, folded form)` decides.
   */
  private find(needle: string, ofFolded: ((t: number, folded: string) => boolean) | null): number[] {
    const out: number[] = [];
    const bytes = Buffer.from(needle);
    const buckets = this.index.bucketsOf(bytes);
    if (buckets === null) return out;
    const verify = this.verifier(bytes.toString('latin1'), ofFolded);
    if (buckets.length === 0) {
      for (let t = 0; t < this.size; t++) if (!this.absent.has(t) && verify(t)) out.push(t);
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
    this.index.collect(lists[0], this.stamps, base + lists.length, verify, out);
    return out;
  }

  /**
   * A check of texts in ascending order: whether text t contains `needle` (its UTF-8 bytes as characters). One
   * indexOf finds the first occurrence from a candidate's start on, and that answers every later candidate
   * before it (an occurrence lies in a text holding every trigram: a candidate). The scan stops at the end of
   * the candidate's view (VIEW_BITS); a view without an occurrence answers the candidates starting in it.
   */
  private verifier(needle: string, ofFolded: ((t: number, folded: string) => boolean) | null): (t: number) => boolean {
    const { starts, views, folded } = this;
    if (needle.length === 0) return () => true;
    let occurrence = -1; // the first occurrence at or after the last start searched from, or -1
    let clearTo = -1; // no occurrence from the last start searched from to here (the end of its view)
    return (t) => {
      if (ofFolded !== null) {
        const f = folded.get(t);
        if (f !== undefined) return ofFolded(t, f);
      }
      const start = starts[t];
      if (occurrence < start) {
        if (start < clearTo) return false;
        const k = start >>> VIEW_BITS;
        const at = views[k].indexOf(needle, start - (k << VIEW_BITS));
        if (at === -1) {
          occurrence = -1;
          clearTo = (k << VIEW_BITS) + views[k].length;
          return false;
        }
        occurrence = (k << VIEW_BITS) + at;
      }
      return occurrence < starts[t + 1] - 1;
    };
  }
}
