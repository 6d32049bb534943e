// Perturbations of the secondary fields of a rounds feed, for the property tests of the feed import: the same value
// re-spelt as the live feed may write it (ordinal days, abbreviated months, no "at", odd spaces, zone words,
// other thousands separators), or junk (arbitrary text, empty, missing, not text).
import fc from 'fast-check';
import { SECONDARY_FIELDS } from '../../../src/services/draws/feed/rounds-feed.ts';

export type Feed = { rounds: Record<string, unknown>[] };

const MONTH_ABBREVIATIONS: Record<string, string[]> = {
  January: ['Jan', 'Jan.'],
  February: ['Feb', 'Feb.'],
  March: ['Mar', 'Mar.'],
  April: ['Apr', 'Apr.'],
  May: ['May'],
  June: ['Jun', 'Jun.'],
  July: ['Jul', 'Jul.'],
  August: ['Aug', 'Aug.'],
  September: ['Sept.', 'Sep', 'Sept'],
  October: ['Oct', 'Oct.'],
  November: ['Nov', 'Nov.'],
  December: ['Dec', 'Dec.'],
};

function ordinal(day: number): string {
  if (day % 100 >= 11 && day % 100 <= 13) return `${day}th`;
  return `${day}${['th', 'st', 'nd', 'rd'][day % 10] ?? 'th'}`;
}

/** The same date or time in another spelling the feed may use; `choices` picks which changes apply. */
function respellDate(text: string, choices: number[]): string {
  let t = text;
  const pick = (i: number, n: number) => (choices[i] ?? 0) % n;
  if (pick(0, 2)) t = t.replace(/\b([A-Z][a-z]+)\.?\s+(\d{1,2})\b/, (_m, month: string, day: string) => `${month} ${ordinal(Number(day))}`);
  if (pick(1, 2)) {
    t = t.replace(/\b(January|February|March|April|May|June|July|August|September|October|November|December)\b/, (month) => {
      const options = MONTH_ABBREVIATIONS[month];
      return options[pick(2, options.length)];
    });
  }
  if (pick(3, 2)) t = t.replace(/\s+at\s*/, ' ');
  if (pick(4, 2)) t = t.replace(/,\s*/g, ' ');
  if (pick(5, 3) === 1) t = t.replace(/ /g, '\u00a0');
  else if (pick(5, 3) === 2) t = t.replace(/ /g, '   ');
  if (/UTC\s*$/.test(t)) t = t.replace(/UTC\s*$/, ['UTC', 'GMT', '(UTC)', 'Coordinated Universal Time', '+00:00'][pick(6, 5)]);
  return pick(7, 2) ? ` ${t} ` : t;
}

function respellCount(text: string, choice: number): string | number {
  const n = Number(text.replace(/,/g, ''));
  switch (choice % 4) {
    case 0:
      return text.replace(/,/g, '\u00a0');
    case 1:
      return String(n);
    case 2:
      return n;
    default:
      return ` ${text} `;
  }
}

/** Values a secondary field may hold that cannot be read (or, by chance, can). */
export const junk = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', '   ', 'n/a', 'TBD', '—', 'sometime in July', 'July 32nd 2026 at 21:35:13 UTC', '25:61:00'),
  fc.constant(null),
  fc.constant(undefined),
  fc.integer({ min: -5, max: 10 ** 7 }),
  fc.constant({ value: 'x' }),
  fc.constant(['a']),
);

export interface Perturbation {
  round: number;
  field: (typeof SECONDARY_FIELDS)[number];
  kind: 'respell' | 'junk';
  choices: number[];
  value: unknown;
}

/** One change to one secondary field of one round: a re-spelling of its value, or junk. */
export const perturbation = (rounds: number): fc.Arbitrary<Perturbation> =>
  fc.record({
    round: fc.integer({ min: 0, max: rounds - 1 }),
    field: fc.constantFrom(...SECONDARY_FIELDS),
    kind: fc.constantFrom('respell' as const, 'junk' as const),
    choices: fc.array(fc.nat({ max: 9 }), { minLength: 8, maxLength: 8 }),
    value: junk,
  });

/** Applies a perturbation to a feed (in place). */
export function applyPerturbation(feed: Feed, p: Perturbation): void {
  const record = feed.rounds[p.round];
  const original = record[p.field];
  if (p.kind === 'respell' && typeof original === 'string' && original.trim() !== '') {
    if (/^dd\d+$/.test(p.field)) record[p.field] = respellCount(original, p.choices[0]);
    else if (p.field === 'drawText2' || p.field === 'drawNumberURL') record[p.field] = `  ${original}\u00a0`;
    else record[p.field] = respellDate(original, p.choices);
  } else if (p.value === undefined) delete record[p.field];
  else record[p.field] = p.value;
}
