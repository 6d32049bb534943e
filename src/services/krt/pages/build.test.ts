// The build page (/build) on SQLite and PostgreSQL, with a dozen real papers imported: an uploaded JATS file of the
// corpus that the store does not hold gets the table the importer's extractor gives it, downloadable as CSV and
// editable in the chat, and the store is not touched; a file too large, not well-formed, carrying entity declarations,
// not JATS, empty, missing or not sent as a form is a 4xx drawn on the page, and changes nothing; the DOI form sends a
// stored paper to its page and, without PDI_KRT_PAGE_FETCH, is disabled and refused.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { splitTable } from '../extract/index.ts';
import { describeKrtHttp, real, TABLE_DOI } from '../../../../test/support/krt/http.ts';
import { corpusFiles, domainExtraction } from '../../../../test/support/krt/corpus.ts';
import { decode, textOf } from '../../../../test/support/pages.ts';
import { INCLUSION_HEADER, unlabelledPercentages } from '../../../../test/support/krt/labels.ts';
import { MAX_JATS_BYTES } from '../sync.ts';
import type { KrtTables } from '../tables.ts';
import { readProlog } from './build.ts';

const BOUNDARY = '----pdi-build-test';

function upload(content: Buffer | string, filename = 'paper.xml'): { payload: Buffer; headers: Record<string, string> } {
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/xml\r\n\r\n`;
  return {
    payload: Buffer.concat([
      Buffer.from(head),
      Buffer.isBuffer(content) ? content : Buffer.from(content),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

/** A corpus paper with an author table (or, `text`, one whose table from the text has further mentions) that the suite did not import. */
function notImported(kind: 'table' | 'text' = 'table'): string {
  const imported = new Set(real.map((f) => f.split('/').slice(-2).join('/')));
  for (const file of corpusFiles()) {
    if (imported.has(file.split('/').slice(-2).join('/'))) continue;
    const { extraction } = domainExtraction(file);
    if (kind === 'table' && extraction.provider === 'jats-table') return file;
    if (kind === 'text' && extraction.provider === 'text-pattern' && splitTable(extraction.rows, extraction.evidence).mentions.length > 0)
      return file;
  }
  throw new Error(`no other corpus paper (${kind})`);
}

describeKrtHttp('krt build page', (h) => {
  let client = 0;
  const inject = (options: { method?: 'GET' | 'POST'; url: string; payload?: string | Buffer; headers?: Record<string, string> }) =>
    h.app.inject({ ...options, remoteAddress: `10.96.${(client >> 8) & 255}.${client++ & 255}` });
  const counts = async () => {
    const db = h.t.db.kysely.withTables<KrtTables>();
    const n = async (table: 'krt_articles' | 'krt_sessions' | 'krt_session_rows' | 'krt_chat_sessions') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      articles: await n('krt_articles'),
      sessions: await n('krt_sessions'),
      rows: await n('krt_session_rows'),
      chats: await n('krt_chat_sessions'),
    };
  };

  it('GET /build: the DOI field is disabled and says why; the upload form names its limit', async () => {
    const res = await inject({ url: '/build' });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<input\s+type="text"\s+name="doi"[^>]*disabled/);
    assert.match(textOf(res.body), /Fetching papers by DOI is not enabled on this server/);
    assert.match(res.body, /<form class="stack" method="post" action="\/build" enctype="multipart\/form-data">/);
    assert.match(textOf(res.body), new RegExp(`At most ${MAX_JATS_BYTES / 1024 / 1024} MiB`));
  });

  it('an uploaded JATS file gets its table, downloadable and editable, and the store is not touched', async () => {
    const file = notImported();
    const { doi, extraction } = domainExtraction(file);
    const before = await counts();
    const res = await inject({ method: 'POST', url: '/build', ...upload(fs.readFileSync(file), 'paper.xml') });
    assert.equal(res.statusCode, 200, textOf(res.body).slice(0, 500));
    assert.equal((res.body.match(/<td class="rrid-cell">/g) ?? []).length, extraction.rows.length);
    for (const row of extraction.rows.slice(0, 5))
      assert.ok(textOf(res.body).includes(row['RESOURCE NAME'].replace(/\s+/g, ' ').trim()), row['RESOURCE NAME']);
    assert.match(textOf(res.body), new RegExp(`The file names the DOI ${doi.replace(/\./g, '\\.')}`));
    const session = /href="\/api\/export\/([0-9a-f-]{36})\/csv\/"/.exec(res.body)?.[1];
    assert.ok(session, 'a CSV download link');
    assert.match(res.body, new RegExp(`href="/chat\\?session=${session}"`));
    const json = await inject({ url: `/api/export/${session}/json/` });
    assert.equal(json.statusCode, 200);
    assert.deepEqual(json.json().krt_data, extraction.rows);
    const csv = await inject({ url: `/api/export/${session}/csv/` });
    assert.equal(csv.statusCode, 200);
    assert.match(csv.body, /^\uFEFF?RESOURCE TYPE,RESOURCE NAME,SOURCE,IDENTIFIER,NEW\/REUSE,ADDITIONAL INFORMATION\r?\n/);
    const after = await counts();
    assert.deepEqual(after, { ...before, chats: before.chats + 1 }, 'only the table copy is written');
    assert.equal((await h.get<{ available: boolean }>(`/api/check-doi-local/?doi=${doi}`)).body.available, false);
  });

  it("an upload of a stored paper does not list that paper as evidence for its own cells' candidates", async () => {
    const stored = real.map((file) => ({ file, ...domainExtraction(file) })).filter((x) => x.extraction.provider === 'text-pattern');
    assert.ok(stored.length > 0);
    let candidates = 0;
    for (const { file, doi } of stored) {
      const res = await inject({ method: 'POST', url: '/build', ...upload(fs.readFileSync(file), 'paper.xml') });
      assert.equal(res.statusCode, 200, textOf(res.body).slice(0, 500));
      // A candidate's papers are listed as <li> links (resource-table.ts); the page's own link to the stored paper is not one.
      candidates += (res.body.match(/<li><a href="\/paper\?doi=/g) ?? []).length;
      assert.ok(!res.body.includes(`<li><a href="/paper?doi=${encodeURIComponent(doi)}">`), `${doi} is listed as evidence for itself`);
    }
    assert.ok(candidates > 0, 'some candidate lists its papers');
  });

  it('an uploaded paper without an author table: its key resources table, then its further mentions', async () => {
    const { extraction } = domainExtraction(notImported('text'));
    const split = splitTable(extraction.rows, extraction.evidence);
    const res = await inject({ method: 'POST', url: '/build', ...upload(fs.readFileSync(notImported('text')), 'paper.xml') });
    assert.equal(res.statusCode, 200, textOf(res.body).slice(0, 500));
    const [table, mentions] = res.body.split('<h3 id="mentions-heading">');
    assert.equal((table.match(/<td class="rrid-cell">/g) ?? []).length, split.rows.length);
    assert.match(textOf(mentions), new RegExp(`^Further mentions The text also names ${split.mentions.length} resources?`));
    for (const m of split.mentions) assert.ok(textOf(mentions).includes(textOf(m.sentence)), m.sentence);
    // Every number says what it is (the text extractor's, the identifier candidates', the RRID suggestions' probabilities).
    const cells = [...split.rows, ...split.mentions.map((m) => m.row)].flatMap((row) => Object.values(row));
    assert.deepEqual(unlabelledPercentages(res.body, cells), []);
    assert.match(textOf(table), /found in the text; probability the authors list it \(text extractor\): \d+%/);
    assert.ok(mentions.includes(INCLUSION_HEADER), 'the column of percentages is labelled');
    const session = /href="\/api\/export\/([0-9a-f-]{36})\/json\/"/.exec(res.body)?.[1];
    assert.deepEqual(
      (await inject({ url: `/api/export/${session}/json/` })).json().krt_data,
      split.rows,
      'the table is kept, not its mentions',
    );
    // Each mention's button opens a chat copy of the kept table with that mention added; the kept table is unchanged.
    const forms = [...mentions.matchAll(/<form class="chat-start" method="post" action="\/chat\/start">([\s\S]*?)<\/form>/g)].map((m) =>
      Object.fromEntries([...m[1].matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)" \/>/g)].map((f) => [f[1], decode(f[2])])),
    );
    assert.equal(forms.length, split.mentions.length);
    const k = split.mentions.length - 1;
    assert.deepEqual(forms[k], { upload: session, row: JSON.stringify(split.mentions[k].row) });
    const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
    const start = await inject({ method: 'POST', url: '/chat/start', payload: new URLSearchParams(forms[k]).toString(), headers: FORM });
    assert.equal(start.statusCode, 303, textOf(start.body).slice(0, 300));
    const copy = String(start.headers.location).split('=')[1];
    assert.notEqual(copy, session);
    assert.deepEqual((await inject({ url: `/api/export/${copy}/json/` })).json().krt_data, [...split.rows, split.mentions[k].row]);
    assert.deepEqual((await inject({ url: `/api/export/${session}/json/` })).json().krt_data, split.rows);
    const page = await inject({
      url: String(start.headers.location),
      headers: { cookie: String(start.headers['set-cookie']).split(';')[0] },
    });
    assert.ok(textOf(page.body).includes(`with “${textOf(split.mentions[k].row['RESOURCE NAME'])}” added from the further mentions`));
    const refusals: [Record<string, string>, number, RegExp][] = [
      [{ upload: session!, row: '{"RESOURCE NAME": "x"}' }, 400, /row must be a further mention of the upload/],
      [{ upload: session!, row: 'not json' }, 400, /row must be a further mention of the upload/],
      [{ upload: session! }, 400, /row must not be empty/],
      [{ upload: '00000000-0000-4000-8000-000000000000', row: forms[k].row }, 404, /is not kept any more/],
    ];
    for (const [fields, status, message] of refusals) {
      const res = await inject({ method: 'POST', url: '/chat/start', payload: new URLSearchParams(fields).toString(), headers: FORM });
      assert.equal(res.statusCode, status, JSON.stringify(fields));
      assert.match(textOf(res.body), message);
    }
  });

  it('a file whose DOI the store holds links to the stored paper', async () => {
    const file = real.find((f) => f.includes('459408'))!;
    const res = await inject({ method: 'POST', url: '/build', ...upload(fs.readFileSync(file)) });
    assert.equal(res.statusCode, 200);
    assert.ok(res.body.includes(`href="/paper?doi=${encodeURIComponent(TABLE_DOI)}"`));
  });

  const bad: Array<{
    name: string;
    status: number;
    message: RegExp;
    request: () => { payload: Buffer | string; headers: Record<string, string> };
  }> = [
    {
      name: 'a file over the limit',
      status: 413,
      message: /larger than 64 MiB/,
      request: () => upload(Buffer.concat([Buffer.from('<article>'), Buffer.alloc(MAX_JATS_BYTES, 'a')])),
    },
    {
      name: 'XML that is not well-formed',
      status: 400,
      message: /not a well-formed JATS XML document/,
      request: () => upload('<article><front></article>'),
    },
    {
      name: 'an external entity',
      status: 400,
      message: /the file declares entities/,
      request: () =>
        upload(
          '<?xml version="1.0"?>\n<!DOCTYPE article [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<article><body><p>&xxe;</p></body></article>',
        ),
    },
    {
      name: 'nested internal entities (a billion laughs)',
      status: 400,
      message: /the file declares entities/,
      request: () =>
        upload(
          '<?xml version="1.0"?>\n<!DOCTYPE article [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>\n<article><body><p>&c;</p></body></article>',
        ),
    },
    {
      name: 'XML that is not JATS',
      status: 400,
      message: /not a JATS article \(its root element is <html>/,
      request: () => upload('<html><body/></html>'),
    },
    { name: 'text that is not XML', status: 400, message: /not an XML document/, request: () => upload('just words') },
    { name: 'an empty file', status: 400, message: /the uploaded file is empty/, request: () => upload('') },
    {
      name: 'a form without a file',
      status: 400,
      message: /choose a JATS XML file/,
      request: () => ({
        payload: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${BOUNDARY}--\r\n`,
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      }),
    },
    {
      name: 'a body that is not multipart',
      status: 415,
      message: /multipart\/form-data/,
      request: () => ({ payload: '<article/>', headers: { 'content-type': 'application/xml' } }),
    },
    {
      name: 'a form-encoded body',
      status: 415,
      message: /multipart\/form-data/,
      request: () => ({ payload: 'file=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    },
  ];
  for (const c of bad) {
    it(`${c.status}: ${c.name}, drawn on the page; nothing changes`, async () => {
      const before = await counts();
      const res = await inject({ method: 'POST', url: '/build', ...c.request() });
      assert.equal(res.statusCode, c.status, textOf(res.body).slice(0, 400));
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(textOf(res.body), c.message);
      assert.match(res.body, /enctype="multipart\/form-data"/, 'the form is drawn again');
      assert.doesNotMatch(res.body, /root:x:0:0/);
      assert.deepEqual(await counts(), before);
    });
  }

  it('another site cannot post the form (403)', async () => {
    const before = await counts();
    const res = await inject({
      method: 'POST',
      url: '/build',
      ...upload('<article/>'),
      headers: { ...upload('').headers, 'sec-fetch-site': 'cross-site' },
    });
    assert.equal(res.statusCode, 403);
    assert.deepEqual(await counts(), before);
  });

  it('the DOI form: a stored paper opens at its page; another is refused while fetching is off; a bad DOI is a 400', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const stored = await inject({
      method: 'POST',
      url: '/build/doi',
      payload: `doi=${encodeURIComponent(`https://doi.org/${TABLE_DOI}`)}`,
      headers: form,
    });
    assert.equal(stored.statusCode, 303);
    assert.equal(stored.headers.location, `/paper?doi=${encodeURIComponent(TABLE_DOI)}`);
    const before = await counts();
    const other = await inject({ method: 'POST', url: '/build/doi', payload: 'doi=10.1101%2F2099.01.01.000001', headers: form });
    assert.equal(other.statusCode, 404);
    assert.match(textOf(other.body), /fetching papers by DOI is not enabled on this server/);
    const badDoi = await inject({ method: 'POST', url: '/build/doi', payload: 'doi=not-a-doi', headers: form });
    assert.equal(badDoi.statusCode, 400);
    assert.match(textOf(badDoi.body), /doi must be a DOI/);
    assert.deepEqual(await counts(), before);
  });
});

it('readProlog reads past the declaration, comments, processing instructions and the DOCTYPE, and sees entity declarations', () => {
  assert.deepEqual(
    readProlog('\uFEFF<?xml version="1.0"?>\n<!-- c -->\n<!DOCTYPE article SYSTEM "x.dtd" [<!ENTITY a "b">]>\n<article x="1">'),
    {
      root: 'article',
      declaresEntities: true,
    },
  );
  // JATS files name their public DTD: that is not an entity declaration.
  assert.deepEqual(
    readProlog(
      '<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD v1.2 20190208//EN" "JATS-archivearticle1.dtd">\n<article><p>&lt;!ENTITY in text&gt;</p></article>',
    ),
    {
      root: 'article',
      declaresEntities: false,
    },
  );
  assert.deepEqual(readProlog('<j:article xmlns:j="x"/>'), { root: 'j:article', declaresEntities: false });
  assert.deepEqual(readProlog('words'), { root: null, declaresEntities: false });
});
