// The pieces of the examples mechanism that need no service: the request an operation's schemas make, the merge into
// a document, the shortening of answers, what a new recording keeps of the old one, and the answers on the
// server-rendered reference.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderDocsPage } from './docs.ts';
import { addExamples, exampleRequest, keepRecorded, trimExample, trimText } from './openapi-examples.ts';
import type { ExamplesFile } from './openapi-examples.ts';

describe('exampleRequest', () => {
  it('fills path values (a DOI keeps its slashes), required query parameters and the body from their examples', () => {
    const operation = {
      parameters: [
        { name: 'doi', in: 'path', required: true, example: '10.1101/demo.1' },
        { name: 'q', in: 'query', required: true, schema: { examples: ['a b'] } },
        { name: 'limit', in: 'query', schema: { default: 20 } },
      ],
      requestBody: { content: { 'application/json': { schema: { examples: [{ x: 1 }] } } } },
    };
    assert.deepEqual(exampleRequest('post', '/api/paper/{doi}', operation), {
      method: 'POST',
      url: '/api/paper/10.1101/demo.1?q=a+b',
      body: { x: 1 },
    });
  });

  it('names what has no example', () => {
    const operation = {
      parameters: [
        { name: 'id', in: 'path', required: true },
        { name: 'q', in: 'query', required: true },
      ],
      requestBody: { content: { 'application/json': { schema: {} } } },
    };
    assert.throws(
      () => exampleRequest('post', '/x/{id}', operation),
      /POST \/x\/\{id\}: no example in the schema for its path parameter id, query parameter q, request body/,
    );
  });
});

describe('addExamples', () => {
  it('adds each recorded answer under its status and content type, and nothing where the document declares neither', () => {
    const doc = {
      paths: {
        '/a': {
          get: {
            responses: {
              200: { content: { 'application/json': { schema: {} } } },
              400: { content: { 'application/json': { schema: {} } } },
            },
          },
        },
      },
    };
    addExamples(doc, {
      'GET /a': {
        request: { method: 'GET', url: '/a' },
        responses: {
          200: { request: 'GET /a', contentType: 'application/json', value: { ok: true } },
          400: { request: 'GET /a?x=%00', contentType: 'text/plain', value: 'no' },
          404: { request: 'GET /b', contentType: 'application/json', value: {} },
        },
      },
    });
    const responses = doc.paths['/a'].get.responses as Record<string, { content: Record<string, Record<string, unknown>> }>;
    assert.deepEqual(responses[200].content['application/json'].examples, { demo: { summary: 'GET /a', value: { ok: true } } });
    assert.equal(responses[400].content['application/json'].examples, undefined);
    assert.equal(responses[404], undefined);
  });
});

describe('trimExample and trimText', () => {
  it('cut arrays at every depth and text to its first lines', () => {
    assert.deepEqual(trimExample({ a: [1, 2, 3, 4], b: { c: [[1, 2, 3], [4], [5], [6]] }, d: 'x' }, 2), {
      a: [1, 2],
      b: { c: [[1, 2], [4]] },
      d: 'x',
    });
    assert.equal(trimText('h\n1\n2\n3\n4\n5\n', 3), 'h\n1\n2\n');
    assert.equal(trimText('h\n1\n', 3), 'h\n1\n');
  });
});

describe('keepRecorded', () => {
  const file = (value: unknown, request = 'GET /a'): ExamplesFile => ({
    'GET /a': { request: { method: 'GET', url: '/a' }, responses: { 200: { request, contentType: 'application/json', value } } },
  });
  /** One answer as a recording makes it: `run` changes what differs between two recordings of the same tree. */
  const answer = (run: number, projects = 13) => ({
    projects,
    data_source: {
      source: `/tmp${run}/pdi-openapi-examples-${['tSMVl2', 'dikDFq'][run]}/grants/demo/projects.csv`,
      data_version: ['20261207T024139Z-e72a8e62', '20261208T054041Z-c29687f1'][run],
      kind_version: `demo:${['20261207T023303Z-a5a3ab9d', '20261208T054028Z-fdf9e6ed'][run]}`,
      imported_at: ['2026-12-07T02:41:42.058Z', '2026-12-08T05:40:41.784+01:00'][run],
      note: `built ${['2026-12-07T02:41:42Z', '2026-12-08T05:40:41Z'][run]} by job ${['9b2f0c1e-1d2a-4c3b-8e4f-5a6b7c8d9e0f', '0f1e2d3c-4b5a-4968-8776-655443322110'][run]}`,
    },
    timings: { query_ms: [3, 41][run], elapsed: [0.2, 1.5][run] },
    items: [{ day: '2026-12-07' }, { day: '2026-12-08' }],
  });

  it('keeps the old answer where the new one differs only in times, data versions, ids, temporary paths and timings', () => {
    const old = file(answer(0));
    assert.deepEqual(keepRecorded(file(answer(1)), old), old);
  });

  it('records a real change, keeping the old values of what differs only between recordings', () => {
    const kept = keepRecorded(file({ ...answer(1, 14), items: [{ day: '2026-12-08' }] }), file(answer(0)));
    assert.deepEqual(kept['GET /a'].responses[200].value, { ...answer(0, 14), items: [{ day: '2026-12-08' }] });
  });

  it('records a day that moved, an order that changed, and the answer to another request as they are', () => {
    const moved = { ...answer(1), items: [{ day: '2026-12-08' }, { day: '2026-12-09' }] };
    assert.deepEqual(keepRecorded(file(moved), file(answer(0)))['GET /a'].responses[200].value, {
      ...answer(0),
      items: moved.items,
    });
    const { projects, ...rest } = answer(0);
    const reordered = { ...rest, projects };
    assert.deepEqual(
      Object.keys(keepRecorded(file(reordered), file(answer(0)))['GET /a'].responses[200].value as object),
      Object.keys(reordered),
    );
    assert.deepEqual(keepRecorded(file(answer(1), 'GET /a?x=1'), file(answer(0))), file(answer(1), 'GET /a?x=1'));
  });
});

describe('the server-rendered reference', () => {
  it('shows each recorded answer with the request that produced it, escaped', () => {
    const html = renderDocsPage({
      info: { title: 'T', version: '1' },
      paths: {
        '/a': {
          get: {
            responses: {
              200: {
                description: 'OK',
                content: { 'application/json': { examples: { demo: { summary: 'GET /a?q=<b>', value: { n: 1 } } } } },
              },
              400: { description: 'Bad', content: { 'text/csv': { examples: { bad: { summary: 'GET /a?x=%00', value: 'a,b\n' } } } } },
            },
          },
        },
      },
    });
    assert.match(html, /Example: <code>GET \/a\?q=&lt;b&gt;<\/code><\/p><pre class="example">\{\n {2}&quot;n&quot;: 1\n\}<\/pre>/);
    assert.match(html, /Example: <code>GET \/a\?x=%00<\/code><\/p><pre class="example">a,b\n<\/pre>/);
  });
});
