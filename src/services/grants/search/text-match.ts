// Which dictionary texts (grants_texts) contain a search string, answered from memory with the semantics of
// `substringMatch` (src/core/db/search-index.ts) on each database, so that a search costs no query for it.
//
// Why: the FTS5 trigram query that lists the texts containing a common word reads every matching text and is
// most of a search; scanning all the texts in memory reads them all. Here an index of the texts' words (WordIndex)
// answers a string without a space or punctuation from the words that contain it, with no text read; a longer string narrows
// the texts to those whose words fit its pieces, and each is then checked for the exact substring.
// The texts are held as their UTF-8 bytes in one string of one-byte characters (no per-string header, so smaller
// than as many strings), and a candidate is checked by String.prototype.indexOf
// on a slice of it (see verifier). On well-formed strings, a UTF-8 byte string contains another exactly when the
// strings do (UTF-8 synchronises: a match cannot begin inside a character), and the index's words are of bytes.
// (Not a Buffer outside the heap: Buffer.indexOf costs more per call than String.prototype.indexOf.)
//
// The semantics reproduced, those of an index that folds accents (needle = the search string trimmed; "fold" =
// foldAccents: NFD, Latin letters' marks dropped, NFC, toLowerCase; pdi_fold_accents in SQL):
//  - SQLite, needle or fold(needle) under 3 characters: fold(text) contains fold(needle)   (instr)
//  - SQLite, otherwise: fold(text) contains fold(needle), among FTS5's candidates (trigram, remove_diacritics):
//    the texts whose FTS5 folding holds each trigram queried. FTS5 folds with its own tables, known here for the
//    Latin letters below U+0250 (ftsFolded); a text with other letters that the trigrams leave in doubt is not
//    decided here (the caller asks the database).
//  - PostgreSQL, under 3 characters: pdi_fold_accents(text) contains fold(needle)          (strpos)
//  - PostgreSQL, otherwise: lower(pdi_fold_accents(text)) contains lower(fold(needle)) (ILIKE lowers both sides,
//    then LIKE; the escaped %, _ and \ are literal): texts and needle are lowered by the server itself.
// Needles the database would read differently than JavaScript (a lone surrogate, which the drivers send as
// U+FFFD; NUL, which FTS5 skips and PostgreSQL refuses) are not decided here either.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { dialectOf, foldAccents, foldCase } from '../../../core/db/dialect.ts';
import type { DialectName } from '../../../core/db/dialect.ts';
import { MIN_INDEXED_LENGTH, queriedTrigrams } from '../../../core/db/search-index.ts';
import type { GrantsDatabase } from '../tables.ts';
import { popcount } from './bitset.ts';
import { frenchStem } from './french-stem.ts';
import { VarintReader, varintLength, writeVarint } from './varint.ts';

const LOAD_CHUNK_ROWS = 10_000;
/**
 * The texts are checked through views of 2^VIEW_BITS bytes of them (each to the end of its last text): a search
 * for a needle never reads past a view, so a candidate far from the next occurrence costs at most a view.
 */
const VIEW_BITS = 13;
/** Candidates fewer than 1 / SPARSE_SHARE of the texts are each checked alone (verifier). */
const SPARSE_SHARE = 16;
/** The index is built in slices of texts, the event loop let run whenever a turn took longer than BUILD_TURN_MS. */
const BUILD_SLICE_TEXTS = 200;
const BUILD_TURN_MS = 10;
/** The word index's build keeps each text's words in blocks of 2^HELD_BLOCK_BITS entries. */
const HELD_BLOCK_BITS = 20;
const HELD_BLOCK_MASK = (1 << HELD_BLOCK_BITS) - 1;
/** Highest code point (excluded) of the characters whose FTS5 folding is known here (ftsFolded). */
const FTS_SAFE_LIMIT = 0x250;
const A_DOT_MACRON = 0x1e0; // Ǡ (ǡ follows)
/** General Punctuation (’ – — and the narrow spaces of French text), which FTS5 folds as foldAccents does too. */
const GENERAL_PUNCTUATION = 0x2000;
const GENERAL_PUNCTUATION_END = 0x2070;

