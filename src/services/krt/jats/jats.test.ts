import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareXml, stripDoctype } from './entities.ts';
import { findFirst, parseXml, textOf, XmlParseError } from './tree.ts';
import { parseJats, readJatsFile } from './article.ts';
import { doiOfStorePath, normalizeDoi, storePathOfDoi } from './doi.ts';
import { initialsOf } from './metadata.ts';
import { rankDoiSuggestions } from './doi-search.ts';
import { corpusFiles, corpusMissing } from '../../../../test/support/krt/corpus.ts';

test('named and numeric entities are decoded; XML-special ones stay escaped; unknown ones stay visible', () => {
  const xml = prepareXml(
    '<p a="x&quot;y">&alpha;&beta; 5&nbsp;&micro;M &mdash; &#x3B3;&#946; &#60;tag&#62; &amp; &undefinedthing; &#0;</p>',
  );
  const root = parseXml(xml);
  assert.equal(root.attrs.a, 'x"y');
  assert.equal(textOf(root), 'αβ 5\u00a0µM — γβ <tag> & &undefinedthing; \uFFFD'.replace(/\s+/g, ' '));
});

test('entities inside CDATA and comments are left alone', () => {
  const root = parseXml('<r><![CDATA[&alpha; <raw>]]><!-- &nbsp; --></r>');
  assert.equal(textOf(root), '&alpha; <raw>');
});

test('text after inline elements (tail text) is kept, blocks are separated, citation marks are not glued on', () => {
  const root = parseXml(
    '<sec><p>Strain <italic>E. coli</italic> K-12 (Sigma<sup><xref ref-type="bibr" rid="R1">12</xref></sup>, ab290<sup><xref ref-type="bibr" rid="R2">3</xref></sup>)</p><p>Ca<sup>2+</sup> next</p><table><tr><td>a</td><td>b<break/>c</td></tr></table></sec>',
  );
  assert.equal(textOf(root), 'Strain E. coli K-12 (Sigma , ab290 ) Ca2+ next a b c');
});

test('malformed XML is a typed error', () => {
  assert.throws(() => parseXml('<a><b></a>'), XmlParseError);
  assert.throws(() => parseXml('no xml at all'), XmlParseError);
});

test('DOCTYPE with internal subset is removed, quotes and brackets honoured', () => {
  const xml = '<?xml version="1.0"?>\n<!-- c --><!DOCTYPE a SYSTEM "x>y" [ <!ENTITY e "]>"> ]><a>&e;</a>';
  assert.equal(stripDoctype(xml), '<?xml version="1.0"?>\n<!-- c --><a>&e;</a>');
  assert.equal(textOf(parseXml(xml)), '&e;');
});

