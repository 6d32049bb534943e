// Reads the recipient page and the department statistics need, which neither the repository nor the stored
// aggregates have: all agreements of one recipient (by legal name, exactly), and totals by department.
//
// Why in memory: the agreements table has no index on the recipient (migration 5 retired the secondary
// indexes; searches are answered by memory-search.ts), so "WHERE recipient_text_id = ?" reads the whole table
// — hundreds of milliseconds at 1.3 million rows. Here one pass per data version (keyset pages by id) keeps,
// per agreement, its id, recipient text id, value, fiscal year and department code: about 23 bytes an
// agreement (30 MB at 1.3 million). A recipient's agreements are then a scan of one typed array (a few
// milliseconds), and the department totals are computed during the pass.
import type { Kysely } from 'kysely';
import { substringMatch } from '../../../core/db/search-index.ts';
import type { DataVersionWatcher } from '../../../core/service.ts';
import { GRANTS_SEARCH } from '../tables.ts';
import type { GrantsDatabase } from '../tables.ts';

const PAGE_ROWS = 20_000;
const MAX_LOAD_ATTEMPTS = 5;

export interface DepartmentTotal {
  owner_org: string;
  title: string;
  /** The department's French name ('' where the source gives none). */
  title_fr: string;
  count: number;
  total_value_cents: number;
}

interface Snapshot {
  version: string | null;
  size: number;
  ids: Float64Array;
  recipient: Uint32Array;
  valueCents: Float64Array;
  /** Index into `years`. */
  year: Uint16Array;
  years: string[];
  departments: DepartmentTotal[];
}

export interface RecipientAgreements {
  /** The recipient's dictionary text id, or null when no agreement names it. */
  textId: number | null;
  count: number;
  totalValueCents: number;
  /** By fiscal year, ascending. */
  byYear: Array<{ fiscal_year: string; count: number; total_value_cents: number }>;
  /** Ids of the requested page, by value descending then id. */
  pageIds: number[];
}

export class AgreementIndex {
  private readonly db: Kysely<GrantsDatabase>;
  private readonly versions: DataVersionWatcher;
  private snapshot: Snapshot | null = null;
  private loading: Promise<Snapshot> | null = null;

  constructor(db: Kysely<GrantsDatabase>, versions: DataVersionWatcher) {
    this.db = db;
    this.versions = versions;
  }

  /** The snapshot of the current data version (loaded on first use and after an import). */
  private async current(): Promise<Snapshot> {
    const version = await this.versions.current();
    if (this.snapshot && this.snapshot.version === version) return this.snapshot;
    this.loading ??= this.load().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async load(): Promise<Snapshot> {
    for (let attempt = 1; attempt <= MAX_LOAD_ATTEMPTS; attempt++) {
      const version = await this.versions.current();
      const snapshot = await this.read(version);
      this.versions.invalidate();
      // An import committed during the pass: the arrays mix two versions; read again.
      if ((await this.versions.current()) === version) {
        this.snapshot = snapshot;
        return snapshot;
      }
    }
    throw new Error(`the grants changed during ${MAX_LOAD_ATTEMPTS} reads of the agreement index in a row`);
  }

  private async read(version: string | null): Promise<Snapshot> {
    let capacity = 1024;
    let ids = new Float64Array(capacity);
    let recipient = new Uint32Array(capacity);
    let valueCents = new Float64Array(capacity);
    let year = new Uint16Array(capacity);
    const yearCodes = new Map<string, number>();
    const departments = new Map<string, DepartmentTotal>();
    let size = 0;
    let after = 0;
    for (;;) {
      const rows = await this.db
        .selectFrom('grants_agreements')
        .select(['id', 'recipient_text_id', 'agreement_value_cents', 'fiscal_year', 'owner_org', 'owner_org_title', 'owner_org_title_fr'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE_ROWS)
        .execute();
      if (rows.length === 0) break;
      if (size + rows.length > capacity) {
        capacity = Math.max(capacity * 2, size + rows.length);
        ids = grow(ids, new Float64Array(capacity));
        recipient = grow(recipient, new Uint32Array(capacity));
        valueCents = grow(valueCents, new Float64Array(capacity));
        year = grow(year, new Uint16Array(capacity));
      }
      for (const r of rows) {
        const cents = Number(r.agreement_value_cents);
        ids[size] = r.id;
        recipient[size] = Number(r.recipient_text_id ?? 0);
        valueCents[size] = cents;
        let code = yearCodes.get(r.fiscal_year);
        if (code === undefined) yearCodes.set(r.fiscal_year, (code = yearCodes.size));
        year[size] = code;
        let department = departments.get(r.owner_org);
        if (!department) {
          department = {
            owner_org: r.owner_org,
            title: r.owner_org_title || r.owner_org,
            title_fr: r.owner_org_title_fr,
            count: 0,
            total_value_cents: 0,
          };
          departments.set(r.owner_org, department);
        }
        department.count++;
        department.total_value_cents += cents;
        size++;
      }
      after = rows[rows.length - 1].id;
    }
    return {
      version,
      size,
      ids,
      recipient,
      valueCents,
      year,
      years: [...yearCodes.keys()],
      departments: [...departments.values()].sort(
        (a, b) => b.total_value_cents - a.total_value_cents || (a.owner_org < b.owner_org ? -1 : 1),
      ),
    };
  }

  /** Totals by department (publishing organization), by total value descending. */
  async departments(): Promise<DepartmentTotal[]> {
    return (await this.current()).departments;
  }

  /** The agreements whose recipient legal name is exactly `name`: totals, by year, and one page of ids. */
  async recipient(name: string, page: { limit: number; offset: number }): Promise<RecipientAgreements> {
    const snapshot = await this.current();
    const textId = await this.textIdOf(name);
    const empty: RecipientAgreements = { textId, count: 0, totalValueCents: 0, byYear: [], pageIds: [] };
    if (textId === null) return empty;
    const matches: number[] = [];
    for (let i = 0; i < snapshot.size; i++) if (snapshot.recipient[i] === textId) matches.push(i);
    if (matches.length === 0) return { ...empty, textId: null };
    const years = new Map<number, { count: number; cents: number }>();
    let total = 0;
    for (const i of matches) {
      total += snapshot.valueCents[i];
      const y = years.get(snapshot.year[i]) ?? { count: 0, cents: 0 };
      y.count++;
      y.cents += snapshot.valueCents[i];
      years.set(snapshot.year[i], y);
    }
    matches.sort((a, b) => snapshot.valueCents[b] - snapshot.valueCents[a] || snapshot.ids[a] - snapshot.ids[b]);
    return {
      textId,
      count: matches.length,
      totalValueCents: total,
      byYear: [...years]
        .map(([code, y]) => ({ fiscal_year: snapshot.years[code], count: y.count, total_value_cents: y.cents }))
        .sort((a, b) => (a.fiscal_year < b.fiscal_year ? -1 : 1)),
      pageIds: matches.slice(page.offset, page.offset + page.limit).map((i) => snapshot.ids[i]),
    };
  }

  /** The dictionary id of a text, found through the substring index (the dictionary has no index on the whole text). */
  private async textIdOf(name: string): Promise<number | null> {
    const rows = await this.db
      .selectFrom('grants_texts')
      .select(['id', 'text'])
      .where(substringMatch(this.db, GRANTS_SEARCH, name))
      .where('text', '=', name)
      .limit(1)
      .execute();
    return rows.length > 0 ? Number(rows[0].id) : null;
  }
}

function grow<T extends Float64Array | Uint32Array | Uint16Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
