// Name-only RRID suggestions over HTTP, on SQLite and PostgreSQL, from real papers that write Fiji's and ImageJ's
// RRIDs apart and one that writes "FIJI/ ImageJ": a name that joins two resources is not answered, and the resource
// type asked keeps a fly stock from answering an antibody, and a fly stock whose genotype holds a name is not that
// resource; suggest-rrid and recommend give the same first answer.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Static } from 'typebox';
import { describeEachDatabase, needsSharedData } from '../../../../test/support/databases.ts';
import { buildTestApp, testContext } from '../../../../test/support/app.ts';
import { corpusDir, linkStore } from '../../../../test/support/krt/corpus.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { importStore } from '../import.ts';
import { krtService } from '../service.ts';
import type { RecommendResponse, SuggestResponse } from '../schemas/ai.ts';

type Suggest = Static<typeof SuggestResponse>;
type Recommend = Static<typeof RecommendResponse>;

// Fiji with SCR_002285, ImageJ with SCR_003070, "FIJI/ ImageJ"; a fly stock whose genotype ends with "mCherry"
// (BDSC_33065) and a paper with an anti-mCherry antibody.
const PAPERS = [
  '2024/2024.10.04.616694.xml',
  '2024/2024.10.11.617841.xml',
  '2022/2022.10.19.512839.xml',
  '2023/2023.10.14.562004.xml',
  '2023/2023.10.17.562714.xml',
  '2022/2022.12.14.518530.xml',
  '2024/2024.11.20.622499.xml',
];
const gate = needsSharedData('krt', 'xml');

describeEachDatabase(
  'krt name-only suggestions over HTTP',
  (t) => {
    let app: ServiceApp | undefined;
    let dir: string | undefined;
    let store: string | undefined;
    before(async () => {
      if (gate.problem) throw new Error(gate.problem);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'krt-names-'));
      const ctx = testContext(krtService, t.db, { dataDir: dir, env: { ...process.env, PDI_KRT_LLM_BASE_URL: '', PDI_KRT_LLM_MODEL: '' } });
      store = linkStore(PAPERS.map((p) => path.join(corpusDir(), p)));
      await importStore(t.db, store, { workers: 0, progress: false });
      ctx.dataVersion.invalidate();
      app = await buildTestApp(krtService, ctx);
    });
    after(async () => {
      await app?.close();
      for (const d of [dir, store]) if (d) fs.rmSync(d, { recursive: true, force: true });
    });
    let client = 0;
    const post = async <T>(url: string, payload: object): Promise<T> => {
      const res = await app!.inject({ method: 'POST', url, payload, remoteAddress: `10.9.0.${++client}` });
      assert.equal(res.statusCode, 200, res.body);
      return JSON.parse(res.body) as T;
    };
    /** Both endpoints for one input; they must agree on the first answer and on the reason. */
    const ask = async (payload: { resource_name: string; resource_type?: string }) => {
      const suggested = await post<Suggest>('/api/ai/suggest-rrid/', payload);
      const recommended = await post<Recommend>('/api/ai/recommend/', payload);
      assert.equal(recommended.identified?.rrid ?? null, suggested.suggestions[0]?.suggested_rrid ?? null, JSON.stringify(payload));
      assert.equal(recommended.identification_reason, suggested.reason, JSON.stringify(payload));
      return suggested;
    };

    it(
      '"FIJI/ ImageJ" names two tools: no answer, and the reason says so; each name alone points to its own RRID',
      { skip: gate.skip },
      async () => {
        // Each name alone: its RRID first, or (these few papers leave it below the threshold) the reason names it first.
        for (const [resource_name, rrid] of [
          ['Fiji', 'RRID:SCR_002285'],
          ['ImageJ', 'RRID:SCR_003070'],
        ]) {
          const alone = await ask({ resource_name });
          assert.ok(
            alone.suggestions[0]?.suggested_rrid === rrid ||
              new RegExp(`^(too little evidence|papers disagree on this name): ${rrid} `).test(alone.reason ?? ''),
            alone.reason ?? '',
          );
        }
        for (const resource_name of ['FIJI/ ImageJ', 'ImageJ/Fiji']) {
          const joined = await ask({ resource_name });
          assert.deepEqual([joined.abstained, joined.total_found, joined.suggestions], [true, 0, []], resource_name);
          assert.match(
            joined.reason ?? '',
            /the name joins 2 resources that papers write apart: .*RRID:SCR_00(2285|3070).*RRID:SCR_00(3070|2285)/,
          );
        }
      },
    );

    it(
      'a fly stock whose genotype holds mCherry is not mCherry; an antibody asked is never answered with a fly stock',
      { skip: gate.skip },
      async () => {
        // "UAS-Syt::GFP UAS-DenMark::mCherry (III)" names a stock, not mCherry: neither the name alone nor an antibody
        // asked is answered with it, and the reason speaks of the antibody the papers name "mCherry".
        for (const resource_type of [undefined, 'antibody', 'Antibody']) {
          const asked = await ask({ resource_name: 'mCherry', ...(resource_type ? { resource_type } : {}) });
          assert.ok(!asked.suggestions.some((s) => s.suggested_rrid.startsWith('RRID:BDSC_')), JSON.stringify(asked.suggestions));
          assert.doesNotMatch(asked.reason ?? '', /BDSC_33065/);
          if (asked.abstained) assert.match(asked.reason ?? '', /RRID:AB_2536611/);
        }
        const organism = await ask({ resource_name: 'mCherry', resource_type: 'Experimental model: Organism/strain' });
        assert.ok(!organism.suggestions.some((s) => s.suggested_rrid.startsWith('RRID:AB_')), JSON.stringify(organism.suggestions));
      },
    );
  },
  { migrations: krtService.migrations },
);