test('XML safety: external entities and DOCTYPE SYSTEM cause no file or network access', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'krt-xxe-'));
  const secretPath = join(dir, 'secret.txt');
  const canary = 'CANARY-7f3a9c';
  writeFileSync(secretPath, canary);
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.end(`<!ENTITY leak "${canary}">`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  // Spies on every way the process could read a file or open a connection during parsing.
  const spies = [
    mock.method(fs, 'readFileSync'),
    mock.method(fs, 'openSync'),
    mock.method(fs, 'readFile'),
    mock.method(fs, 'open'),
    mock.method(fs, 'createReadStream'),
    mock.method(fs.promises, 'readFile'),
    mock.method(fs.promises, 'open'),
    mock.method(http, 'request'),
    mock.method(http, 'get'),
    mock.method(net, 'connect'),
    mock.method(net, 'createConnection'),
    mock.method(globalThis, 'fetch'),
  ];
  try {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE article SYSTEM "${base}/evil.dtd" [
  <!ENTITY xxe SYSTEM "file://${secretPath}">
  <!ENTITY remote SYSTEM "${base}/remote">
  <!ENTITY % pe SYSTEM "${base}/pe"> %pe;
  <!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
]>
<article><front><article-meta><title-group><article-title>T &xxe; &remote; &lol2; &leak;</article-title></title-group></article-meta></front>
<body><p>&xxe;</p></body></article>`;
    const { root, metadata } = parseJats(xml);
    const allText = textOf(root);
    assert.ok(!allText.includes(canary), 'the secret file content must not appear');
    assert.ok(!allText.includes('lollol'), 'internal entities of the DTD are not expanded');
    assert.equal(metadata.title, 'T &xxe; &remote; &lol2; &leak;');
    for (const spy of spies) assert.equal(spy.mock.callCount(), 0, `${spy.mock.calls.length} unexpected calls`);
  } finally {
    for (const spy of spies) spy.mock.restore();
    await new Promise<void>((resolve) => setTimeout(resolve, 50)); // a fetch, had one started, would arrive
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(hits, 0, 'no request may reach the server');
  t.diagnostic('parsed a document with DOCTYPE SYSTEM, file/http external entities and a parameter entity: 0 reads, 0 requests');
});

test('JATS metadata: DOI, title, "Surname Initials" authors, preferred date, journal', () => {
  const xml = `<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD v1.2 20190208//EN" "JATS-archivearticle1.dtd">
<article article-type="preprint"><front><journal-meta><journal-title-group><journal-title>bioRxiv : the preprint server for biology</journal-title></journal-title-group></journal-meta>
<article-meta><article-id pub-id-type="doi">10.1101/2020.08.27.269738</article-id>
<article-version-alternatives><article-version article-version-type="number">2</article-version></article-version-alternatives>
<title-group><article-title>SARS-CoV-2 lineage <italic>B.6</italic> in Malaysia<xref ref-type="fn" rid="fn1">*</xref></article-title></title-group>
<contrib-group><contrib contrib-type="author"><name><surname>Sam</surname><given-names>I-Ching</given-names></name></contrib>
<contrib contrib-type="author"><name><surname>Chong</surname><given-names>Yoong Min</given-names></name></contrib>
<contrib contrib-type="author"><collab>COVID Consortium</collab></contrib><contrib contrib-type="editor"><name><surname>Ed</surname></name></contrib></contrib-group>
<pub-date pub-type="nihms-submitted"><day>29</day><month>08</month><year>2020</year></pub-date>
<pub-date pub-type="preprint"><day>27</day><month>08</month><year>2020</year></pub-date></article-meta></front></article>`;
  const { metadata } = parseJats(xml);
  assert.equal(metadata.doi, '10.1101/2020.08.27.269738');
  assert.equal(metadata.title, 'SARS-CoV-2 lineage B.6 in Malaysia');
  assert.equal(metadata.authors, 'Sam IC, Chong YM, COVID Consortium');
  assert.equal(metadata.publicationDate, '2020-08-27');
  assert.equal(metadata.journal, 'bioRxiv');
  assert.equal(metadata.version, 2);
  assert.equal(metadata.isPreprint, true);
  assert.equal(initialsOf('J.-P. Marie'), 'JPM');
});

test('DOI normalisation: prefixes, URLs, versions, case, encoding; malformed is null', () => {
  const doi = '10.1101/2020.08.27.269738';
  for (const input of [
    doi,
    'doi:10.1101/2020.08.27.269738',
    'https://doi.org/10.1101/2020.08.27.269738',
    'http://dx.doi.org/10.1101/2020.08.27.269738',
    'https://www.biorxiv.org/content/10.1101/2020.08.27.269738v2',
    'https://www.biorxiv.org/content/10.1101/2020.08.27.269738v1.full.pdf',
    '10.1101/2020.08.27.269738V3',
    '10.1101%2F2020.08.27.269738',
    ' DOI: 10.1101/2020.08.27.269738 ',
    '2020.08.27.269738',
  ]) {
    assert.equal(normalizeDoi(input), doi, input);
  }
  for (const bad of ['', 'hello', '10.1101', '11.1101/x', 'https://example.org/page', '10.1/x']) assert.equal(normalizeDoi(bad), null, bad);
  assert.equal(storePathOfDoi(doi), '2020/2020.08.27.269738.xml');
  assert.equal(doiOfStorePath('/x/2020/2020.08.27.269738.xml'), doi);
});

test('DOI suggestions: best match first, then newest, then DOI; total counts all matches', () => {
  const a = (doi: string, title: string, date: string) => ({ doi, title, authors: '', publicationDate: date, fileSize: 1 });
  const articles = [
    a('10.1101/2021.01.01.000001', 'Spike protein of SARS-CoV-2', '2021-01-01'),
    a('10.1101/2022.01.01.000002', 'Spike antibodies in mice', '2022-01-01'),
    a('10.1101/2020.05.05.000003', 'Zebrafish fins', '2020-05-05'),
    a('10.1101/2023.01.01.000004', 'Protéine spike', '2023-01-01'),
  ];
  assert.deepEqual(
    rankDoiSuggestions(articles, 'spike', 10).items.map((x) => x.doi.slice(-1)),
    ['4', '2', '1'],
  );
  assert.equal(rankDoiSuggestions(articles, 'spike', 1).total, 3);
  assert.deepEqual(
    rankDoiSuggestions(articles, '2020.05.05', 10).items.map((x) => x.doi.slice(-1)),
    ['3'],
  );
  assert.deepEqual(
    rankDoiSuggestions(articles, 'https://doi.org/10.1101/2021.01.01.000001', 10).items.map((x) => x.doi.slice(-1)),
    ['1'],
  );
  assert.deepEqual(
    rankDoiSuggestions(articles, 'proteine', 10).items.map((x) => x.doi.slice(-1)),
    ['4'],
  );
  assert.equal(rankDoiSuggestions(articles, '', 10).total, 4);
  assert.deepEqual(
    rankDoiSuggestions(articles, '', 2).items.map((x) => x.doi.slice(-1)),
    ['4', '2'],
  );
});

test('suggestions fold accents and case; a title with the accents as written ranks first among equals', () => {
  const article = (n: number, title: string, publicationDate: string) => ({
    doi: `10.1101/2022.01.01.00000${n}`,
    title,
    authors: '',
    publicationDate,
    fileSize: 1,
  });
  // the newest first, had the accents not counted
  const articles = [
    article(1, 'Cohort study in Montréal', '2020-01-01'),
    article(2, 'Cohort study in Montreal', '2021-01-01'),
    article(3, 'MONTRÉAL birth cohort', '2022-01-01'),
    article(4, 'Toronto cohort', '2023-01-01'),
  ];
  const ranked = (q: string) => rankDoiSuggestions(articles, q, 10).items.map((x) => x.doi.slice(-1));
  assert.deepEqual(ranked('montreal'), ['2', '3', '1']);
  assert.deepEqual(ranked('Montréal'), ['3', '1', '2']);
  assert.deepEqual(ranked('cohort montréal'), ['3', '1', '2']); // by words
  assert.deepEqual(ranked('STUDY IN MONTREAL'), ['2', '1']); // the phrase
});

test('every corpus file parses, with DOI matching its file name, a title and a date', (t) => {
  const skip = corpusMissing();
  if (skip) {
    t.skip(skip);
    return;
  }
  const files = corpusFiles();
  let withAuthors = 0;
  let parseMs = 0;
  for (const file of files) {
    const t0 = performance.now();
    const article = readJatsFile(file);
    parseMs += performance.now() - t0;
    assert.equal(article.metadata.doi, doiOfStorePath(file), file);
    assert.ok(article.metadata.title.length > 0, file);
    assert.match(article.metadata.publicationDate, /^\d{4}-\d{2}-\d{2}$/, file);
    assert.ok(
      findFirst(article.root, (el) => el.name === 'body'),
      file,
    );
    if (article.metadata.authors) withAuthors++;
  }
  t.diagnostic(`${files.length} files parsed in ${(parseMs / 1000).toFixed(1)} s; ${withAuthors} with authors`);
  assert.equal(files.length, 1200);
  assert.ok(withAuthors >= files.length - 5);
});
