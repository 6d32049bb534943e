// The optional language-model provider against a local fake of an OpenAI-compatible API (a test double of the
// remote service): its failures (HTTP errors, a reply that is not the requested JSON, no answer in time) are
// recorded as failed sessions with the reason, never as an empty completed table; a good answer becomes a session
// whose identifiers all occur in the article. On SQLite and PostgreSQL, through the CLI path and over HTTP.
import { after, before, it, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { describeEachDatabase } from '../../../test/support/databases.ts';
import { buildTestApp, testContext } from '../../../test/support/app.ts';
import type { ServiceApp, ServiceContext } from '../../core/service.ts';
import { krtService } from './service.ts';
import { importStore, runExtraction } from './import.ts';
import { writeDemoStore } from './demo.ts';
import { LlmError, llmConfigFrom, rowsFromReply } from './llm.ts';
import type { LlmConfig } from './llm.ts';
import type { KrtTables } from './tables.ts';

test('a model reply becomes rows: vocabularies enforced, code fences tolerated, identifiers absent from the article dropped', () => {
  const reply =
    '```json\n' +
    JSON.stringify({
      rows: [
        {
          'RESOURCE TYPE': 'antibodies',
          'RESOURCE NAME': 'rabbit anti-GFP',
          SOURCE: 'Abcam',
          IDENTIFIER: 'Cat #ab290, RRID: AB 303395',
          'NEW/REUSE': 'REUSE',
          'ADDITIONAL INFORMATION': '1:1000',
        },
        {
          'RESOURCE TYPE': 'Antibody',
          'RESOURCE NAME': 'mouse anti-actin',
          SOURCE: 'Sigma',
          IDENTIFIER: 'Cat# A5441; RRID:AB_476744',
          'NEW/REUSE': 'reuse',
        },
        { 'RESOURCE TYPE': 'Recombinant DNA', 'RESOURCE NAME': 'pX-new', SOURCE: 'This study', IDENTIFIER: '', 'NEW/REUSE': '' },
        { 'RESOURCE TYPE': 'Widget', 'RESOURCE NAME': 'thing' },
        { 'RESOURCE NAME': '' },
      ],
    }) +
    '\n```';
  const article = 'We used rabbit anti-GFP (Abcam ab290, RRID:AB_303395) and mouse anti-actin from Sigma.';
  const { rows, dropped } = rowsFromReply(reply, article);
  assert.deepEqual(
    rows.map((r) => [r['RESOURCE TYPE'], r['RESOURCE NAME'], r.IDENTIFIER, r['NEW/REUSE']]),
    [
      ['Antibody', 'rabbit anti-GFP', 'Cat# ab290; RRID:AB_303395', 'reuse'],
      ['Antibody', 'mouse anti-actin', '', 'reuse'],
      ['Recombinant DNA', 'pX-new', '', 'new'],
      ['Other', 'thing', '', 'reuse'],
    ],
  );
  assert.equal(dropped, 2, 'the catalog number and the RRID the article does not contain');
  assert.throws(() => rowsFromReply('Sure! Here is the table: …', article), LlmError);
  assert.throws(() => rowsFromReply('{"table": []}', article), /no "rows" array/);
});

test('the provider is configured from the environment only, base URL and model both required', () => {
  assert.equal(llmConfigFrom({}), null);
  assert.equal(llmConfigFrom({ PDI_KRT_LLM_BASE_URL: 'http://x' }), null);
  const config = llmConfigFrom({
    PDI_KRT_LLM_BASE_URL: 'http://x/v1/',
    PDI_KRT_LLM_MODEL: 'm',
    PDI_KRT_LLM_API_KEY: 'k',
    PDI_KRT_LLM_TIMEOUT_MS: '500',
  })!;
  assert.deepEqual([config.baseUrl, config.model, config.apiKey, config.timeoutMs], ['http://x/v1', 'm', 'k', 500]);
});

type Mode = 'error' | 'garbage' | 'hang' | 'ok';

/** What the service sends to the provider (the part the tests read). */
interface ChatCompletionRequest {
  model: string;
  messages: { role: string; content: string }[];
}

/** A fake OpenAI-compatible chat-completions server; `mode` decides its next answers. */
async function fakeProvider() {
  const state = { mode: 'error' as Mode, requests: [] as { auth: string | undefined; body: ChatCompletionRequest | null }[] };
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      state.requests.push({ auth: req.headers.authorization, body: data ? (JSON.parse(data) as ChatCompletionRequest) : null });
      if (req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      if (state.mode === 'hang') return; // never answers
      if (state.mode === 'error') {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'The model is overloaded', type: 'server_error' } }));
        return;
      }
      const user = state.requests.at(-1)!.body!.messages[1].content;
      const content =
        state.mode === 'garbage'
          ? 'I cannot help with that.'
          : JSON.stringify({
              rows: [
                {
                  'RESOURCE TYPE': 'Antibody',
                  'RESOURCE NAME': 'Rabbit anti-GFP',
                  SOURCE: 'Example Immunoreagents (demo)',
                  IDENTIFIER: `Cat# ${/DEMO-[A-Z]{2}-\d{4}/.exec(user)?.[0] ?? 'ZZZ-1'}`,
                  'NEW/REUSE': 'reuse',
                  'ADDITIONAL INFORMATION': '',
                },
                {
                  'RESOURCE TYPE': 'Antibody',
                  'RESOURCE NAME': 'Invented antibody',
                  SOURCE: 'Nowhere',
                  IDENTIFIER: 'RRID:AB_999999999',
                  'NEW/REUSE': 'reuse',
                  'ADDITIONAL INFORMATION': '',
                },
              ],
            });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    state,
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describeEachDatabase(
  'krt language-model provider failures',
  (t) => {
    let dir: string;
    let provider: Awaited<ReturnType<typeof fakeProvider>>;
    let ctx: ServiceContext;
    let app: ServiceApp;
    let doi: string;
    let file: string;
    const SECRET = 'sk-test-secret-123';
    // Answers get ten seconds (the machine may be busy); only the provider that never answers is waited for 400 ms.
    const config = (timeoutMs = 10_000): LlmConfig => ({
      baseUrl: provider.url,
      model: 'fake-model-1',
      apiKey: SECRET,
      timeoutMs,
      maxChars: 20_000,
    });

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'krt-llm-'));
      provider = await fakeProvider();
      const files = await writeDemoStore(path.join(dir, 'store'), 3, 7);
      await importStore(t.db, path.join(dir, 'store'), { isDemo: true, workers: 0, progress: false });
      file = files[0];
      doi = `10.1101/${path.basename(file, '.xml')}`;
      const env = {
        ...process.env,
        PDI_KRT_LLM_BASE_URL: provider.url,
        PDI_KRT_LLM_MODEL: 'fake-model-1',
        PDI_KRT_LLM_API_KEY: SECRET,
        PDI_KRT_LLM_TIMEOUT_MS: '10000',
        PDI_KRT_ADMIN_TOKEN: 'admin-token',
      };
      ctx = testContext(krtService, t.db, { dataDir: dir, env });
      app = await buildTestApp(krtService, ctx);
    });
    after(async () => {
      await app?.close();
      await provider?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    const session = async (id: string) => (await app.inject(`/api/api/krt/${id}/`)).json();

    it("an HTTP error of the provider is a failed session with the provider's message; the built-in session still completes", async () => {
      provider.state.mode = 'error';
      const run = await runExtraction(ctx, [doi], { source: 'cli', llm: config(), workers: 0, progress: false });
      const [builtin, model] = run.sessions;
      assert.deepEqual([builtin.provider, builtin.status], ['jats-table', 'completed']);
      assert.deepEqual([model.provider, model.model, model.status, model.total_resources], ['llm', 'fake-model-1', 'failed', 0]);
      assert.equal(model.error, 'LLM provider error: HTTP 500: The model is overloaded');
      const request = provider.state.requests.at(-1)!;
      assert.equal(request.auth, `Bearer ${SECRET}`);
      assert.equal(request.body!.model, 'fake-model-1');
      assert.match(request.body!.messages[1].content, /Generated demo/);
      const stored = await session(model.session_id);
      assert.deepEqual([stored.status, stored.error, stored.krt_data, stored.summary.provider], ['failed', model.error, [], 'llm']);
      assert.ok(!JSON.stringify(stored).includes(SECRET));
      // A failed session is not the paper's best table, and has nothing to export.
      assert.equal((await app.inject(`/api/api/krt/doi/${doi}/`)).json().session_id, builtin.session_id);
      const exported = await app.inject(`/api/export/${model.session_id}/csv/`);
      assert.equal(exported.statusCode, 409);
      assert.match(exported.json().error, /failed \(LLM provider error: HTTP 500/);
    });

    it('a reply that is not the requested JSON, and no reply in time, are failures too', async () => {
      provider.state.mode = 'garbage';
      let run = await runExtraction(ctx, [doi], { source: 'cli', provider: 'llm', llm: config(), progress: false });
      assert.equal(run.sessions.length, 1);
      assert.equal(run.sessions[0].status, 'failed');
      assert.match(run.sessions[0].error!, /^LLM provider error: the model's reply is not JSON/);
      provider.state.mode = 'hang';
      run = await runExtraction(ctx, [doi], { source: 'cli', provider: 'llm', llm: config(400), progress: false });
      assert.equal(run.sessions[0].status, 'failed');
      assert.equal(run.sessions[0].error, 'LLM provider error: no answer within 400 ms');
      const count = await t.db.kysely
        .withTables<KrtTables>()
        .selectFrom('krt_sessions')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('doi', '=', doi)
        .where('provider', '=', 'llm')
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 1, 'a retry rewrites the session of the same provider, model and file');
    });

    it('POST /api/krt/extract/: 502 when the only requested extractor failed, with the failed session recorded; 200 when it answers', async () => {
      provider.state.mode = 'error';
      const headers = { authorization: 'Bearer admin-token' };
      const failed = await app.inject({ method: 'POST', url: '/api/api/krt/extract/', headers, payload: { doi, provider: 'llm' } });
      assert.equal(failed.statusCode, 502);
      assert.equal(failed.json().success, false);
      const id = /failed session ([0-9a-f-]{36})/.exec(failed.json().error)![1];
      assert.equal((await session(id)).status, 'failed');
      provider.state.mode = 'ok';
      const ok = await app.inject({ method: 'POST', url: '/api/krt/extract/', headers, payload: { doi } });
      assert.equal(ok.statusCode, 200);
      const body = ok.json();
      assert.deepEqual(
        body.sessions.map((s: { provider: string; status: string; change: string }) => [s.provider, s.status, s.change]),
        [
          ['jats-table', 'completed', 'unchanged'],
          ['llm', 'completed', 'updated'],
        ],
      );
      const table = await session(body.sessions[1].session_id);
      assert.equal(table.session_id, id, 'same provider, model and file: the same session, now completed');
      const firstCatalog = /DEMO-[A-Z]{2}-\d{4}/.exec(fs.readFileSync(file, 'utf8'))![0];
      assert.deepEqual(
        table.krt_data.map((r: Record<string, string>) => [r['RESOURCE NAME'], r.IDENTIFIER]),
        [
          ['Rabbit anti-GFP', `Cat# ${firstCatalog}`],
          ['Invented antibody', ''],
        ],
      );
      // The knowledge base only learns from the built-in extractors: the model's invented RRID is nowhere.
      const suggestion = await app.inject({ method: 'POST', url: '/api/api/ai/validate-rrid/', payload: { rrid: 'RRID:AB_999999999' } });
      assert.equal(suggestion.json().validation.status, 'unverified');
    });
  },
  { migrations: krtService.migrations },
);
