// The pages kernel on a small service defined here, on SQLite and PostgreSQL: a page's query validated by the API's
// schema with the API's message (400 in the layout, the form redrawn when the page can), read/render, the shared
// error page (400, 404, 429-style headers, 503), faults left to the kernel's 500, charts keyed by every input, a page's
// form posted (its body read, never cached), and a page's own words for a parameter its schemas refused.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import type { ServiceApp, ServiceModule } from '../service.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { choiceParam, pageParam } from '../http/params.ts';
import { describeEachDatabase } from '../../../test/support/databases.ts';
import { buildTestApp } from '../../../test/support/app.ts';
import { testService } from '../../../test/support/probe-service.ts';
import { textOf } from '../../../test/support/pages.ts';
import { barChart, html } from './index.ts';
import { chartKey } from './chart-key.ts';
import { acceptFormBodies } from './form-bodies.ts';
import { defineForm, sameOriginForm } from './forms.ts';
import { definePage } from './page.ts';
import { pageErrors, pageProblem, sendPage } from './replies.ts';

const ItemsQuery = Type.Object({
  page: pageParam(),
  colour: Type.Optional(choiceParam(['red', 'blue'], 'A colour.')),
  q: Type.Optional(Type.String({ maxLength: 10 })),
});

let chartBuilds = 0;
const notesTaken: string[] = [];

const pagesService: ServiceModule = {
  ...testService({ title: 'Pages kernel test service', cacheSeconds: 60, async routes() {} }),
  pages: {
    title: 'Kernel pages',
    sections: [
      { label: 'Items', href: '/items' },
      { label: 'Things', href: '/things/1' },
    ],
    async routes(app: ServiceApp, _ctx, kit) {
      pageErrors(app, kit);
      definePage(app, kit, {
        url: '/items',
        query: ItemsQuery,
        async read({ query }) {
          if (query.q === 'gone') throw notFound('no item is called gone');
          if (query.q === 'fault') throw new Error('a fault the client must not read');
          return { page: query.page, colour: query.colour ?? 'any' };
        },
        render(data, input) {
          const figure = input.chart('per-page', () => {
            chartBuilds++;
            return barChart({
              id: 'per-page',
              title: 'Items',
              description: 'Items.',
              categories: ['a'],
              series: [{ name: 'n', values: [data.page] }],
            });
          });
          return {
            title: 'Items',
            section: '/items',
            body: html`<h1>Items, page ${data.page}, ${data.colour}</h1>
              ${figure}`,
          };
        },
        refused(problem, input) {
          return {
            title: 'Items',
            body: html`<form><input name="q" value="${input.form.q ?? ''}" /></form>
              <p class="why">${problem.message}</p>`,
          };
        },
      });
      definePage(app, kit, {
        url: '/things/:id',
        params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
        async read({ params }) {
          if (params.id === 503) throw new HttpError(503, 'nothing imported yet');
          return params.id;
        },
        render: (id) => ({ title: 'Thing', body: html`<h1>Thing ${id}</h1>` }),
      });
      definePage(app, kit, {
        url: '/form/:id',
        params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
        posted: true,
        async read({ params, posted }) {
          return { id: params.id, said: posted?.words };
        },
        render: ({ id, said }) => ({
          title: 'Form',
          body: html`<h1>Form ${id}</h1>
            <p class="said">${said === undefined ? 'nothing posted' : `posted: ${said}`}</p>`,
        }),
        explain: (refusal, locale) => (refusal.name === 'id' ? `no form is numbered ${refusal.value} (${locale.language})` : undefined),
      });
      definePage(app, kit, {
        url: '/go',
        query: Type.Object({ to: Type.Integer({ minimum: 1 }) }),
        read: async ({ query }) => query.to,
        render: (to) =>
          to === 1 ? { redirect: '/things/1' } : { title: 'Stay', body: html`<h1>Stay</h1>`, headers: { 'x-drawn': 'yes' } },
      });
      acceptFormBodies(app);
      defineForm(app, kit, {
        url: '/notes',
        body: Type.Object({ text: Type.String({ maxLength: 10 }) }),
        onRequest: sameOriginForm(null),
        async act({ body }) {
          if (body.text === 'taken') throw new HttpError(409, 'a note says taken already');
          if (body.text === 'fault') throw new Error('a fault the client must not read');
          notesTaken.push(body.text);
          return notesTaken.length;
        },
        render: (n) => ({ redirect: `/things/${n}`, headers: { 'set-cookie': `note=${n}; Path=/` } }),
        refused: (problem, { form }) => ({
          title: 'Notes',
          body: html`<form method="post"><input name="text" value="${form.text ?? ''}" /></form>
            <p class="why">${problem.message}</p>`,
        }),
      });
      defineForm(app, kit, {
        url: '/notes/plain',
        body: Type.Object({ text: Type.String({ maxLength: 10 }) }),
        act: async ({ body }) => body.text,
        render: (text) => ({ title: 'Note', body: html`<h1>${text}</h1>` }),
      });
      app.get('/legacy', async (request, reply) =>
        sendPage(kit, request, reply, async () => {
          throw new HttpError(429, 'slow down', 'RATE_LIMITED', { 'retry-after': '7' });
        }),
      );
    },
  },
};