const ASCII = /^[\x00-\x7f]*$/;

/**
 * 1 for the bytes of a word: ASCII letters and digits, and every byte of a UTF-8 sequence beyond ASCII (which
 * never holds an ASCII byte). Every other byte (spaces, punctuation, controls, the NUL after each text)
 * separates words, in the texts and in a needle alike.
 */
const WORD_BYTE = new Uint8Array(256).map((_, b) =>
  b >= 0x80 || (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) ? 1 : 0,
);

/**
 * A stored text as FTS5's trigram tokenizer (remove_diacritics 1) folds it, where that is known: foldAccents on
 * each character below U+0250 (the two agree on each of them but Ǡ and ǡ, which FTS5 folds to ǡ) and of General
 * Punctuation, NUL where a character's folding is not known here (no needle holds NUL), and whether there was
 * such a character.
 */
function ftsFolded(stored: string): { text: string; unknown: boolean } {
  let text = '';
  let unknown = false;
  for (const ch of stored) {
    const c = ch.codePointAt(0)!;
    if (c === A_DOT_MACRON || c === A_DOT_MACRON + 1) text += '\u01e1';
    else if ((c !== 0 && c < FTS_SAFE_LIMIT) || (c >= GENERAL_PUNCTUATION && c < GENERAL_PUNCTUATION_END)) {
      text += c < 0x80 ? ch.toLowerCase() : foldAccents(ch);
    } else {
      text += '\0';
      unknown = true;
    }
  }
  return { text, unknown };
}

/**
 * Lets the event loop run (I/O, timers, other requests) before a load reads on. Between two chunks of a load this
 * is needed: better-sqlite3 answers synchronously, so the awaits of a chunked read settle as microtasks and, without
 * it, a whole load would keep every request waiting, even the one that started it (its compressed answer is
 * written by zlib's callbacks).
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Where a piece of a needle lies in the words of a text that holds the needle. */
type Place = 'within' | 'end' | 'start' | 'whole';

/**
 * The distinct words of the texts (maximal runs of WORD_BYTE bytes) and, for each, the texts holding it:
 * ascending text ids, delta-encoded in 7-bit groups (about one byte a posting), or, where that takes more room,
 * a bitmap of the texts (a bit a text).
 *
 * A needle without a separating byte lies within one word of any text holding it, so the texts holding a word
 * that contains it are exactly the texts that contain it: no text is checked. A needle with separators is split
 * at them; its first piece ends a word of the text, its last begins one and those between are whole words, and
 * the texts meeting all of these are checked for the needle. The words themselves are searched as one string
 * "\0w0\0w1\0…\0", so that a piece ending a word is found as "piece\0", and so on.
 *
 * (It replaced a trigram index of the texts, which narrowed a search to the texts holding the needle's rarest
 * trigrams and checked each: a common word then cost a check of each of its texts, 149,000 for "support" on the
 * generated 1.3-million-row file.)
 */
class WordIndex {
  /** The words as one-byte characters (their UTF-8 bytes), each preceded by a NUL, with a NUL at the end. */
  words = '';
  /** starts[w]: where word w begins in `words`; starts[count] = words.length (word w ends at starts[w + 1] - 1). */
  starts = new Uint32Array(1);
  /** Word w's delta list is postings[offsets[w] … offsets[w + 1]) (empty where it has a bitmap). */
  offsets = new Uint32Array(1);
  postings = new Uint8Array(0);
  /** bitmapOf[w]: 1 + the number of word w's bitmap in `bitmaps`, or 0. */
  bitmapOf = new Uint32Array(0);
  bitmaps = new Int32Array(0);
  /** 32-bit words of a bitmap of the texts. */
  readonly textWords: number;
  private readonly reader = new VarintReader();

  private constructor(textCount: number) {
    this.textWords = Math.ceil(textCount / 32);
  }

