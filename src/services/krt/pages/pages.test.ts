// Service B's pages on the generated demo articles, SQLite and PostgreSQL: the look-up (newest papers, words, a DOI
// that redirects, one that is not stored), a paper's table with its exports and the RRID check of every row against
// the API's own validation and suggestion answers, suggestions with their evidence, the chat without JavaScript
// (POST, 303, the reply on the page it redirects to, exports), a chat opened from a paper's table, and 400/404 pages.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import { testContext } from '../../../../test/support/app.ts';
import { describeKrtHttp } from '../../../../test/support/krt/http.ts';
import { textOf } from '../../../../test/support/pages.ts';
import { KrtAnswers } from '../answers.ts';
import { parseIdentifierText } from '../extract/identifier.ts';
import type { KrtRow } from '../extract/index.ts';
import type { SuggestResponse, ValidateResponse } from '../schemas/ai.ts';
import type { DoiTableResponse } from '../schemas/tables.ts';
import type { SuggestionsResponse } from '../schemas/doi.ts';
import { RATE_LIMITS } from '../routes/common.ts';
import { krtService } from '../service.ts';
import { LOOKUP_RESULTS } from './lookup.ts';
import { annotateRows, resourceTable } from './resource-table.ts';
import { krtText } from '../messages/index.ts';
import { pageLocale } from '../../../core/pages/index.ts';
import { escapeHtml } from '../../../core/pages/html.ts';
import { INCLUSION_HEADER, unlabelledPercentages } from '../../../../test/support/krt/labels.ts';

