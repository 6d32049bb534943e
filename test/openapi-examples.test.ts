// The examples of the OpenAPI documents: every operation of every service has its recorded examples (the request its
// schemas make, the answer to it, and the 400 of a real bad request), the examples file holds no operation that no
// longer exists and no request its schemas no longer make, and each answer in the documents (3.1 and 3.0.3) fits
// the schema of its status and content type. A missing or stale record names the command that rewrites the file.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openDatabase } from '../src/core/db/database.ts';
import { migrateToLatest } from '../src/core/db/migrations.ts';
import { EXAMPLES_COMMAND, exampleRequest, operationKey, readExamples } from '../src/core/http/openapi-examples.ts';
import type { ExamplesFile } from '../src/core/http/openapi-examples.ts';
import { SERVICES } from '../src/services/registry.ts';
import { buildTestApp, testContext } from './support/app.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/**
 * Operations whose representative request cannot succeed on the demo data of a default server, with why: their
 * examples are the answers such a server gives.
 */
const NO_SUCCESS_ON_DEMO: Readonly<Record<string, string>> = {
  'krt POST /api/api/krt/extract/': 'enabled only with PDI_KRT_ADMIN_TOKEN (404 NOT_ENABLED without it)',
  'krt POST /api/api/krt/fetch/': 'enabled only with PDI_KRT_ADMIN_TOKEN, and fetches from bioRxiv or Europe PMC',
  'retraction GET /api/democracy/draws/': 'the demo data has no fitted model (`pdi fit retraction`)',
  'retraction GET /api/democracy/log-lik/': 'the demo data has no kept fit (`pdi fit retraction --label …`)',
};

type Json = Record<string, unknown>;
interface Media {
  schema?: Json;
  examples?: Record<string, { summary?: string; value: unknown }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Json & { responses: Record<string, { content?: Record<string, Media> }> }>>;
  components?: Json;
}

const documents = new Map<string, { v31: Document; v30: Document; file: ExamplesFile }>();
let dir: string;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-openapi-examples-'));
  for (const service of SERVICES) {
    const db = openDatabase(`sqlite:${path.join(dir, `${service.name}.sqlite`)}`);
    await migrateToLatest(db.kysely, service.migrations);
    const app = await buildTestApp(service, testContext(service, db, { dataDir: path.join(dir, service.name) }));
    documents.set(service.name, {
      v31: (await app.inject('/openapi.json')).json() as Document,
      v30: (await app.inject('/openapi-3.0.json')).json() as Document,
      file: readExamples(service.name),
    });
    await app.close();
    await db.close();
  }
});
after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const operations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([route, item]) => Object.entries(item).map(([method, op]) => ({ route, method, op })));

for (const service of SERVICES) {
  const rerun = `run \`${EXAMPLES_COMMAND} -- ${service.name}\``;

  describe(`${service.name}: OpenAPI examples`, () => {
    it('has a current record for every operation, and none for an operation that is gone', () => {
      const { v31, file } = documents.get(service.name)!;
      const problems: string[] = [];
      const keys = new Set<string>();
      for (const { route, method, op } of operations(v31)) {
        const key = operationKey(method, route);
        keys.add(key);
        const recorded = file[key];
        if (!recorded) {
          problems.push(`${key}: no examples; ${rerun}`);
          continue;
        }
        let request;
        try {
          request = exampleRequest(method, route, op);
        } catch (error) {
          problems.push(`${(error as Error).message}: add one to the schema, then ${rerun}`);
          continue;
        }
        if (JSON.stringify(request) !== JSON.stringify(recorded.request))
          problems.push(
            `${key}: the schemas now make ${JSON.stringify(request)}, the file has ${JSON.stringify(recorded.request)}; ${rerun}`,
          );
        const statuses = Object.keys(recorded.responses);
        if (!statuses.includes('400')) problems.push(`${key}: no 400 example; ${rerun}`);
        const why = NO_SUCCESS_ON_DEMO[`${service.name} ${key}`];
        if (!statuses.some((s) => s.startsWith('2')) && why === undefined) problems.push(`${key}: no success example; ${rerun}`);
        for (const status of statuses)
          if (!op.responses[status])
            problems.push(`${key}: the example of ${status} answers a status the document does not declare; ${rerun}`);
      }
      for (const key of Object.keys(file)) if (!keys.has(key)) problems.push(`${key}: no such operation any more; ${rerun}`);
      assert.deepEqual(problems, []);
    });

    it('shows every recorded answer in both documents, and each fits the schema of its status', () => {
      const { v31, v30, file } = documents.get(service.name)!;
      const ajv = new Ajv2020({ strict: false, logger: false });
      addFormats(ajv);
      ajv.addFormat('binary', true);
      ajv.addSchema({ ...v31, $id: 'doc' } as object, undefined, undefined, false);
      const problems: string[] = [];
      let checked = 0;
      for (const { route, method, op } of operations(v31)) {
        const key = operationKey(method, route);
        for (const [status, answer] of Object.entries(file[key]?.responses ?? {})) {
          const media = op.responses[status]?.content?.[answer.contentType];
          const shown = Object.values(media?.examples ?? {});
          if (shown.length === 0) {
            problems.push(`${key} ${status} ${answer.contentType}: no example in the 3.1 document; ${rerun}`);
            continue;
          }
          const pointer = ['paths', route, method, 'responses', status, 'content', answer.contentType, 'schema']
            .map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1'))
            .join('/');
          const validate = ajv.compile({ $ref: `doc#/${pointer}` });
          for (const example of shown) {
            checked++;
            if (!validate(example.value))
              problems.push(
                `${key} ${status}: the recorded answer no longer fits its schema (${ajv.errorsText(validate.errors)}); ${rerun}`,
              );
          }
          const in30 = v30.paths[route]?.[method]?.responses[status]?.content?.[answer.contentType]?.examples;
          if (!in30) problems.push(`${key} ${status}: no example in the 3.0.3 document`);
        }
      }
      assert.deepEqual(problems, []);
      assert.ok(checked >= operations(v31).length * 2, `${checked} examples checked`);
    });

    it('keeps examples short: no array of more than 10 items', () => {
      const { file } = documents.get(service.name)!;
      const long: string[] = [];
      const walk = (value: unknown, where: string) => {
        if (Array.isArray(value)) {
          if (value.length > 10) long.push(`${where}: ${value.length} items`);
          value.forEach((item, i) => walk(item, `${where}[${i}]`));
        } else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${where}.${k}`);
      };
      for (const [key, recorded] of Object.entries(file))
        for (const [status, answer] of Object.entries(recorded.responses)) walk(answer.value, `${key} ${status}`);
      assert.deepEqual(long, []);
    });
  });
}