  /**
   * `variants(t, visit)`: visits the byte ranges of text t that needles are compared with (each indexed). Built
   * in slices of texts with the event loop let run between them: the whole takes over a second for 335,000 texts.
   */
  static async build(
    textCount: number,
    variants: (t: number, visit: (bytes: Buffer, from: number, to: number) => void) => void,
  ): Promise<WordIndex> {
    const index = new WordIndex(textCount);
    const idOf = new Map<string, number>();
    const words: string[] = [];
    // per word: the last text that held it (-1 before its first: deltas are ≥ 1) and the bytes of its delta list
    const lastText: number[] = [];
    const sizes: number[] = [];
    // The distinct words of each text in turn (text t's: entries heldEnds[t] … heldEnds[t + 1] - 1), for the second
    // pass, in blocks of 2^20 (4 MiB outside V8's heap, never copied). A growing Uint32Array (copies of up to 16 MB)
    // left a worker at 468 MiB of RSS at rest with real data; a JavaScript array (7.7 million entries at 1.3 M rows,
    // 8 bytes each, copied as it grew) took V8's heap to 233 MB during the load, and the pages V8 pooled afterwards
    // stayed in the worker's RSS. Looking the words up again instead would do the build's main work twice.
    const heldBlocks: Uint32Array[] = [];
    let heldCount = 0;
    const heldEnds = new Uint32Array(textCount + 1);
    const eachWord = async (visitWord: (w: number, t: number) => void) => {
      lastText.fill(-1);
      let turn = performance.now();
      for (let t = 0; t < textCount; t++) {
        if (t % BUILD_SLICE_TEXTS === 0 && performance.now() - turn > BUILD_TURN_MS) {
          await nextTurn();
          turn = performance.now();
        }
        variants(t, (bytes, from, to) => {
          for (let i = from; i < to;) {
            if (WORD_BYTE[bytes[i]] === 0) {
              i++;
              continue;
            }
            let j = i + 1;
            while (j < to && WORD_BYTE[bytes[j]] === 1) j++;
            const word = bytes.toString('latin1', i, j);
            i = j;
            let w = idOf.get(word);
            if (w === undefined) {
              w = words.length;
              idOf.set(word, w);
              words.push(word);
              lastText.push(-1);
              sizes.push(0);
            }
            if (lastText[w] === t) continue;
            visitWord(w, t);
            lastText[w] = t;
          }
        });
        heldEnds[t + 1] = heldCount;
      }
    };
    await eachWord((w, t) => {
      sizes[w] += varintLength(t - lastText[w]);
      if (heldCount >>> HELD_BLOCK_BITS === heldBlocks.length) heldBlocks.push(new Uint32Array(1 << HELD_BLOCK_BITS));
      heldBlocks[heldCount >>> HELD_BLOCK_BITS][heldCount & HELD_BLOCK_MASK] = w;
      heldCount++;
    });
    const count = words.length;
    index.words = `\0${words.join('\0')}\0`;
    const starts = (index.starts = new Uint32Array(count + 1));
    starts[0] = 1;
    for (let w = 0; w < count; w++) starts[w + 1] = starts[w] + words[w].length + 1;
    const bitmapOf = (index.bitmapOf = new Uint32Array(count));
    const offsets = (index.offsets = new Uint32Array(count + 1));
    let bitmapCount = 0;
    for (let w = 0; w < count; w++) {
      const bitmap = sizes[w] > 4 * index.textWords;
      if (bitmap) bitmapOf[w] = ++bitmapCount;
      offsets[w + 1] = offsets[w] + (bitmap ? 0 : sizes[w]);
    }
    const bitmaps = (index.bitmaps = new Int32Array(bitmapCount * index.textWords));
    const postings = (index.postings = new Uint8Array(offsets[count]));
    const at = offsets.slice(0, count);
    lastText.fill(-1);
    for (let t = 0; t < textCount; t++) {
      for (let k = heldEnds[t]; k < heldEnds[t + 1]; k++) {
        const w = heldBlocks[k >>> HELD_BLOCK_BITS][k & HELD_BLOCK_MASK];
        if (bitmapOf[w] !== 0) bitmaps[(bitmapOf[w] - 1) * index.textWords + (t >>> 5)] |= 1 << (t & 31);
        else at[w] = writeVarint(postings, at[w], t - lastText[w]);
        lastText[w] = t;
      }
    }
    return index;
  }