type DoiTable = Static<typeof DoiTableResponse>;
type Suggestions = Static<typeof SuggestionsResponse>;
type Validate = Static<typeof ValidateResponse>;
type Suggest = Static<typeof SuggestResponse>;

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describeKrtHttp(
  'krt pages on the demo articles',
  (h) => {
    let client = 0;
    const inject = (options: { method?: 'GET' | 'POST'; url: string; payload?: string; headers?: Record<string, string> }) =>
      h.app.inject({ ...options, remoteAddress: `10.97.${(client >> 8) & 255}.${client++ & 255}` });
    const newest = async () => (await h.get<Suggestions>('/api/doi-suggestions/?limit=50')).body;

    it('/ lists the newest papers, with suggestions as you type from the API', async () => {
      const res = await inject({ url: '/' });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(res.body, /data-autocomplete="\/api\/doi-suggestions\/\?limit=10&amp;q="[^>]*data-autocomplete-items="suggestions"/s);
      assert.match(res.body, /<datalist id="doi-suggestions">/);
      const all = await newest();
      const listed = [...res.body.matchAll(/<h3><a href="\/paper\?doi=([^"]+)">/g)].map((m) => decodeURIComponent(m[1]));
      assert.deepEqual(
        listed,
        all.suggestions.slice(0, LOOKUP_RESULTS).map((s) => s.doi),
      );
      assert.match(textOf(res.body), new RegExp(`The store holds ${all.total_available} papers`));
      assert.equal((res.body.match(/generated demo article/g) ?? []).length, listed.length);
    });

    it('a stored DOI in any form goes to its page; words list matches; an unknown DOI is a 404 page', async () => {
      const doi = (await newest()).suggestions[0].doi;
      for (const q of [doi, `https://doi.org/${doi}`, `doi:${doi.toUpperCase()}`]) {
        const res = await inject({ url: `/?q=${encodeURIComponent(q)}` });
        assert.equal(res.statusCode, 303, q);
        assert.equal(res.headers.location, `/paper?doi=${encodeURIComponent(doi)}`);
      }
      const words = await inject({ url: '/?q=neurite+outgrowth' });
      assert.equal(words.statusCode, 200);
      const api = (await h.get<Suggestions>('/api/doi-suggestions/?q=neurite%20outgrowth')).body;
      assert.ok(api.total_available > 0);
      for (const s of api.suggestions) assert.ok(words.body.includes(`href="/paper?doi=${encodeURIComponent(s.doi)}"`));
      const unknown = await inject({ url: '/?q=10.1101/2099.01.01.000001' });
      assert.equal(unknown.statusCode, 404);
      assert.match(textOf(unknown.body), /10\.1101\/2099\.01\.01\.000001 is not in the local store/);
    });

    it('a paper page shows its best table with export links, and every RRID check is the API’s answer', async () => {
      const doi = (await newest()).suggestions[0].doi;
      const table = (await h.get<DoiTable>(`/api/api/krt/doi/${doi}/`)).body;
      const res = await inject({ url: `/paper?doi=${encodeURIComponent(doi)}` });
      assert.equal(res.statusCode, 200);
      const body = res.body;
      assert.equal((body.match(/<td class="rrid-cell">/g) ?? []).length, table.krt_data.length);
      assert.match(body, /generated demo article/);
      for (const format of ['json', 'csv', 'excel']) {
        const href = `/api/export/${table.session_id}/${format}/`;
        assert.ok(body.includes(`href="${href}"`), href);
        assert.equal((await inject({ url: href })).statusCode, 200, href);
      }
      // Validation badges: each RRID of a row, with the API's status and reason.
      const rrids = table.krt_data.flatMap((r) => parseIdentifierText(r.IDENTIFIER).filter((p) => p.kind === 'rrid'));
      assert.ok(rrids.length > 0);
      for (const part of rrids) {
        const v = (await h.post<Validate>('/api/api/ai/validate-rrid/', { rrid: `RRID:${part.value}` })).body.validation;
        const badge = new RegExp(`${v.status}</span>\\s*<code>RRID:${part.value}</code>`);
        assert.match(body, badge, part.value);
        assert.ok(textOf(body).includes(v.recommendations[0]), part.value);
      }
      // Reused rows without an RRID: a suggestion exactly when the API suggests one, else the abstention said plainly.
      const lookedUp = table.krt_data.filter(
        (r) => r['NEW/REUSE'] === 'reuse' && !parseIdentifierText(r.IDENTIFIER).some((p) => p.kind === 'rrid'),
      );
      assert.ok(lookedUp.length > 0);
      let abstained = 0;
      for (const row of lookedUp) {
        const catalog = parseIdentifierText(row.IDENTIFIER).find((p) => p.kind === 'catalog')?.value;
        const api = (
          await h.post<Suggest>('/api/api/ai/suggest-rrid/', {
            resource_name: row['RESOURCE NAME'],
            resource_type: row['RESOURCE TYPE'],
            vendor: row.SOURCE || undefined,
            catalog_number: catalog,
            limit: 3,
          })
        ).body;
        if (api.suggestions.length === 0) abstained++;
      }
      assert.equal((body.match(/The service abstains: no RRID reaches a 50% probability of being right\./g) ?? []).length, abstained);
      const fresh = table.krt_data.filter(
        (r) => r['NEW/REUSE'] === 'new' && !parseIdentifierText(r.IDENTIFIER).some((p) => p.kind === 'rrid'),
      );
      assert.equal((body.match(/New resource of this paper/g) ?? []).length, fresh.length);
      assert.match(body, /<form class="chat-start" method="post" action="\/chat\/start">/);
      assert.match(body, new RegExp(`<strong aria-current="true">${table.session_id}</strong> \\(shown\\)`));
    });

    it('a table found in the text shows, per row, the sentence it came from and its probability; its further mentions beneath', async () => {
      const tables = await Promise.all(
        (await newest()).suggestions.map(async (s) => (await h.get<DoiTable>(`/api/api/krt/doi/${s.doi}/`)).body),
      );
      const text = tables.find((t) => t.summary.provider === 'text-pattern' && t.further_mentions.length > 0);
      assert.ok(text?.row_evidence, 'a demo article without an author table, extracted from its text with evidence and further mentions');
      const body = (await inject({ url: `/paper?doi=${encodeURIComponent(text.doi)}` })).body;
      const [table, mentions] = body.split('<h2 id="mentions-heading">');
      assert.ok(mentions, 'a "Further mentions" section');
      assert.ok(table.includes('<h2 id="table-heading">'), 'the key resources table comes first');
      const shown = (html: string) =>
        [...textOf(html).matchAll(/found in the text; probability the authors list it \(text extractor\): (\d+)%/g)].map((m) =>
          Number(m[1]),
        );
      assert.deepEqual(
        shown(table),
        text.row_evidence.map((e) => Math.round(e.confidence * 100)),
      );
      for (const e of text.row_evidence) assert.ok(textOf(table).includes(textOf(e.sentence)), e.sentence);
      // The mentions: each with its sentence, confidence, inclusion probability and a button into the chat; none in the table.
      assert.match(textOf(mentions), /^Further mentions The text also names \d+ resources? that the authors would probably not list/);
      assert.deepEqual(
        shown(mentions.split('</section>')[0]),
        text.further_mentions.map((m) => Math.round(m.confidence * 100)),
      );
      for (const m of text.further_mentions) {
        assert.ok(textOf(mentions).includes(textOf(m.sentence)), m.sentence);
        assert.ok(textOf(mentions).includes(`${Math.round(m.inclusion_probability! * 100)}%`));
        assert.match(mentions, new RegExp(`<input type="hidden" name="mention" value="${m.position}" />`));
      }
      assert.equal((table.match(/<td class="rrid-cell">/g) ?? []).length, text.krt_data.length);
      // An author's table has no such line and no mentions.
      const authored = tables.find((t) => t.summary.provider === 'jats-table')!;
      const authoredPage = (await inject({ url: `/paper?doi=${encodeURIComponent(authored.doi)}` })).body;
      assert.doesNotMatch(textOf(authoredPage), /found in the text|Further mentions/);
      // Every number says what it is: the three probabilities of a text-built table are told apart, each by its label.
      const cells = (t: DoiTable) => [...t.krt_data, ...t.further_mentions.map((m) => m.row)].flatMap((row) => Object.values(row));
      assert.deepEqual(unlabelledPercentages(body, cells(text)), []);
      assert.deepEqual(unlabelledPercentages(authoredPage, cells(authored)), []);
      assert.ok(
        mentions.includes(`title="${escapeHtml(krtText('en')('mentions.inclusionTitle'))}">${INCLUSION_HEADER}</th>`),
        'the column of percentages is labelled',
      );
      assert.match(textOf(table), /The percentages are calibrated probabilities, each from its own model/);
      assert.doesNotMatch(textOf(authoredPage), /The percentages are calibrated probabilities/);
      assert.doesNotMatch(textOf(body), /confidence \d/);
    });

    it('a further mention is promoted into a chat copy of the table; an unknown one is refused', async () => {
      const tables = await Promise.all(
        (await newest()).suggestions.map(async (s) => (await h.get<DoiTable>(`/api/api/krt/doi/${s.doi}/`)).body),
      );
      const text = tables.find((t) => t.further_mentions.length > 0)!;
      const mention = text.further_mentions.at(-1)!;
      // Each button's accessible name starts with the words it shows (WCAG 2.5.3, label in name) and names its mention.
      const paper = await inject({ url: `/paper?doi=${encodeURIComponent(text.doi)}` });
      const buttons = [...paper.body.matchAll(/<button type="submit" class="secondary" aria-label="([^"]*)">([^<]*)<\/button>/g)];
      assert.equal(buttons.length, text.further_mentions.length);
      buttons.forEach(([, label, shown], i) => {
        assert.ok(label.startsWith(`${shown.trim()}: `), `“${label}” begins with “${shown.trim()}”`);
        assert.ok(label.endsWith(escapeHtml(text.further_mentions[i].row['RESOURCE NAME'])), label);
      });
      const start = await inject({
        method: 'POST',
        url: '/chat/start',
        payload: form({ doi: text.doi, session: text.session_id, mention: String(mention.position) }),
        headers: FORM,
      });
      assert.equal(start.statusCode, 303, start.body.slice(0, 300));
      const location = String(start.headers.location);
      const page = await inject({ url: location, headers: { cookie: String(start.headers['set-cookie']).split(';')[0] } });
      assert.match(
        textOf(page.body),
        new RegExp(`with “${mention.row['RESOURCE NAME'].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}” added from the further mentions`),
      );
      const copy = (await h.get<{ krt_data: KrtRow[] }>(`/api/export/${decodeURIComponent(location.split('=')[1])}/json/`)).body;
      assert.deepEqual(copy.krt_data, [...text.krt_data, mention.row]);
      // The paper's own table is unchanged.
      assert.deepEqual((await h.get<DoiTable>(`/api/api/krt/doi/${text.doi}`)).body.krt_data, text.krt_data);
      const inTable = await inject({
        method: 'POST',
        url: '/chat/start',
        payload: form({ doi: text.doi, session: text.session_id, mention: '99999' }),
        headers: FORM,
      });
      assert.equal(inTable.statusCode, 400);
      assert.match(textOf(inTable.body), /has no further mention 99999/);
    });

    it('RRID suggestions carry their calibrated confidence and their evidence: the papers that write the RRID', async () => {
      const answers = new KrtAnswers(testContext(krtService, h.t.db));
      const row: KrtRow = {
        'RESOURCE TYPE': 'Antibody',
        'RESOURCE NAME': 'Rabbit anti-histone H3 (generated demo)',
        SOURCE: 'Example Biosciences (demo)',
        IDENTIFIER: 'Cat# DEMO-AB-0104',
        'NEW/REUSE': 'reuse',
        'ADDITIONAL INFORMATION': '',
      };
      const [annotated] = await annotateRows(answers, h.t.db.kysely.withTables(), [row]);
      assert.equal(annotated.lookup.kind, 'suggested');
      if (annotated.lookup.kind !== 'suggested') return;
      const api = (
        await h.post<Suggest>('/api/api/ai/suggest-rrid/', {
          resource_name: row['RESOURCE NAME'],
          resource_type: row['RESOURCE TYPE'],
          vendor: row.SOURCE,
          catalog_number: 'DEMO-AB-0104',
          limit: 3,
        })
      ).body;
      assert.deepEqual(
        annotated.lookup.suggestions.map((s) => [s.rrid, s.confidence, s.papers]),
        api.suggestions.map((s) => [s.suggested_rrid, s.confidence_score, s.papers]),
      );
      const best = annotated.lookup.suggestions[0];
      assert.equal(best.rrid, 'RRID:AB_0000104');
      assert.equal(best.evidence.length, Math.min(best.papers, 5));
      for (const paper of best.evidence) {
        // The knowledge base reads every row a paper gives: its key resources table and its further mentions.
        const table = (await h.get<DoiTable>(`/api/api/krt/doi/${paper.doi}/`)).body;
        const written = [...table.krt_data, ...table.further_mentions.map((m) => m.row)].map((r) => r.IDENTIFIER).join(' ');
        assert.match(written, /RRID:AB_0000104\b/, paper.doi);
        assert.equal(paper.is_demo, true);
      }
      const html = resourceTable([annotated], 'test', { t: krtText('en'), loc: pageLocale('en', false) }).text;
      assert.match(textOf(html), new RegExp(`best RRID:AB_0000104, probability it is right: ${Math.round(best.confidence * 100)}%`));
      assert.match(textOf(html), new RegExp(`RRID:AB_0000104 probability this RRID is right: ${Math.round(best.confidence * 100)}%`));
      assert.match(html, /<span class="badge neutral" title="The RRID suggester’s calibrated probability/);
      assert.match(textOf(html), /it is not a validation, and not the probability of an identifier candidate/);
      assert.deepEqual(unlabelledPercentages(`<main>${html}</main>`), []);
      assert.match(textOf(html), /Evidence: written by \d+ papers? of the store/);
      assert.ok(html.includes(`href="/paper?doi=${encodeURIComponent(best.evidence[0].doi)}"`));
      assert.match(html, /generated demo articles/); // the reasoning says where the evidence comes from
    });

    it('the chat works without JavaScript: POST, 303, the reply on the page, the table, and its export', async () => {
      const first = await inject({
        method: 'POST',
        url: '/chat',
        payload: form({ message: 'Add rabbit anti-histone H3 antibody from Example Biosciences (demo), catalog DEMO-AB-0104' }),
        headers: FORM,
      });
      assert.equal(first.statusCode, 303);
      const location = String(first.headers.location);
      assert.match(location, /^\/chat\?session=[0-9a-f-]{36}$/);
      const session = decodeURIComponent(location.split('=')[1]);
      const cookie = String(first.headers['set-cookie']).split(';')[0];
      assert.match(String(first.headers['set-cookie']), /HttpOnly; SameSite=Lax/);
      const shown = await inject({ url: location, headers: { cookie } });
      assert.equal(shown.statusCode, 200);
      assert.equal(shown.headers['cache-control'], 'no-store');
      assert.match(String(shown.headers['set-cookie']), /Max-Age=0/); // the reply is shown once
      const text = textOf(shown.body);
      assert.match(text, /You Add rabbit anti-histone H3 antibody/);
      assert.match(text, /Table builder/);
      assert.match(shown.body, new RegExp(`<input type="hidden" name="session_id" value="${session}" />`));
      const api = (await h.get<{ krt_data: KrtRow[] }>(`/api/export/${session}/json/`)).body;
      assert.equal(api.krt_data.length, 1);
      assert.equal((shown.body.match(/<td class="rrid-cell">/g) ?? []).length, 1);
      assert.ok(shown.body.includes(api.krt_data[0]['RESOURCE NAME'].replace(/&/g, '&amp;')));
      assert.match(shown.body, /src="\/assets\/krt-chat\.[0-9a-f]{10}\.js" defer/);

      const exported = await inject({
        method: 'POST',
        url: '/chat',
        payload: form({ message: 'export as csv', session_id: session }),
        headers: FORM,
      });
      assert.equal(exported.statusCode, 303);
      const after = await inject({
        url: String(exported.headers.location),
        headers: { cookie: String(exported.headers['set-cookie']).split(';')[0] },
      });
      const link = `/api/export/${session}/csv/`;
      assert.match(after.body, new RegExp(`<a class="button secondary" href="${link}" download>Download the table</a>`));
      const csv = await inject({ url: link });
      assert.equal(csv.statusCode, 200);
      assert.match(csv.body, /RESOURCE TYPE/);

      // The table alone, for the script.
      const fragment = await inject({ url: `/chat/table?session=${session}` });
      assert.equal(fragment.statusCode, 200);
      assert.doesNotMatch(fragment.body, /<html/);
      assert.match(fragment.body, /<table class="data krt">/);
      // Without the cookie (a reload later), the page still has the table but no reply.
      const reload = await inject({ url: location });
      assert.doesNotMatch(textOf(reload.body), /Table builder [A-Z]/);
      assert.equal((reload.body.match(/<td class="rrid-cell">/g) ?? []).length, 1);
    });

    it('a paper’s table opens in the chat as a copy', async () => {
      const doi = (await newest()).suggestions[0].doi;
      const table = (await h.get<DoiTable>(`/api/api/krt/doi/${doi}/`)).body;
      const start = await inject({ method: 'POST', url: '/chat/start', payload: form({ doi, session: table.session_id }), headers: FORM });
      assert.equal(start.statusCode, 303);
      const location = String(start.headers.location);
      const page = await inject({ url: location, headers: { cookie: String(start.headers['set-cookie']).split(';')[0] } });
      assert.equal((page.body.match(/<td class="rrid-cell">/g) ?? []).length, table.krt_data.length);
      assert.match(textOf(page.body), new RegExp(`starts from a copy of the table of “.*” \\(${table.krt_data.length} rows\\)`));
      const session = decodeURIComponent(location.split('=')[1]);
      const copy = (await h.get<{ krt_data: KrtRow[] }>(`/api/export/${session}/json/`)).body;
      assert.deepEqual(copy.krt_data, table.krt_data);
    });

    it('the chat forms refuse posts sent by another site (Sec-Fetch-Site, else Origin) with a 403 page', async () => {
      const message = form({ message: 'list' });
      const crossSite: Record<string, string>[] = [
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
        { origin: 'https://evil.example' },
        { origin: 'null' },
      ];
      for (const headers of crossSite) {
        for (const url of ['/chat', '/chat/start']) {
          const res = await inject({
            method: 'POST',
            url,
            payload: url === '/chat' ? message : form({ doi: '10.1101/x' }),
            headers: { ...FORM, ...headers },
          });
          assert.equal(res.statusCode, 403, `${url} ${JSON.stringify(headers)}: ${res.body.slice(0, 200)}`);
          assert.match(String(res.headers['content-type']), /^text\/html/);
          assert.match(textOf(res.body), /this form can only be sent from this service's own pages; the request came from another site/);
          assert.equal(res.headers['set-cookie'], undefined);
        }
      }
      // This service's own pages, and clients that are not browsers (no Sec-Fetch-Site, no Origin), are served.
      const ownPages: Record<string, string>[] = [{ 'sec-fetch-site': 'same-origin' }, { origin: 'http://localhost:80' }, {}];
      for (const headers of ownPages)
        assert.equal((await inject({ method: 'POST', url: '/chat', payload: message, headers: { ...FORM, ...headers } })).statusCode, 303);
    });

    it('the chat form has a rate limit per client; over it, a 429 page says when to retry', async () => {
      const remoteAddress = '10.96.0.1';
      const post = () => h.app.inject({ method: 'POST', url: '/chat', payload: form({ message: 'list' }), headers: FORM, remoteAddress });
      for (let i = 0; i < RATE_LIMITS.chat; i++) assert.equal((await post()).statusCode, 303);
      const over = await post();
      assert.equal(over.statusCode, 429);
      assert.match(String(over.headers['content-type']), /^text\/html/);
      assert.match(textOf(over.body), /rate limit exceeded for chat-page: 10 requests per 60 seconds; retry in/);
      assert.ok(Number(over.headers['retry-after']) > 0);
      // The API's chat counts apart.
      assert.equal(
        (await h.app.inject({ method: 'POST', url: '/api/api/ai/chat/', payload: { message: 'list' }, remoteAddress })).statusCode,
        200,
      );
    });

    it('bad input gives a page with the message (400), unknown things a 404 page, never JSON or a 500', async () => {
      const doi = (await newest()).suggestions[0].doi;
      for (const [method, url, payload, status, message] of [
        ['GET', '/paper', null, 400, /doi is required/],
        ['GET', '/paper?doi=bad', null, 400, /doi must be a DOI such as/],
        ['GET', '/paper?doi=10.1101/2099.01.01.000001', null, 404, /is not in the local store/],
        ['GET', `/paper?doi=${encodeURIComponent(doi)}&session=nope`, null, 404, /session nope is not a session of/],
        ['GET', `/?q=${'a'.repeat(201)}`, null, 400, /q must be at most 200 characters long/],
        ['GET', '/chat?session=not%20an%20id', null, 400, /session must be a session id/],
        ['POST', '/chat', form({ message: '   ' }), 400, /message must not be empty/],
        ['POST', '/chat', form({ message: 'x'.repeat(2001) }), 400, /message must be at most 2000 characters long/],
        ['POST', '/chat/start', form({ doi: 'nothing' }), 400, /doi must be a DOI/],
        ['POST', '/chat/start', form({ doi: '10.1101/2099.01.01.000001' }), 404, /no extraction session for DOI/],
      ] as const) {
        const res = await inject({ method, url, ...(payload === null ? {} : { payload, headers: FORM }) });
        assert.equal(res.statusCode, status, `${method} ${url}`);
        assert.match(String(res.headers['content-type']), /^text\/html/, url);
        assert.match(textOf(res.body), message, url);
        assert.match(res.body, /role="alert"/, url);
      }
      // A form posted to the chat that is too short keeps what was typed.
      const empty = await inject({ method: 'POST', url: '/chat', payload: form({ message: '  ' }), headers: FORM });
      assert.match(empty.body, /<textarea name="message"/);
      const unknown = await inject({ url: '/chat?session=expired-or-unknown' });
      assert.equal(unknown.statusCode, 200);
      assert.match(textOf(unknown.body), /No table is stored under session expired-or-unknown/);
    });

    it('a parameter the API refuses is a 4xx page in the layout with the API’s own message, never JSON', async () => {
      const doi = (await newest()).suggestions[0].doi;
      const apiError = async (url: string, payload?: object) =>
        (payload ? await h.post<{ error: string }>(url, payload) : await h.get<{ error: string }>(url)).body.error;
      const sessionMessage = (await apiError('/api/api/ai/chat/', { message: 'list', session_id: 'a b' })).replace(/^session_id /, '');
      assert.match(sessionMessage, /^must be a session id/);
      for (const [method, url, payload, api] of [
        ['GET', '/paper', null, await apiError('/api/check-doi-local/')],
        ['GET', `/?q=${'a'.repeat(201)}`, null, await apiError(`/api/doi-suggestions/?q=${'a'.repeat(201)}`)],
        ['GET', `/paper?doi=${encodeURIComponent(doi)}&session=a%20b`, null, `session ${sessionMessage}`],
        ['GET', '/chat?session=a%20b', null, `session ${sessionMessage}`],
        ['GET', `/chat?session=${'a'.repeat(101)}`, null, `session ${sessionMessage}`],
        ['GET', '/chat/table?session=a%20b', null, `session ${sessionMessage}`],
        ['POST', '/chat', form({ message: 'list', session_id: 'a b' }), `session_id ${sessionMessage}`],
        ['POST', '/chat', form({ message: ' ' }), await apiError('/api/api/ai/chat/', { message: ' ' })],
        ['POST', '/chat', form({ session_id: 'x' }), await apiError('/api/api/ai/chat/', { session_id: 'x' })],
        ['POST', '/chat/start', form({ session: 'x' }), 'doi is required'],
        ['POST', '/build/doi', form({}), await apiError('/api/check-doi-local/', {})],
      ] as const) {
        const res = await inject({ method, url, ...(payload === null ? {} : { payload, headers: FORM }) });
        assert.equal(res.statusCode, 400, `${method} ${url}`);
        assert.match(String(res.headers['content-type']), /^text\/html/, url);
        assert.equal(res.headers['cache-control'], 'no-store', url);
        assert.ok(textOf(res.body).includes(api), `${method} ${url}: “${api}” in ${textOf(res.body).slice(0, 300)}`);
        assert.match(res.body, /role="alert"/, url);
        assert.match(res.body, /<nav[^>]*>[\s\S]*<a href="\/statistics"[^>]*>Statistics<\/a>/, url);
      }
    });
  },
  { data: 'demo' },
);
