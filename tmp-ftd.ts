import { openDatabase } from './src/core/db/database.ts';
import { frenchTextsInDatabase } from './src/services/grants/search/french-in-database.ts';
import { substringMatch } from './src/core/db/search-index.ts';
import { GRANTS_SEARCH } from './src/services/grants/tables.ts';
import { searchStems, stemPrefix } from './src/services/grants/search/text-match.ts';
const db = openDatabase('sqlite:/tmp/c-french.sqlite');
const k = db.kysely as any;
for (const text of (process.argv[2] ?? 'santé,subventions,recherche,montreal').split(',')) {
  const c0 = process.cpuUsage(); let t = performance.now();
  const sub = await k.selectFrom('grants_texts').select(['id']).where(substringMatch(k, GRANTS_SEARCH, text)).execute();
  const subMs = performance.now() - t;
  const prefixes = searchStems(text).map(stemPrefix);
  t = performance.now();
  let cand = k.selectFrom('grants_texts').select(['id', 'text']);
  for (const p of prefixes) cand = cand.where(substringMatch(k, GRANTS_SEARCH, p));
  const rows = await cand.execute();
  const candMs = performance.now() - t;
  t = performance.now();
  const r = await frenchTextsInDatabase(k, text);
  const allMs = performance.now() - t;
  const c = process.cpuUsage(c0);
  console.log(text, 'substring', sub.length, subMs.toFixed(0), 'ms; prefixes', prefixes, 'candidates', rows.length, candMs.toFixed(0), 'ms; whole', r.ids.length, allMs.toFixed(0), 'ms; cpu', ((c.user + c.system) / 1000).toFixed(0));
}
await db.close();
