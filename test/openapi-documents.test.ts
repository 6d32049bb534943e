// OpenAPI: each service's documents are valid OpenAPI 3.1 and 3.0.3 for a standard validator, document
// every error status with the service's own error body, keep defaulted parameters optional, and turn into TypeScript
// with a standard client generator (openapi-typescript) that type-checks, with the error bodies the service really
// sends assignable to the generated ErrorBody type.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import openapiTS, { astToString } from 'openapi-typescript';
import { openDatabase } from '../src/core/db/database.ts';
import { migrateToLatest } from '../src/core/db/migrations.ts';
import type { ServiceModule } from '../src/core/service.ts';
import { SERVICES } from '../src/services/registry.ts';
import { buildTestApp, testContext } from './support/app.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { default?: unknown; example?: unknown; examples?: unknown[] };
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Media {
  schema?: { examples?: unknown[] };
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, Media> };
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }>; headers?: Record<string, unknown> }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, object> };
}

const documents = new Map<string, { v31: Document; v30: Document }>();
let dir: string;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-openapi-'));
  for (const service of SERVICES) {
    const db = openDatabase(`sqlite:${path.join(dir, `${service.name}.sqlite`)}`);
    await migrateToLatest(db.kysely, service.migrations);
    const app = await buildTestApp(service, testContext(service, db, { dataDir: path.join(dir, service.name) }));
    documents.set(service.name, {
      v31: (await app.inject('/openapi.json')).json() as Document,
      v30: (await app.inject('/openapi-3.0.json')).json() as Document,
    });
    await app.close();
    await db.close();
  }
});
after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every example a parameter or a body states, wherever OpenAPI lets it stand. */
function examplesOf(
  holder: { example?: unknown; examples?: Record<string, { value: unknown }> },
  schema?: { example?: unknown; examples?: unknown[] },
): unknown[] {
  return [
    ...(holder.example === undefined ? [] : [holder.example]),
    ...Object.values(holder.examples ?? {}).map((e) => e.value),
    ...(schema?.example === undefined ? [] : [schema.example]),
    ...(schema?.examples ?? []),
  ];
}

function operations(doc: Document): Array<[string, string, Operation]> {
  return Object.entries(doc.paths).flatMap(([route, item]) =>
    Object.entries(item).map(([method, op]) => [route, method, op] as [string, string, Operation]),
  );
}

