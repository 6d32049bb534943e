// Service B: key resource tables (KRT) for preprints: a local JATS article store, table extraction, exports, and
// RRID suggestion, validation, recommendation and a table-building chat, also for a browser extension.
import { Type } from 'typebox';
import type { ServiceModule, ServingContext } from '../../core/service.ts';
import { krtMigrations } from './migrations.ts';
import { krtRoutes } from './routes/index.ts';
import { krtPages } from './pages/index.ts';
import { extractCommand, importPath } from './import.ts';
import { DEMO_DEFAULTS, loadKrtDemo, writeDemoStore } from './demo.ts';
import { importRegistry } from './registry/import.ts';
import { createKrtState } from './state.ts';
import type { KrtState } from './state.ts';
import { shippedFillModel } from './extract/learned/shipped.ts';

/**
 * Builds what the first table read would build (the knowledge base of the current data, about 2 s on the real
 * corpus; the shipped fill model), unless there is no data. A request that arrives meanwhile waits for the same
 * build, not a second one; a failure is logged and left to the first request to retry.
 */
async function warmKnowledgeBase(ctx: ServingContext<KrtState>): Promise<void> {
  try {
    if ((await ctx.dataVersion.current()) === null) return;
    const started = performance.now();
    shippedFillModel();
    await ctx.state.answers.knowledge.get();
    ctx.log.debug({ ms: Math.round(performance.now() - started) }, 'knowledge base ready');
  } catch (error) {
    ctx.log.warn({ err: error }, 'knowledge base not built at start; the first request builds it');
  }
}

export const krtService: ServiceModule<KrtState> = {
  name: 'krt',
  title: 'Key resource table (KRT) service',
  description:
    'Key resources tables of preprints from a local store of JATS full texts: whether a DOI is stored, DOI suggestions, tables by extraction session ' +
    'or by DOI, exports (json, csv, excel), and RRID suggestion, validation, alternative recommendation and a table-building chat, also for a browser ' +
    'extension (CORS). Base address host/api: every path is served at /api + path and at its old host-root address. Rate limits per client and minute ' +
    '(X-RateLimit-* headers; 429 with Retry-After). Errors: `{"success": false, "error": "…"}` with a 4xx/5xx status.',
  version: '1.0',
  cacheSeconds: 60,
  errorBody: ({ message }) => ({ success: false, error: message }),
  errorSchema: Type.Object({ success: Type.Literal(false), error: Type.String() }),
  migrations: krtMigrations,
  createState: createKrtState,
  routes: async (app, ctx) => {
    await krtRoutes(app, ctx);
    // Once the server listens (never before: listening and the ready line do not wait for it), the knowledge base is
    // built in the background, so the first reader of a table, a suggestion or a validation does not wait for it.
    app.addHook('onListen', () => {
      void warmKnowledgeBase(ctx);
    });
  },
  pages: krtPages,
  importers: {
    store: {
      description:
        'a directory of JATS XML files laid out as <dir>/<year>/<doi-suffix>.xml (DOI = 10.1101/<file name>), e.g. ../shared/data/krt/xml',
      run: (ctx, source, options) => importPath(ctx, source, options),
    },
    registry: {
      description:
        "a public registry's dump, told by its content: Cellosaurus' flat file (cellosaurus.txt, cell lines, RRID CVCL_…) or the Antibody Registry's " +
        'CSV export (antibodies, RRID AB_…); each registry replaces only its own entries',
      run: (ctx, source, options) => importRegistry(ctx, source, options),
    },
  },
  loadDemo: loadKrtDemo,
  generate: async ({ out, size, seed }) => writeDemoStore(out, size ?? DEMO_DEFAULTS.articles, seed),
  extract: extractCommand,
};