describeEachDatabase('pages kernel', (t) => {
  let app: ServiceApp;
  before(async () => {
    app = await buildTestApp(pagesService, t.db);
  });
  after(async () => app?.close());

  it('reads the validated query (defaults filled in) and renders it', async () => {
    const res = await app.inject('/items?colour=blue&page=2');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<h1>Items, page 2, blue<\/h1>/);
    assert.match((await app.inject('/items')).body, /<h1>Items, page 1, any<\/h1>/);
    // A form sends its empty fields: on a page an empty value is an absent one (an empty page is not page 0).
    assert.match((await app.inject('/items?page=&colour=&q=')).body, /<h1>Items, page 1, any<\/h1>/);
  });

  it('a bad query is a 400 page with the API message, its form redrawn with what the client wrote', async () => {
    for (const [url, message] of [
      ['/items?colour=green&q=%3Cb%3E', /colour must be one of: red, blue/],
      ['/items?page=0&q=%3Cb%3E', /page must be at least 1/],
      ['/items?q=%3Cb%3E0123456789', /q must be at most 10 characters long/],
    ] as const) {
      const res = await app.inject(url);
      assert.equal(res.statusCode, 400, url);
      assert.match(String(res.headers['content-type']), /^text\/html/, url);
      assert.equal(res.headers['cache-control'], 'no-store', url);
      assert.match(textOf(res.body), message, url);
      assert.match(res.body, /<input name="q" value="&lt;b&gt;/, url);
    }
  });

  it('a number the kernel refuses before validation (0x10) is the page’s own refusal: its form redrawn with the message', async () => {
    const res = await app.inject('/items?page=0x10&q=%3Cb%3E');
    assert.equal(res.statusCode, 400);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.match(res.body, /<input name="q" value="&lt;b&gt;/);
    assert.match(textOf(res.body), /page must be an integer/);
    // a page without `refused`: the shared error page; a page with `explain`: its words for it
    const thing = await app.inject('/things/0x1');
    assert.equal(thing.statusCode, 400);
    assert.match(thing.body, /<h1>Cannot show this page<\/h1>/);
    assert.match(textOf(thing.body), /id must be an integer/);
    const form = await app.inject('/form/0x1');
    assert.equal(form.statusCode, 400);
    assert.match(textOf(form.body), /no form is numbered 0x1 \(en\)/);
    // a parameter's name the kernel refuses (NUL) is a refusal drawn as a page too, never JSON
    const named = await app.inject('/items?%00=1');
    assert.equal(named.statusCode, 400);
    assert.match(String(named.headers['content-type']), /^text\/html/);
  });

  it('a problem read finds is the shared error page: its status, the message, the sections to go on from', async () => {
    const gone = await app.inject('/items?q=gone');
    assert.equal(gone.statusCode, 404);
    assert.match(gone.body, /<h1>Not found<\/h1>/);
    assert.match(textOf(gone.body), /no item is called gone/);
    assert.match(gone.body, /<a href="\/items">Items<\/a> · <a href="\/things\/1">Things<\/a>/);
    const bad = await app.inject('/things/abc');
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /<h1>Cannot show this page<\/h1>/);
    assert.match(textOf(bad.body), /id must be an integer/);
    const missing = await app.inject('/things/503');
    assert.equal(missing.statusCode, 503);
    assert.match(missing.body, /<h1>No data yet<\/h1>/);
    const limited = await app.inject('/legacy');
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.headers['retry-after'], '7');
    assert.match(limited.body, /<h1>Too many requests<\/h1>/);
  });

  it('a page may answer with a 303 (never cached) or carry headers of its own', async () => {
    const moved = await app.inject('/go?to=1');
    assert.equal(moved.statusCode, 303);
    assert.equal(moved.headers.location, '/things/1');
    assert.equal(moved.headers['cache-control'], 'no-store');
    const stay = await app.inject('/go?to=2');
    assert.equal(stay.statusCode, 200);
    assert.equal(stay.headers['x-drawn'], 'yes');
    assert.equal((await app.inject('/go?to=0')).statusCode, 400);
  });

  it('a form: the body validated by its schema, act, then a 303 with its headers; refusals drawn with what was typed', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url, payload, headers: { ...form, ...headers } });
    notesTaken.length = 0;
    const done = await post('/notes', 'text=hello');
    assert.equal(done.statusCode, 303);
    assert.equal(done.headers.location, '/things/1');
    assert.equal(done.headers['set-cookie'], 'note=1; Path=/');
    assert.deepEqual(notesTaken, ['hello']);
    for (const [payload, status, message] of [
      ['text=%3Cb%3E0123456789', 400, /text must be at most 10 characters long/],
      ['other=%3Cb%3E', 400, /text is required/],
      ['text=taken', 409, /a note says taken already/],
    ] as const) {
      const res = await post('/notes', payload);
      assert.equal(res.statusCode, status, payload);
      assert.match(String(res.headers['content-type']), /^text\/html/, payload);
      assert.equal(res.headers['cache-control'], 'no-store', payload);
      assert.match(textOf(res.body), message, payload);
      assert.match(res.body, /<form method="post">/, payload);
      if (payload.startsWith('text=%3C')) assert.match(res.body, /<input name="text" value="&lt;b&gt;0123456789"/);
    }
    assert.deepEqual(notesTaken, ['hello'], 'a refused form changes nothing');
    const crossSite = await post('/notes', 'text=x', { 'sec-fetch-site': 'cross-site' });
    assert.equal(crossSite.statusCode, 403);
    assert.match(crossSite.body, /<h1>Cannot show this page<\/h1>/);
    assert.equal((await post('/notes', 'text=fault')).statusCode, 500);
    assert.deepEqual(notesTaken, ['hello']);
    // Without `refused`: the shared error page; a page as the result is not cached.
    const plain = await post('/notes/plain', 'text=%3Cb%3E0123456789');
    assert.equal(plain.statusCode, 400);
    assert.match(plain.body, /<h1>Cannot show this page<\/h1>/);
    const shown = await post('/notes/plain', 'text=hi');
    assert.equal(shown.statusCode, 200);
    assert.match(shown.body, /<h1>hi<\/h1>/);
  });

  it('a fault is no page: the kernel answers 500 without its message', async () => {
    const res = await app.inject('/items?q=fault');
    assert.equal(res.statusCode, 500);
    assert.doesNotMatch(res.body, /a fault the client must not read/);
  });

  it('a chart is drawn once per distinct validated input, whatever the order or spelling of the query', async () => {
    chartBuilds = 0;
    await app.inject('/items?colour=red&page=3&x=1');
    await app.inject('/items?page=3&colour=red');
    assert.equal(chartBuilds, 1);
    await app.inject('/items?page=3&colour=blue');
    assert.equal(chartBuilds, 2);
  });
});

