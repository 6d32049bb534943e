// Amendment resolution: the file carries every amendment of an agreement as its own row; the service keeps
// one grant per (owner_org, reference), the row with the highest amendment_number (its value is the
// agreement's current value).
//
// Tie rules, so that importing the same file twice gives the same state:
//  1. higher amendment_number wins (numeric compare: 10 beats 9);
//  2. equal numbers: the later amendment_date wins; a row with a date beats a row without one;
//  3. still equal: the row later in the file wins (a republished row replaces the earlier one).
import type { GrantRecord } from './record.ts';

/** The identity of an agreement. owner_org is already lower case in a GrantRecord; the reference is kept as published. */
export function amendmentKey(record: Pick<GrantRecord, 'owner_org' | 'reference_number'>): string {
  return `${record.owner_org}\u0000${record.reference_number}`;
}

type AmendmentFields = Pick<GrantRecord, 'amendment_number' | 'amendment_date'>;

/**
 * Whether `candidate` replaces `current` for the same key, where `candidate` comes later in the file.
 * (For rows of unknown order, compare amendment_number and amendment_date only.)
 */
export function supersedes(candidate: AmendmentFields, current: AmendmentFields): boolean {
  if (candidate.amendment_number !== current.amendment_number) return candidate.amendment_number > current.amendment_number;
  const a = candidate.amendment_date;
  const b = current.amendment_date;
  if (a !== b) {
    if (a === null) return false;
    if (b === null) return true;
    return a > b; // ISO dates compare as strings
  }
  return true; // rule 3: later row wins
}

/**
 * In-memory resolution for files that fit in memory (tests, the demo set, round trips). The importer of
 * the full 1.3-million-row file applies the same `supersedes` rule as an upsert in the database instead.
 */
export class AmendmentResolver<T extends GrantRecord = GrantRecord> {
  private readonly current = new Map<string, T>();
  private rows = 0;

  add(record: T): void {
    this.rows++;
    const key = amendmentKey(record);
    const existing = this.current.get(key);
    if (!existing || supersedes(record, existing)) this.current.set(key, record);
  }

  get rowsAdded(): number {
    return this.rows;
  }

  get size(): number {
    return this.current.size;
  }

  values(): IterableIterator<T> {
    return this.current.values();
  }
}