  get byteLength(): number {
    return (
      this.words.length +
      this.starts.byteLength +
      this.offsets.byteLength +
      this.postings.byteLength +
      this.bitmapOf.byteLength +
      this.bitmaps.byteLength
    );
  }

  /**
   * Sets in `texts` (a bitmap of the texts, cleared first) the texts holding a word that holds `piece` (UTF-8
   * bytes as one-byte characters, no separator) at `place`; returns whether any.
   */
  textsOf(piece: string, place: Place, texts: Int32Array): boolean {
    texts.fill(0);
    const pattern = place === 'within' ? piece : place === 'end' ? `${piece}\0` : place === 'start' ? `\0${piece}` : `\0${piece}\0`;
    const { words, starts } = this;
    let any = false;
    for (let from = 0; ;) {
      const at = words.indexOf(pattern, from);
      if (at === -1) return any;
      // the word of the occurrence: the last that starts at or before its first byte of a word
      const first = place === 'start' || place === 'whole' ? at + 1 : at;
      let lo = 0;
      let hi = starts.length - 2;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (starts[mid] <= first) lo = mid;
        else hi = mid - 1;
      }
      this.addTexts(lo, texts);
      any = true;
      from = starts[lo + 1] - 1; // the NUL that ends the word (and begins the next one's pattern)
    }
  }

  /** The number of distinct words. */
  get count(): number {
    return this.starts.length - 1;
  }

  /** Word w (its bytes as one-byte characters). */
  word(w: number): string {
    return this.words.slice(this.starts[w], this.starts[w + 1] - 1);
  }

  /** Adds to `texts` (a bitmap of the texts) the texts holding word w. */
  addTexts(w: number, texts: Int32Array): void {
    if (this.bitmapOf[w] !== 0) {
      const base = (this.bitmapOf[w] - 1) * this.textWords;
      for (let k = 0; k < this.textWords; k++) texts[k] |= this.bitmaps[base + k];
      return;
    }
    const { postings, reader } = this;
    let t = -1;
    const end = this.offsets[w + 1];
    for (reader.at = this.offsets[w]; reader.at < end;) {
      t += reader.next(postings);
      texts[t >>> 5] |= 1 << (t & 31);
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
   * Each text as the indexed comparison folds it (foldAccents; on PostgreSQL the server's
   * lower(pdi_fold_accents(text))), its UTF-8 bytes as characters U+0000–U+00FF, each followed by a NUL (which no
   * needle holds: no match spans two texts); empty for an id the dictionary does not hold. Text t is
   * data[starts[t] … starts[t + 1] - 1).
   */
  private readonly data: string;
  private readonly starts: Uint32Array;
  /**
   * views[k]: data from byte k << VIEW_BITS to the end of the last text starting before (k + 1) << VIEW_BITS (a
   * slice: V8 keeps a reference into `data`, not a copy).
   */
  private readonly views: string[];
  /**
   * The texts with other than ASCII characters, as stored (whether a match keeps its accents: the rank of an
   * exact match; SQLite: whether FTS5 finds it too), as their UTF-8 bytes, not as strings: most French texts have
   * accents, and V8 holds such a string at two bytes a character. Text originalIds[k] (ascending) is
   * originalBytes[originalStarts[k] … originalStarts[k + 1]).
   */
  private readonly originalIds: Uint32Array;
  private readonly originalStarts: Uint32Array;
  private readonly originalBytes: Buffer;
  /** French texts: the words compared by their stems too (stemMatch). */
  private readonly french: boolean;
  /** French texts: the words of each stem (stem → word numbers of `index`), built on the first stemmed search. */
  private stems: Map<string, number[]> | null = null;
  /** SQLite: texts that FTS5 folds otherwise than foldAccents does (ftsFolded), or may. */
  private readonly ftsOther: Set<number>;
  /** Ids below the highest that the dictionary does not hold (deleted texts): empty in `data`. */
  private readonly absent: Set<number>;
  /** The words of the folded texts. */
  private readonly index: WordIndex;
  /** A bitmap of the texts in `originals`. */
  private readonly hasOriginal: Int32Array;
  /** Bitmaps of the texts for one search (a search is synchronous once its needle is known). */
  private readonly candidates: Int32Array;
  private readonly scratch: Int32Array;

  private constructor(
    dialect: DialectName,
    data: string,
    starts: Uint32Array,
    originals: { ids: Uint32Array; starts: Uint32Array; bytes: Buffer },
    ftsOther: Set<number>,
    absent: Set<number>,
    index: WordIndex,
    french: boolean,
  ) {
    this.dialect = dialect;
    this.absent = absent;
    this.size = starts.length - 1;
    this.data = data;
    this.starts = starts;
    this.originalIds = originals.ids;
    this.originalStarts = originals.starts;
    this.originalBytes = originals.bytes;
    this.french = french;
    this.ftsOther = ftsOther;
    this.index = index;
    this.hasOriginal = new Int32Array(index.textWords);
    for (const t of originals.ids) this.hasOriginal[t >>> 5] |= 1 << (t & 31);
    this.candidates = new Int32Array(index.textWords);
    this.scratch = new Int32Array(index.textWords);
    this.views = [];
    for (let k = 0, t = 0; k << VIEW_BITS < data.length; k++) {
      const next = (k + 1) << VIEW_BITS;
      while (t < this.size && starts[t] < next) t++;
      this.views.push(data.slice(k << VIEW_BITS, starts[t]));
    }
  }

  /** Text t as stored (a text with other than ASCII characters), or undefined for another. */
  private original(t: number): string | undefined {
    if ((this.hasOriginal[t >>> 5] & (1 << (t & 31))) === 0) return undefined;
    const ids = this.originalIds;
    let lo = 0;
    let hi = ids.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ids[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return ids[lo] === t ? this.originalBytes.toString('utf8', this.originalStarts[lo], this.originalStarts[lo + 1]) : undefined;
  }

  /**
   * Reads the dictionary (in chunks, so that other requests run between two reads): the texts whose `used[id]` is
   * 1 (all without `used`); `french`: the texts are French (stemMatch compares their words by stems too).
   */
  static async load(db: Kysely<GrantsDatabase>, options: { used?: Uint8Array; french?: boolean } = {}): Promise<TextDictionary> {
    const { used } = options;
    const dialect = dialectOf(db);
    // The texts are written into one Buffer sized from the database's count of their bytes (grown, should an
    // import add texts meanwhile or folding lengthen one): pieces joined at the end held twice the texts for a
    // moment, and the process kept much of that peak.
    const total = (
      await sql<{ b: number | string | null; m: number | string | null }>`
        select sum(octet_length(text)) as b, max(id) as m from grants_texts`.execute(db)
    ).rows[0];
    const slots = Number(total.m ?? 0) + 1;
    let data = Buffer.allocUnsafe(Number(total.b ?? 0) + slots);
    let starts = new Uint32Array(slots + 1);
    let texts = 0;
    let bytes = 0;
    const originalIds: number[] = [];
    let originalStarts = new Uint32Array(1024);
    let originalBytes = Buffer.allocUnsafe(1 << 16);
    let originalEnd = 0;
    const ftsOther = new Set<number>();
    const absent: number[] = [];
    let after = -1;
    for (;;) {
      // PostgreSQL folds the texts itself: its lower() depends on the database's locale
      const rows =
        dialect === 'postgres'
          ? await db
              .selectFrom('grants_texts')
              .select(['id', 'text', sql<string>`lower(pdi_fold_accents(text))`.as('folded')])
              .where('id', '>', after)
              .orderBy('id')
              .limit(LOAD_CHUNK_ROWS)
              .execute()
          : await db
              .selectFrom('grants_texts')
              .select(['id', 'text', sql<null>`null`.as('folded')])
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
        const wanted = used === undefined || (id < used.length && used[id] === 1);
        const text = wanted ? (r.text ?? '') : '';
        while (texts < id) {
          absent.push(texts);
          add('', true);
        }
        if (!wanted) {
          absent.push(texts);
          add('', true);
          continue;
        }
        const ascii = ASCII.test(text);
        if (!ascii) {
          const length = Buffer.byteLength(text);
          if (originalEnd + length > originalBytes.length) originalBytes = grown(originalBytes, originalEnd, originalEnd + length);
          if (originalIds.length + 2 > originalStarts.length)
            originalStarts = grown(originalStarts, originalIds.length + 1, originalIds.length + 2);
          originalStarts[originalIds.length] = originalEnd;
          originalIds.push(id);
          originalEnd += originalBytes.write(text, originalEnd, 'utf8');
        }
        if (r.folded !== null) add(r.folded, ASCII.test(r.folded));
        else if (ascii) add(text.toLowerCase(), true);
        else {
          const f = foldAccents(text);
          add(f, ASCII.test(f));
          const fts = ftsFolded(text);
          if (fts.unknown || fts.text !== f) ftsOther.add(id);
        }
      }
      if (rows.length < LOAD_CHUNK_ROWS) break;
      after = Number(rows[rows.length - 1].id);
      await nextTurn();
    }
    starts[texts] = bytes;
    // (exact sizes: copies when the database's counts were not; else the same arrays)
    if (bytes < data.length) data = grown(data, bytes, bytes);
    const startArray = texts + 1 < starts.length ? starts.slice(0, texts + 1) : starts;
    const final = data;
    const textCount = startArray.length - 1;
    const index = await WordIndex.build(textCount, (t, visit) => visit(final, startArray[t], startArray[t + 1] - 1));
    // one-byte characters: 63 MB, which V8 keeps outside its heap as an external string (`external` in
    // process.memoryUsage()); the Buffer's memory is returned at the next collection (a block that large is mapped apart)
    originalStarts[originalIds.length] = originalEnd;
    const originals = {
      ids: Uint32Array.from(originalIds),
      starts: originalStarts.slice(0, originalIds.length + 1),
      bytes: Buffer.from(originalBytes.subarray(0, originalEnd)), // (its own memory, not a slice of the grown one)
    };
    return new TextDictionary(
      dialect,
      final.toString('latin1'),
      startArray,
      originals,
      ftsOther,
      new Set(absent),
      index,
      options.french === true,
    );
  }

  /** Memory held, in bytes (the stored texts counted at two bytes a character, as V8 stores text beyond Latin-1). */
  get bytes(): number {
    return (
      this.index.byteLength +
      4 * this.hasOriginal.byteLength +
      this.data.length +
      this.starts.byteLength +
      32 * this.views.length +
      this.originalIds.byteLength +
      this.originalStarts.byteLength +
      this.originalBytes.byteLength
    );
  }

  /**
   * The ids (ascending) of the texts containing `text` as `substringMatch` on GRANTS_SEARCH (accents and case
   * folded) decides it, or null when that is not decided in memory (then ask the database). On PostgreSQL `db`
   * lowers the folded string (one short query).
   */
  async match(db: Kysely<GrantsDatabase>, text: string): Promise<Uint32Array | null> {
    const needle = text.trim();
    if (!needle.isWellFormed() || needle.includes('\0')) return null;
    const folded = foldAccents(needle);
    const short = [...needle].length < MIN_INDEXED_LENGTH || [...folded].length < MIN_INDEXED_LENGTH;
    if (this.dialect === 'postgres') {
      // ILIKE lowers the pattern (the folded string) as the server does
      const wanted = short ? folded : (await sql<{ l: string }>`select lower(${folded}) as l`.execute(db)).rows[0].l;
      return this.find(wanted, null);
    }
    // SQLite: pdi_fold_accents(text) contains the folded string, among FTS5's candidates when the string is long
    if (short) return this.find(folded, null);
    // FTS5 (trigram, remove_diacritics) lists a text as a candidate when its folding of the text holds every trigram
    // queried; a text whose folding is not known to, and does not, is left to the database
    const trigrams = queriedTrigrams(foldCase(folded));
    let undecided = false;
    const found = this.find(folded, (t) => {
      if (!this.ftsOther.has(t)) return true; // FTS5's folding is the folded text, which holds the string
      const fts = ftsFolded(this.original(t) ?? '');
      if (trigrams.every((g) => fts.text.includes(g))) return true;
      if (fts.unknown) undecided = true;
      return false;
    });
    return undecided ? null : found;
  }

  /**
   * Of texts that match `text` (ascending ids, as `match` gives them), those holding it with its accents as written
   * (case aside): the first rank of a search. 'all' or 'none' when that is all of them or none.
   */
  exactAmong(ids: Uint32Array, text: string): Uint32Array | 'all' | 'none' {
    const needle = foldCase(text.trim());
    const asciiNeedle = ASCII.test(needle);
    const exact: number[] = [];
    for (const t of ids) {
      const original = this.original(t);
      // a text of ASCII characters holds an ASCII needle exactly where it holds it folded, and no other needle;
      // a text matched by stems only holds neither
      if (original === undefined ? asciiNeedle && this.holdsFolded(t, needle) : foldCase(original).includes(needle)) exact.push(t);
    }
    return exact.length === 0 ? 'none' : exact.length === ids.length ? 'all' : Uint32Array.from(exact);
  }

  /** Whether ASCII text t holds the ASCII string `needle` (case aside). */
  private holdsFolded(t: number, needle: string): boolean {
    if (!this.french) return true; // (every match of a dictionary that is not French holds the string)
    const start = this.starts[t];
    const end = this.starts[t + 1] - 1;
    return end - start >= needle.length && this.data.slice(start, end).includes(needle);
  }

  /**
   * French texts: the ids (ascending) of the texts holding, one after another, words with the stems of the words of
   * `text` (frenchStem; "subventions" finds "subvention"). Empty for other texts, and for a string with no word.
   */
  stemMatch(text: string): Uint32Array {
    if (!this.french) return new Uint32Array(0);
    const wanted = searchStems(text);
    if (wanted.length === 0) return new Uint32Array(0);
    if (this.stems === null) {
      const stems = new Map<string, number[]>();
      for (let w = 0; w < this.index.count; w++) {
        const stem = frenchStem(this.index.word(w));
        const words = stems.get(stem);
        if (words === undefined) stems.set(stem, [w]);
        else words.push(w);
      }
      this.stems = stems;
    }
    const { candidates, scratch } = this;
    for (let k = 0; k < wanted.length; k++) {
      const into = k === 0 ? candidates : scratch;
      into.fill(0);
      const words = this.stems.get(wanted[k]);
      if (words === undefined) return new Uint32Array(0);
      for (const w of words) this.index.addTexts(w, into);
      if (k > 0) for (let i = 0; i < candidates.length; i++) candidates[i] &= scratch[i];
    }
    const out: number[] = [];
    for (let i = 0; i < candidates.length; i++) {
      for (let word = candidates[i]; word !== 0;) {
        const low = word & -word;
        word ^= low;
        const t = (i << 5) | (31 - Math.clz32(low));
        // one word: holding it is enough; several: they must follow one another in the text
        if (wanted.length === 1 || holdsStems(this.data.slice(this.starts[t], this.starts[t + 1] - 1), wanted)) out.push(t);
      }
    }
    return Uint32Array.from(out);
  }

  /**
   * The texts containing `needle` (ascending) in their folded form, found through the word index (WordIndex): the
   * texts meeting what the needle's pieces ask of their words are the candidates, each checked for the needle
   * (where the needle is one piece, the words decide alone). `confirm(t)`, where given, then decides for each text
   * with other than ASCII characters.
   */
  private find(needle: string, confirm: ((t: number) => boolean) | null): Uint32Array {
    const bytes = Buffer.from(needle);
    const chars = bytes.toString('latin1');
    const confirmed = (t: number) => confirm === null || (this.hasOriginal[t >>> 5] & (1 << (t & 31))) === 0 || confirm(t);
    // the pieces: maximal runs of word bytes
    const pieces: Array<{ from: number; to: number }> = [];
    for (let i = 0; i < bytes.length;) {
      if (WORD_BYTE[bytes[i]] === 0) {
        i++;
        continue;
      }
      let j = i + 1;
      while (j < bytes.length && WORD_BYTE[bytes[j]] === 1) j++;
      pieces.push({ from: i, to: j });
      i = j;
    }
    if (pieces.length === 0) {
      // separators only (or nothing): every text is a candidate
      const verify = this.verifier(chars, false);
      const out: number[] = [];
      for (let t = 0; t < this.size; t++) if (!this.absent.has(t) && verify(t) && confirmed(t)) out.push(t);
      return Uint32Array.from(out);
    }
    const { candidates, scratch } = this;
    for (let k = 0; k < pieces.length; k++) {
      const { from, to } = pieces[k];
      const place: Place = from === 0 ? (to === bytes.length ? 'within' : 'end') : to === bytes.length ? 'start' : 'whole';
      const piece = chars.slice(from, to);
      const into = k === 0 ? candidates : scratch;
      if (!this.index.textsOf(piece, place, into)) return new Uint32Array(0);
      if (k > 0) for (let w = 0; w < candidates.length; w++) candidates[w] &= scratch[w];
    }
    const onePiece = pieces.length === 1 && pieces[0].from === 0 && pieces[0].to === bytes.length;
    let most = 0;
    for (let w = 0; w < candidates.length; w++) most += popcount(candidates[w]);
    const verify = this.verifier(chars, most * SPARSE_SHARE < this.size);
    const out = new Uint32Array(most);
    let n = 0;
    for (let w = 0; w < candidates.length; w++) {
      let word = candidates[w];
      if (word === 0) continue;
      while (word !== 0) {
        const low = word & -word;
        word ^= low;
        const t = (w << 5) | (31 - Math.clz32(low));
        if ((onePiece || verify(t)) && confirmed(t)) out[n++] = t;
      }
    }
    return n === most ? out : out.slice(0, n);
  }

  /**
   * A check of texts in ascending order: whether text t contains `needle` (its UTF-8 bytes as characters).
   * `sparse`: few of the texts will be checked, so each is searched alone (a slice of `data`, which V8 does not
   * copy). Otherwise one indexOf finds the first occurrence from a candidate's start on, and that answers every
   * later candidate before it; the scan stops at the end of the candidate's view (VIEW_BITS), and a view without
   * an occurrence answers the candidates starting in it. (Scattered candidates are checked alone: one scan
   * from each would spend most of its time past its candidate's text.)
   */
  private verifier(needle: string, sparse: boolean): (t: number) => boolean {
    const { data, starts, views } = this;
    if (needle.length === 0) return () => true;
    if (sparse)
      return (t) => {
        const start = starts[t];
        const end = starts[t + 1] - 1;
        return end - start >= needle.length && data.slice(start, end).includes(needle);
      };
    let occurrence = -1; // the first occurrence at or after the last start searched from, or -1
    let clearTo = -1; // no occurrence from the last start searched from to here (the end of its view)
    return (t) => {
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

/** The stems of the words of a search string (folded as the texts are; frenchStem), in their order. */
export function searchStems(text: string): string[] {
  return wordsOf(Buffer.from(foldAccents(text.trim())).toString('latin1')).map(frenchStem);
}

/**
 * Whether a folded text (its UTF-8 bytes as one-byte characters) holds words with the stems `wanted` (searchStems),
 * one after another: stemMatch's test of a text.
 */
export function holdsStems(folded: string, wanted: string[]): boolean {
  return holdsRun(wordsOf(folded).map(frenchStem), wanted);
}

/**
 * A string that every word whose stem is `stem` contains (frenchStem only cuts a word's end, but makes "al" of "aux"):
 * a substring search for it finds every text that may hold such a word.
 */
export function stemPrefix(stem: string): string {
  return stem.endsWith('al') ? stem.slice(0, -1) : stem;
}

/** The words of a string of one-byte characters (maximal runs of WORD_BYTE bytes). */
function wordsOf(chars: string): string[] {
  const words: string[] = [];
  for (let i = 0; i < chars.length;) {
    if (WORD_BYTE[chars.charCodeAt(i) & 0xff] === 0) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < chars.length && WORD_BYTE[chars.charCodeAt(j) & 0xff] === 1) j++;
    words.push(chars.slice(i, j));
    i = j;
  }
  return words;
}

/** Whether `words` holds `run` as consecutive words. */
function holdsRun(words: string[], run: string[]): boolean {
  for (let i = 0; i + run.length <= words.length; i++) {
    let k = 0;
    while (k < run.length && words[i + k] === run[k]) k++;
    if (k === run.length) return true;
  }
  return false;
}