describeEachDatabase('pages kernel: posted forms and a page’s own words', (t) => {
  let app: ServiceApp;
  before(async () => {
    app = await buildTestApp(pagesService, t.db);
  });
  after(async () => app?.close());
  const post = (url: string, payload: string) =>
    app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/x-www-form-urlencoded' } });

  it('a posted page reads its form’s body (the first value of a name), and is not cached', async () => {
    const res = await post('/form/3', 'words=%3Cb%3Ehello&words=again');
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<h1>Form 3<\/h1>/);
    assert.match(res.body, /posted: &lt;b&gt;hello<\/p>/);
    assert.doesNotMatch(String(res.headers['cache-control']), /public/);
    const get = await app.inject('/form/3');
    assert.match(get.body, /nothing posted/);
    // a page that does not post answers no POST: the kernel's 405
    assert.equal((await post('/items', 'q=x')).statusCode, 405);
  });

  it('a parameter the page has words for is refused with them, on a GET and a POST alike', async () => {
    for (const res of [await app.inject('/form/0'), await post('/form/0', 'words=x')]) {
      assert.equal(res.statusCode, 400);
      assert.match(res.body, /<h1>Cannot show this page<\/h1>/);
      assert.match(textOf(res.body), /no form is numbered 0 \(en\)/);
    }
    // a parameter it has no words for: the API's message
    assert.match(textOf((await app.inject('/items?colour=green')).body), /colour must be one of: red, blue/);
  });
});

