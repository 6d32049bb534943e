// The serving process's copy of the RRID knowledge base (stored by aggregates.ts), reloaded when the service's
// data version changes, and the labels its answers carry when their only evidence is generated demo articles.
import type { ServiceContext } from '../../core/service.ts';
import type { Recommendation, RridSuggestion, RridValidation } from './rrid/index.ts';
import { readKnowledgeBase } from './aggregates.ts';
import type { LoadedKnowledgeBase } from './aggregates.ts';
import type { KrtTables } from './tables.ts';

export type { LoadedKnowledgeBase } from './aggregates.ts';

export class KnowledgeBaseHolder {
  private loaded: { key: string; value: LoadedKnowledgeBase | null } | null = null;
  private pending: Promise<LoadedKnowledgeBase | null> | null = null;
  private readonly ctx: ServiceContext;
  /** How many bases were read from the database: one per data version served (the warm-up at start counts). */
  builds = 0;

  constructor(ctx: ServiceContext) {
    this.ctx = ctx;
  }

  /** The current base, or null when nothing has been imported. */
  async get(): Promise<LoadedKnowledgeBase | null> {
    const key = (await this.ctx.dataVersion.current()) ?? 'none';
    if (this.loaded?.key === key) return this.loaded.value;
    this.pending ??= this.load(key).finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async load(key: string): Promise<LoadedKnowledgeBase | null> {
    this.builds++;
    const value = await readKnowledgeBase(this.ctx.db.kysely.withTables<KrtTables>());
    this.loaded = { key, value };
    return value;
  }
}

// ---- honesty about generated demo articles ------------------------------------------------------------------------

export const DEMO_EVIDENCE_NOTE = 'Evidence comes only from generated demo articles of this installation, not from real papers.';

function demoOnly(papers: Iterable<string>, demo: ReadonlySet<string>): boolean {
  let found = false;
  for (const doi of papers) {
    if (!demo.has(doi)) return false;
    found = true;
  }
  return found;
}

/** Whether the base's entry `id` is written by generated demo articles only. */
function demoEntry(loaded: LoadedKnowledgeBase, id: number): boolean {
  const entry = loaded.kb.entryById(id);
  return entry !== undefined && demoOnly(entry.papers.keys(), loaded.demo);
}

/**
 * A validation whose only evidence is generated demo articles is not a validation: such an RRID is reported as
 * `unverified` (is_valid false), and the recommendation says where its "evidence" came from.
 */
export function labelDemoValidation(validation: RridValidation, loaded: LoadedKnowledgeBase | null): RridValidation {
  if (!loaded || loaded.demo.size === 0) return validation;
  const id = validation.rrid.replace(/^RRID:/, '');
  const entry = loaded.kb.entryByRrid(id);
  if (validation.status === 'valid' && entry && demoOnly(entry.papers.keys(), loaded.demo)) {
    return {
      ...validation,
      is_valid: false,
      status: 'unverified',
      confidence_score: 0.5,
      recommendations: [
        `${validation.rrid} appears only in generated demo articles of this installation, which are not real papers; it is not evidence of a real resource. Check it at https://scicrunch.org/resolver/${validation.rrid}.`,
      ],
      papers: 0,
    };
  }
  return {
    ...validation,
    recommendations: validation.recommendations.map((text) => {
      const m = /^RRID:(\S+) is written by \d+ papers? of the local store\.$/.exec(text);
      const known = m ? loaded.kb.entryByRrid(m[1]) : undefined;
      return known && demoOnly(known.papers.keys(), loaded.demo)
        ? text.replace(/\.$/, ' (generated demo articles only, not real papers).')
        : text;
    }),
  };
}

/** Suggestions whose evidence is generated demo articles say so in their reasoning. */
export function labelDemoSuggestions(suggestions: RridSuggestion[], loaded: LoadedKnowledgeBase | null): RridSuggestion[] {
  if (!loaded || loaded.demo.size === 0) return suggestions;
  return suggestions.map((s) => (demoEntry(loaded, s.id) ? { ...s, reasoning: `${s.reasoning} ${DEMO_EVIDENCE_NOTE}` } : s));
}

/** Recommendations whose evidence is generated demo articles say so in their reasoning. */
export function labelDemoRecommendations(recommendations: Recommendation[], loaded: LoadedKnowledgeBase | null): Recommendation[] {
  if (!loaded) return recommendations;
  return recommendations.map((r) => (demoEntry(loaded, r.id) ? { ...r, reasoning: `${r.reasoning} ${DEMO_EVIDENCE_NOTE}` } : r));
}
