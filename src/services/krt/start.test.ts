// B's knowledge base is built once the server listens, in the background, on SQLite and PostgreSQL: after start the
// first table read finds it built (the holder's build count stays at one); without a listen (inject only) the first
// read builds it, as before; with no data nothing is built.
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildTestApp, testContext } from '../../../test/support/app.ts';
import { describeEachDatabase } from '../../../test/support/databases.ts';
import type { ServiceApp, ServiceContext } from '../../core/service.ts';
import { krtService } from './service.ts';
import type { KrtState } from './state.ts';

/** B with its state kept for the test to read (the kernel makes it once per app, as it does for B itself). */
function capturingService(): { service: typeof krtService; state: () => KrtState } {
  let state: KrtState | undefined;
  const service = {
    ...krtService,
    createState: (ctx: ServiceContext) => {
      state = krtService.createState(ctx) as KrtState;
      return state;
    },
  };
  return { service, state: () => state! };
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}

/** A DOI whose table is built from the text (its rows have evidence): reading it reads the knowledge base. */
async function textBuiltDoi(app: ServiceApp): Promise<string> {
  const { suggestions } = (await app.inject('/api/doi-suggestions/?limit=50')).json() as { suggestions: { doi: string }[] };
  for (const { doi } of suggestions) {
    const table = (await app.inject(`/api/krt/doi/${doi}/`)).json() as { krt_data?: unknown[]; row_evidence?: unknown[] | null };
    if (table.row_evidence && table.krt_data?.length) return doi;
  }
  throw new Error('the demo store has no text-built table');
}

describeEachDatabase(
  'krt: the knowledge base is built when the server starts',
  (t) => {
    const apps: ServiceApp[] = [];
    const dirs: string[] = [];
    const context = () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-krt-start-'));
      dirs.push(dir);
      return testContext(krtService, t.db, { dataDir: dir });
    };
    after(async () => {
      for (const app of apps) await app.close();
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('without data, starting builds nothing', async () => {
      const { service, state } = capturingService();
      const app = await buildTestApp(service, context());
      apps.push(app);
      await app.listen({ port: 0, host: '127.0.0.1' });
      // The warm-up reads the data version first; give it time to have gone further if it were going to.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(state().answers.knowledge.builds, 0);
    });

    it('with data, the first table read after start does not build the base; without a listen it does', async () => {
      const ctx = context();
      await krtService.loadDemo(ctx, {});

      const cold = capturingService();
      const injected = await buildTestApp(cold.service, ctx);
      apps.push(injected);
      const doi = await textBuiltDoi(injected);
      assert.equal(cold.state().answers.knowledge.builds, 1, 'without a listen, the first table read builds the base');

      const { service, state } = capturingService();
      const app = await buildTestApp(service, ctx);
      apps.push(app);
      const origin = await app.listen({ port: 0, host: '127.0.0.1' });
      assert.ok(await until(() => state().answers.knowledge.builds === 1, 60_000), 'the base is built after start');
      const answer = await fetch(`${origin}/api/krt/doi/${doi}/`);
      assert.equal(answer.status, 200);
      const table = (await answer.json()) as { row_evidence: unknown[] | null };
      assert.ok(table.row_evidence, 'a text-built table, which reads the base');
      assert.equal(state().answers.knowledge.builds, 1, 'the first table read found the base built');
    });
  },
  { migrations: krtService.migrations },
);
