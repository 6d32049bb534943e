// The pieces of the examples mechanism that need no service: the request an operation's schemas make, the merge into
// a document, the shortening of answers, and the answers on the server-rendered reference.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderDocsPage } from './docs.ts';
import { addExamples, exampleRequest, trimExample, trimText } from './openapi-examples.ts';

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
