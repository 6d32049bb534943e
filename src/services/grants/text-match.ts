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
import { popcount } from './bitset.ts';
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
/** Highest code point (excluded) of the texts whose FTS5 folding provably agrees with foldCase. */
const FTS_SAFE_LIMIT = 0x250;
const DOTTED_CAPITAL_I = 0x130; // lowercases to two code points ("i" and a combining dot)

const ASCII = /^[\x00-\x7f]*$/;

/**
 * 1 for the bytes of a word: ASCII letters and digits, and every byte of a UTF-8 sequence beyond ASCII (which
 * never holds an ASCII byte). Every other byte (spaces, punctuation, controls, the NUL after each text)
 * separates words, in the texts and in a needle alike.
 */
const WORD_BYTE = new Uint8Array(256).map((_, b) =>
  b >= 0x80 || (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) ? 1 : 0,
);

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
          await new Promise((resolve) => setImmediate(resolve));
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

  private addTexts(w: number, texts: Int32Array): void {
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
  /** The words of the lowered texts, and those of the folded forms (`folded`), for the needles compared with them. */
  private readonly index: WordIndex;
  private readonly foldedIndex: WordIndex;
  /** A bitmap of the texts that have a folded form (`folded`): a search checks them, whatever the index says. */
  private readonly hasFolded: Int32Array;
  /** Bitmaps of the texts for one search (a search is synchronous once its needle is known). */
  private readonly candidates: Int32Array;
  private readonly scratch: Int32Array;
  private readonly scratchFolded: Int32Array;
  private readonly foldedChars: number;

  private constructor(
    dialect: DialectName,
    data: string,
    starts: Uint32Array,
    folded: Map<number, string>,
    misaligned: Set<number>,
    absent: Set<number>,
    index: WordIndex,
    foldedIndex: WordIndex,
  ) {
    this.dialect = dialect;
    this.absent = absent;
    this.size = starts.length - 1;
    this.data = data;
    this.starts = starts;
    this.folded = folded;
    this.misaligned = misaligned;
    this.index = index;
    this.foldedIndex = foldedIndex;
    this.hasFolded = new Int32Array(index.textWords);
    for (const t of folded.keys()) this.hasFolded[t >>> 5] |= 1 << (t & 31);
    this.candidates = new Int32Array(index.textWords);
    this.scratch = new Int32Array(index.textWords);
    this.scratchFolded = new Int32Array(index.textWords);
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
    const textCount = startArray.length - 1;
    const index = await WordIndex.build(textCount, (t, visit) => visit(final, startArray[t], startArray[t + 1] - 1));
    const foldedIndex = await WordIndex.build(textCount, (t, visit) => {
      const f = folded.get(t);
      if (f === undefined) return;
      const b = Buffer.from(f);
      visit(b, 0, b.length);
    });
    // one-byte characters: 63 MB, which V8 keeps outside its heap as an external string (`external` in
    // process.memoryUsage()); the Buffer's memory is returned at the next collection (a block that large is mapped apart)
    return new TextDictionary(dialect, final.toString('latin1'), startArray, folded, misaligned, new Set(absent), index, foldedIndex);
  }

  /** Memory held, in bytes (the folded strings counted at one byte a character, as V8 stores Latin-1 text). */
  get bytes(): number {
    return (
      this.index.byteLength +
      this.foldedIndex.byteLength +
      4 * this.hasFolded.byteLength +
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
  async match(db: Kysely<GrantsDatabase>, text: string): Promise<Uint32Array | null> {
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
   * The texts containing `needle` (ascending), found through the word indexes (WordIndex): the texts meeting what
   * the needle's pieces ask of their words are the candidates, from the lowered texts' words and, where `ofFolded`
   * is given, the folded forms' too. Each candidate is checked for the needle in its lowered text, or, where
   * `ofFolded` is given and the text has a folded form, `ofFolded(t, folded form)` decides; but where the needle is
   * one piece, the lowered words decide alone, and only texts with a folded form are checked when `ofFolded` is
   * given.
   */
  private find(needle: string, ofFolded: ((t: number, folded: string) => boolean) | null): Uint32Array {
    const bytes = Buffer.from(needle);
    const chars = bytes.toString('latin1');
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
      const verify = this.verifier(chars, ofFolded, false);
      const out: number[] = [];
      for (let t = 0; t < this.size; t++) if (!this.absent.has(t) && verify(t)) out.push(t);
      return Uint32Array.from(out);
    }
    const { candidates, scratch, scratchFolded, hasFolded } = this;
    for (let k = 0; k < pieces.length; k++) {
      const { from, to } = pieces[k];
      const place: Place = from === 0 ? (to === bytes.length ? 'within' : 'end') : to === bytes.length ? 'start' : 'whole';
      const piece = chars.slice(from, to);
      const into = k === 0 ? candidates : scratch;
      let any = this.index.textsOf(piece, place, into);
      if (ofFolded !== null && this.folded.size > 0 && this.foldedIndex.textsOf(piece, place, scratchFolded)) {
        any = true;
        for (let w = 0; w < into.length; w++) into[w] |= scratchFolded[w];
      }
      if (!any) return new Uint32Array(0);
      if (k > 0) for (let w = 0; w < candidates.length; w++) candidates[w] &= scratch[w];
    }
    const onePiece = pieces.length === 1 && pieces[0].from === 0 && pieces[0].to === bytes.length;
    let most = 0;
    for (let w = 0; w < candidates.length; w++) most += popcount(candidates[w]);
    const verify = this.verifier(chars, ofFolded, most * SPARSE_SHARE < this.size);
    const out = new Uint32Array(most);
    let n = 0;
    for (let w = 0; w < candidates.length; w++) {
      let word = candidates[w];
      if (word === 0) continue;
      const checked = !onePiece ? word : ofFolded === null ? 0 : word & hasFolded[w];
      while (word !== 0) {
        const low = word & -word;
        word ^= low;
        const t = (w << 5) | (31 - Math.clz32(low));
        if ((checked & low) === 0 || verify(t)) out[n++] = t;
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
  private verifier(needle: string, ofFolded: ((t: number, folded: string) => boolean) | null, sparse: boolean): (t: number) => boolean {
    const { data, starts, views, folded } = this;
    if (needle.length === 0) return () => true;
    if (sparse)
      return (t) => {
        if (ofFolded !== null) {
          const f = folded.get(t);
          if (f !== undefined) return ofFolded(t, f);
        }
        const start = starts[t];
        const end = starts[t + 1] - 1;
        return end - start >= needle.length && data.slice(start, end).includes(needle);
      };
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
