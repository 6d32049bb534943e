// The text dictionary of one import (the searched texts, each once, by id), kept by fingerprint.
import { ownCopy } from '../../../core/source-text.ts';
import { fingerprint } from './hashing.ts';
import type { Fingerprinter } from './hashing.ts';

/** A row of the text dictionary. */
export type DictionaryText = { id: number; text: string };

/**
 * The text dictionary of one import: each distinct searched text gets an id the first time a stored
 * agreement uses it. The dictionary is rebuilt by every import (it starts empty), so it holds the texts of
 * the file's current agreements only.
 *
 * Memory: holding the distinct texts as keys cost 86 MB of strings on the 1.3-million-row file (and the
 * heap's growth around them pushed the import past 600 MB), so a text is known by a 96-bit fingerprint
 * instead: a 64-bit key in an open-addressing table of typed arrays (not a Map of 53-bit number keys: each
 * key would be a boxed number), and a second, independent 32-bit hash and the length checked on every
 * hit. A hit whose check differs is a collision of the key: that text is then kept exactly, in a map of its
 * own. Two distinct texts agreeing on all 96 bits and the length is the only way to confuse them: about
 * 10⁻¹⁷ for a million texts.
 */
export class TextDictionary {
  private readonly fingerprintOf: Fingerprinter;
  /** Slot → id (0: empty); linear probing, at most half full. */
  private table = new Int32Array(1 << 16);
  /** Texts whose key collided with another text's. */
  private readonly exact = new Map<string, number>();
  // by id: the key's two words, the check and the length
  private keyLow = new Uint32Array(1 << 15);
  private keyHigh = new Uint32Array(1 << 15);
  private checks = new Uint32Array(1 << 15);
  private lengths = new Uint32Array(1 << 15);
  private count = 0;
  private pending: DictionaryText[] = [];
  /** The fingerprint (key low, key high, check) of the text of the last `idOf`. */
  readonly lastPrint = new Uint32Array(3);

  private readonly keepTexts: boolean;

  /**
   * `fingerprintOf` is for tests (a colliding one); the default is `fingerprint`. Without `keepTexts`, the
   * dictionary only numbers texts (`takeNew` gives nothing).
   */
  constructor(fingerprintOf: Fingerprinter = fingerprint, keepTexts = true) {
    this.fingerprintOf = fingerprintOf;
    this.keepTexts = keepTexts;
  }

  idOf(text: string): number {
    const print = this.lastPrint;
    this.fingerprintOf(text, print);
    const low = print[0];
    const high = print[1];
    const mask = this.table.length - 1;
    let slot = low & mask;
    for (let id = this.table[slot]; id !== 0; id = this.table[slot]) {
      if (this.keyLow[id] === low && this.keyHigh[id] === high) {
        if (this.checks[id] === print[2] && this.lengths[id] === text.length) return id;
        // the key of another text
        const known = this.exact.get(text);
        if (known !== undefined) return known;
        const added = this.add(text);
        // kept for the whole import: not a slice holding a parser chunk alive (the in-thread reader)
        this.exact.set(ownCopy(text), added);
        return added;
      }
      slot = (slot + 1) & mask;
    }
    const id = this.add(text);
    this.table[slot] = id;
    if (2 * this.count > this.table.length) this.growTable();
    return id;
  }

  private add(text: string): number {
    const id = ++this.count;
    if (id >= this.checks.length) {
      const grow = (a: Uint32Array) => {
        const b = new Uint32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.keyLow = grow(this.keyLow);
      this.keyHigh = grow(this.keyHigh);
      this.checks = grow(this.checks);
      this.lengths = grow(this.lengths);
    }
    this.keyLow[id] = this.lastPrint[0];
    this.keyHigh[id] = this.lastPrint[1];
    this.checks[id] = this.lastPrint[2];
    this.lengths[id] = text.length;
    if (this.keepTexts) this.pending.push({ id, text }); // written with the batch that brought it (takeNew)
    return id;
  }

  private growTable(): void {
    const old = this.table;
    this.table = new Int32Array(old.length * 2);
    const mask = this.table.length - 1;
    for (const id of old) {
      if (id === 0) continue;
      let slot = this.keyLow[id] & mask;
      while (this.table[slot] !== 0) slot = (slot + 1) & mask;
      this.table[slot] = id;
    }
  }

  get size(): number {
    return this.count;
  }

  /** The texts added since the last call. */
  takeNew(): DictionaryText[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }
}