for (const service of SERVICES) {
  describe(`${service.name}: OpenAPI documents`, () => {
    it('are valid OpenAPI 3.1 and 3.0.3 (@seriousme/openapi-schema-validator)', async () => {
      const { v31, v30 } = documents.get(service.name)!;
      assert.equal(v31.openapi, '3.1.0');
      assert.equal(v30.openapi, '3.0.3');
      for (const doc of [v31, v30]) {
        const result = await new Validator().validate(structuredClone(doc) as never);
        assert.ok(result.valid, `${doc.openapi}: ${JSON.stringify(result.errors, null, 1)?.slice(0, 3000)}`);
      }
      assert.deepEqual(Object.keys(v30.paths), Object.keys(v31.paths), 'the same operations in both');
    });

    it('document the error statuses of every operation with the service’s error body', () => {
      const { v31 } = documents.get(service.name)!;
      assert.ok(v31.components?.schemas?.ErrorBody, 'components/schemas/ErrorBody');
      for (const [route, method, op] of operations(v31)) {
        const expected = [400, 404, 405, 500, 503, ...(op.requestBody ? [413, 415] : [])];
        for (const status of expected) {
          const response = op.responses[status];
          assert.ok(response, `${method.toUpperCase()} ${route} documents ${status}`);
          assert.equal(
            response.content?.['application/json']?.schema?.$ref,
            '#/components/schemas/ErrorBody',
            `${method} ${route} ${status}`,
          );
        }
        if (method === 'get') assert.ok(op.responses[304], `${route} documents 304`);
        if (op.responses[429]) assert.ok(op.responses[429].headers?.['Retry-After'], `${route} 429 has Retry-After`);
      }
    });

    it('are each listed in the endpoint table of the service’s page in docs/', () => {
      // A row starts with `METHOD /path…`; a page may write a path without the base every path of the service
      // shares (C's /api/api/x/ as /api/x/), so a listed path is the end of the documented one.
      const page = fs.readFileSync(path.join(ROOT, 'docs', `${service.name}.md`), 'utf8');
      // Every `METHOD /path` written in a row's first cell (a row may list several operations).
      const listed = [...page.matchAll(/^\| (`[A-Z]+ \/[^|]*)\|/gm)].flatMap(([, cell]) =>
        [...cell.matchAll(/`([A-Z]+) (\/[^`?\s]*)/g)].map(([, method, route]) => `${method} ${route}`),
      );
      const missing = operations(documents.get(service.name)!.v31)
        .map(([route, method]) => `${method.toUpperCase()} ${route}`)
        .filter(
          (operation) => !listed.some((row) => row.split(' ')[0] === operation.split(' ')[0] && operation.endsWith(row.split(' ')[1])),
        );
      assert.deepEqual(missing, [], `docs/${service.name}.md lists no row for these operations`);
    });

    it('keep parameters that have a default optional', () => {
      const { v31 } = documents.get(service.name)!;
      for (const [route, method, op] of operations(v31))
        for (const p of op.parameters ?? [])
          assert.ok(!(p.required && p.schema?.default !== undefined), `${method} ${route}: ${p.name} has a default and is required`);
    });

    it('give an example for each required parameter and each body, and every example fits its own schema', () => {
      const { v31 } = documents.get(service.name)!;
      const ajv = new Ajv2020({ strict: false });
      const missing: string[] = [];
      const misfits: string[] = [];
      const check = (where: string, schema: object | undefined, examples: unknown[]) => {
        // The document's components ride along so that a $ref into them resolves.
        const validate = ajv.compile({ ...(schema ?? {}), components: v31.components });
        for (const example of examples)
          if (!validate(example)) misfits.push(`${where}: ${JSON.stringify(example)} ${ajv.errorsText(validate.errors)}`);
      };
      for (const [route, method, op] of operations(v31)) {
        const name = `${method.toUpperCase()} ${route}`;
        for (const p of op.parameters ?? []) {
          const examples = examplesOf(p, p.schema);
          if (p.required && examples.length === 0) missing.push(`${name} ${p.in} ${p.name}`);
          check(`${name} ${p.name}`, p.schema, examples);
        }
        const media = op.requestBody?.content?.['application/json'];
        if (media) {
          const examples = examplesOf(media, media.schema);
          if (examples.length === 0) missing.push(`${name} body`);
          check(`${name} body`, media.schema, examples);
        }
      }
      assert.deepEqual(missing, [], 'operations without an example');
      assert.deepEqual(misfits, [], 'examples their schema refuses');
    });

    it('describe every error body the service sends (errorBody ⊨ ErrorBody)', () => {
      const { v31 } = documents.get(service.name)!;
      const ajv = new Ajv2020({ strict: false });
      const validate = ajv.compile(v31.components!.schemas!.ErrorBody);
      for (const status of [400, 404, 405, 408, 413, 415, 429, 500, 503]) {
        const body = service.errorBody({ status, message: 'something went wrong', code: 'SOME_CODE' });
        assert.ok(validate(body), `${status}: ${JSON.stringify(body)} ${ajv.errorsText(validate.errors)}`);
      }
    });
  });
}

describe('openapi-typescript', () => {
  it('turns every document (3.1 and 3.0.3) into TypeScript that type-checks, error bodies included', { timeout: 300_000 }, async () => {
    const out = path.join(dir, 'clients');
    fs.mkdirSync(out, { recursive: true });
    const checks: string[] = [];
    for (const service of SERVICES as readonly ServiceModule[]) {
      for (const [version, doc] of Object.entries(documents.get(service.name)!)) {
        const name = `${service.name}-${version}`;
        fs.writeFileSync(path.join(out, `${name}.ts`), astToString(await openapiTS(structuredClone(doc) as never)));
        const sample = JSON.stringify(service.errorBody({ status: 400, message: 'limit must be an integer', code: 'INVALID_PARAMETER' }));
        checks.push(
          `import type { components as C_${service.name}_${version}, paths as P_${service.name}_${version} } from './${name}.ts';`,
          `export const error_${service.name}_${version}: C_${service.name}_${version}['schemas']['ErrorBody'] = ${sample};`,
          `export type Paths_${service.name}_${version} = keyof P_${service.name}_${version};`,
        );
      }
    }
    fs.writeFileSync(path.join(out, 'check.ts'), `${checks.join('\n')}\n`);
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const args = [
      '--noEmit',
      '--strict',
      '--target',
      'es2022',
      '--module',
      'nodenext',
      '--allowImportingTsExtensions',
      '--skipLibCheck',
      path.join(out, 'check.ts'),
    ];
    const result = await run(process.execPath, [tsc, ...args], { cwd: out }).catch((error: { stdout?: string; stderr?: string }) => error);
    assert.ok(!('code' in result) || !result.code, `tsc: ${(result.stdout ?? '') + (result.stderr ?? '')}`.slice(0, 4000));
  });
});
