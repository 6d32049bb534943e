// A search's French part answered by the database, while the in-memory index of the French texts loads.
//
// Why: the French texts (as many as the English ones) are read into memory by the first search in French, which
// takes tens of seconds at full size; that search, and those that follow it meanwhile, are answered here instead,
// with the in-memory answer's semantics, so that their agreements, count and order are the same:
//  - the texts containing the string: substringMatch over the dictionary (what the in-memory match reproduces);
//  - the texts holding, one after another, words with the stems of the string's words (TextDictionary.stemMatch):
//    the texts containing each stem's prefix (stemPrefix) are read, folded as the in-memory texts are (on
//    PostgreSQL by the server: its lower() follows the database's locale), and their words' stems compared;
//  - of those, the texts holding the string with its accents as written (case aside): the first rank;
//  - the agreements holding one of these texts: from the French columns' inverted lists, which the index reads with
//    the English ones (memory-search.ts), so no search scans the agreements table (it has no index on the text ids).
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { dialectOf, foldAccents, foldCase } from '../../../core/db/dialect.ts';
import { substringMatch } from '../../../core/db/search-index.ts';
import { GRANTS_SEARCH } from '../tables.ts';
import type { GrantsDatabase } from '../tables.ts';
import { holdsStems, searchStems, stemPrefix } from './text-match.ts';

/** The dictionary texts a French search matches (ascending), and those of them holding the string as written. */
export interface FrenchTexts {
  ids: Uint32Array;
  exact: Set<number>;
}

/** The texts containing `text` (accents and case aside) or holding its words' stems, as the in-memory French search finds them. */
export async function frenchTextsInDatabase(db: Kysely<GrantsDatabase>, text: string): Promise<FrenchTexts> {
  const needle = foldCase(text.trim());
  const found = new Map<number, string>(); // id → text as stored
  const substring = await db
    .selectFrom('grants_texts')
    .select(['id', 'text'])
    .where(substringMatch(db, GRANTS_SEARCH, text))
    .execute();
  for (const r of substring) found.set(Number(r.id), r.text);
  const wanted = searchStems(text);
  if (wanted.length > 0) {
    const prefixes = [...new Set(wanted.map(stemPrefix))].map((p) => Buffer.from(p, 'latin1').toString('utf8'));
    // (SQLite: folded here, as TextDictionary.load folds them)
    const folded = dialectOf(db) === 'postgres' ? sql<string | null>`lower(pdi_fold_accents(text))` : sql<string | null>`null`;
    let candidates = db.selectFrom('grants_texts').select(['id', 'text', folded.as('folded')]);
    for (const prefix of prefixes) candidates = candidates.where(substringMatch(db, GRANTS_SEARCH, prefix));
    for (const r of await candidates.execute()) {
      const id = Number(r.id);
      if (found.has(id)) continue;
      const form = r.folded ?? foldAccents(r.text);
      if (holdsStems(Buffer.from(form).toString('latin1'), wanted)) found.set(id, r.text);
    }
  }
  const ids = Uint32Array.from(found.keys()).sort();
  const exact = new Set<number>();
  for (const [id, stored] of found) if (foldCase(stored).includes(needle)) exact.add(id);
  return { ids, exact };
}
