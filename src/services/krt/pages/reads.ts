// The one read the pages need that the API has no function for: the titles of the papers behind an RRID
// suggestion (its evidence), many at once. Written here, beside the pages, on the service's typed database.
import type { Kysely } from 'kysely';
import type { KrtDatabase } from '../tables.ts';

export interface EvidencePaper {
  doi: string;
  title: string;
  publication_date: string | null;
  is_demo: boolean;
}

/** The stored articles among `dois`, by DOI (DOIs the store no longer holds are left out). */
export async function papersByDoi(db: Kysely<KrtDatabase>, dois: readonly string[]): Promise<Map<string, EvidencePaper>> {
  const found = new Map<string, EvidencePaper>();
  const unique = [...new Set(dois)];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db
      .selectFrom('krt_articles')
      .select(['doi', 'title', 'publication_date', 'is_demo'])
      .where('doi', 'in', unique.slice(i, i + 500))
      .execute();
    for (const r of rows)
      found.set(r.doi, { doi: r.doi, title: r.title, publication_date: r.publication_date ?? null, is_demo: Boolean(r.is_demo) });
  }
  return found;
}