describe('chart keys', () => {
  const base = { service: 'oral', chart: 'c', language: 'en' as const, dataVersion: 'v1', inputs: { a: 1, b: 'x' } };
  it('equal parts give one key, whatever the order of the inputs; undefined inputs are absent ones', () => {
    assert.equal(chartKey(base), chartKey({ ...base, inputs: { b: 'x', a: 1, c: undefined } }));
  });
  it('any part that differs gives another key, and no two parts can run together', () => {
    const keys = new Set([
      chartKey(base),
      chartKey({ ...base, service: 'retraction' }),
      chartKey({ ...base, chart: 'd' }),
      chartKey({ ...base, language: 'fr' }),
      chartKey({ ...base, dataVersion: 'v2' }),
      chartKey({ ...base, inputs: { a: 2, b: 'x' } }),
      chartKey({ ...base, inputs: { a: 1, b: 'x', nested: { z: [1] } } }),
      chartKey({ ...base, chart: 'c:en', language: 'en' }),
      chartKey({ ...base, inputs: { a: '1', b: 'x' } }),
    ]);
    assert.equal(keys.size, 9);
  });
});

describe('pageProblem', () => {
  it('client errors and the 503 of missing data are problems a page says; other errors are faults', () => {
    assert.deepEqual(pageProblem(new HttpError(404, 'gone')), { status: 404, message: 'gone', headers: {}, code: 'NOT_FOUND' });
    // A plugin's client error keeps its code, so a page can word it in its own terms.
    const tooLarge = Object.assign(new Error('request file too large'), { statusCode: 413, code: 'FST_REQ_FILE_TOO_LARGE' });
    assert.deepEqual(pageProblem(tooLarge), {
      status: 413,
      message: 'request file too large',
      headers: {},
      code: 'FST_REQ_FILE_TOO_LARGE',
    });
    assert.equal(pageProblem(new HttpError(503, 'none'))?.status, 503);
    assert.equal(pageProblem(new HttpError(500, 'boom')), null);
    assert.equal(pageProblem(new Error('boom')), null);
    const validation = Object.assign(new Error('x'), {
      validation: [{ keyword: 'minimum', instancePath: '/page', params: { limit: 1 } }],
      validationContext: 'querystring',
    });
    assert.deepEqual(pageProblem(validation), { status: 400, message: 'page must be at least 1', headers: {} });
  });
});
