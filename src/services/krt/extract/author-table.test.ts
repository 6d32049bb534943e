import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseXml } from '../jats/tree.ts';
import { extractAuthorTables } from './author-table.ts';
import { extractArticle } from './extract-article.ts';
import { identifierKeys, normalizeIdentifier } from './identifier.ts';
import { RESOURCE_TYPES, type KrtRow } from './krt-row.ts';
import { resourceTypeFromText } from './classify.ts';
import { tableGrid } from './table-grid.ts';
import { corpusFiles, corpusMissing } from '../../../../test/support/krt/corpus.ts';

const wrap = (body: string) => `<article><body><sec><title>Key resources table</title>${body}</sec></body></article>`;

test('STAR table: spanning category rows map to types, "This paper" is new, identifiers normalised', () => {
  const xml = wrap(`<table-wrap id="T1"><table><thead><tr><th>REAGENT or RESOURCE</th><th>SOURCE</th><th>IDENTIFIER</th></tr></thead><tbody>
    <tr><td colspan="3"><bold>Antibodies</bold></td></tr>
    <tr><td>Rabbit anti-GFP</td><td>Abcam</td><td>Cat #ab290, RRID: AB_303395</td></tr>
    <tr><td colspan="3">Bacterial and virus strains</td></tr>
    <tr><td><italic>E. coli</italic> BL21(DE3)</td><td>NEB</td><td>C2527</td></tr>
    <tr><td>AAV9-hSyn-GCaMP6s</td><td>Addgene</td><td>100843-AAV9</td></tr>
    <tr><td colspan="3">Deposited data</td></tr>
    <tr><td>RNA-seq data</td><td>This paper</td><td>GEO: GSE123456</td></tr>
    <tr><td colspan="3">Experimental models: Organisms/strains</td></tr>
    <tr><td>Mouse: C57BL/6J</td><td>The Jackson Laboratory</td><td>JAX: 000664; RRID:IMSR_JAX:000664</td></tr>
    <tr><td colspan="3">Software and algorithms</td></tr>
    <tr><td>Fiji</td><td>Schindelin et al.</td><td>RRID:SCR_002285</td></tr>
  </tbody></table></table-wrap>`);
  const result = extractAuthorTables(parseXml(xml));
  assert.ok(result);
  const rows = result.rows;
  assert.deepEqual(
    rows.map((r) => r['RESOURCE TYPE']),
    ['Antibody', 'Bacterial strain', 'Viral vector', 'Dataset', 'Experimental model: Organism/strain', 'Software/code'],
  );
  assert.deepEqual(rows[0], {
    'RESOURCE TYPE': 'Antibody',
    'RESOURCE NAME': 'Rabbit anti-GFP',
    SOURCE: 'Abcam',
    IDENTIFIER: 'Cat# ab290; RRID:AB_303395',
    'NEW/REUSE': 'reuse',
    'ADDITIONAL INFORMATION': '',
  });
  assert.equal(rows[1]['RESOURCE NAME'], 'E. coli BL21(DE3)');
  assert.equal(rows[3]['NEW/REUSE'], 'new');
  assert.equal(rows[3].IDENTIFIER, 'GEO: GSE123456');
  assert.equal(rows[4].IDENTIFIER, 'JAX: 000664; RRID:IMSR_JAX:000664');
  assert.equal(result.parts[0].layout, 'star');
});

test('eLife table (5 columns) in floats-group, with a rowspan carrying the type down', () => {
  const xml = `<article><body><p>Text.</p></body><floats-group><table-wrap id="keyresource"><label>Key resources table</label><table>
    <thead><tr><th>Reagent type (species) or resource</th><th>Designation</th><th>Source or reference</th><th>Identifiers</th><th>Additional information</th></tr></thead>
    <tbody><tr><td rowspan="2">Antibody</td><td>anti-FLAG M2 (mouse monoclonal)</td><td>Sigma-Aldrich</td><td>Cat# F1804; RRID:AB_262044</td><td>WB (1:1000)</td></tr>
    <tr><td>anti-HA (rat monoclonal)</td><td>Roche</td><td>Cat# 11867423001</td><td></td></tr>
    <tr><td>Cell line (<italic>H. sapiens</italic>)</td><td>HEK293T</td><td>ATCC</td><td>CRL-3216</td><td></td></tr>
    <tr><td>Strain, strain background (<italic>Escherichia coli</italic>)</td><td>DH5α</td><td>Thermo Fisher</td><td>18265017</td><td></td></tr>
    <tr><td>Recombinant DNA reagent</td><td>pLKO.1-shRNA</td><td>This paper</td><td></td><td>made by cloning</td></tr>
    <tr><td>Sequence-based reagent</td><td>sgRNA</td><td>IDT</td><td></td><td>GACT…</td></tr>
    <tr><td>Software, algorithm</td><td>GraphPad Prism</td><td>GraphPad</td><td>RRID:SCR_002798</td><td></td></tr></tbody></table></table-wrap></floats-group></article>`;
  const result = extractAuthorTables(parseXml(xml));
  assert.ok(result);
  assert.equal(result.parts[0].layout, 'elife');
  assert.equal(result.parts[0].table.location, 'floats-group');
  assert.deepEqual(
    result.rows.map((r) => r['RESOURCE TYPE']),
    ['Antibody', 'Antibody', 'Experimental model: Cell line', 'Bacterial strain', 'Recombinant DNA', 'Oligonucleotide', 'Software/code'],
  );
  assert.equal(result.rows[1]['RESOURCE NAME'], 'anti-HA (rat monoclonal)');
  assert.equal(result.rows[0]['ADDITIONAL INFORMATION'], 'WB (1:1000)');
  assert.equal(result.rows[4]['NEW/REUSE'], 'new');
  // A number from a stock centre is that centre's identifier, not a catalog number.
  assert.equal(result.rows[2].IDENTIFIER, 'ATCC: CRL-3216');
});

test("eLife's genetic reagents are lines and strains of their species, as a client's resource_type and as a table's type", () => {
  // Rows as eLife papers of the corpus write them (2021.12.13.472383, 2021.11.29.470423).
  const xml = `<article><body><p>Text.</p></body><floats-group><table-wrap id="keyresource"><label>Key resources table</label><table>
    <thead><tr><th>Reagent type (species) or resource</th><th>Designation</th><th>Source or reference</th><th>Identifiers</th><th>Additional information</th></tr></thead>
    <tbody><tr><td>Genetic reagent (<italic>D.melanogaster</italic>)</td><td>UAS-CD8::GFP</td><td>Bloomington Drosophila Stock Center</td><td>BDSC: 32187</td><td></td></tr>
    <tr><td>Genetic reagent (<italic>M. musculus</italic>)</td><td>B6;129S6-Chattm2(cre)Lowl/J</td><td>The Jackson Laboratory</td><td>JAX: 006410; RRID:IMSR_JAX:006410</td><td>ChAt-ires-CRE</td></tr>
    <tr><td>Biological sample (mouse)</td><td>Brain slices</td><td>This paper</td><td></td><td></td></tr></tbody></table></table-wrap></floats-group></article>`;
  const result = extractAuthorTables(parseXml(xml));
  assert.ok(result);
  assert.deepEqual(
    result.rows.map((r) => r['RESOURCE TYPE']),
    ['Experimental model: Organism/strain', 'Experimental model: Organism/strain', 'Biological sample'],
  );
  // The same words sent as a resource type (a browser extension reading the table) give the same types, where they
  // were read as a chemical ("reagent") and an organism ("mouse").
  for (const [text, type] of [
    ['Genetic reagent (D. melanogaster)', 'Experimental model: Organism/strain'],
    ['Genetic reagent (M. musculus)', 'Experimental model: Organism/strain'],
    ['Sequence-based reagent', 'Oligonucleotide'],
    ['Biological sample (mouse)', 'Biological sample'],
    ['genetic reagent (Addgene plasmid)', 'Recombinant DNA'],
    ['Genetic reagent (AAV)', 'Viral vector'],
    ['Chemical compound, drug', 'Chemical, peptide, or recombinant protein'],
    ['Experimental models: Organisms/strains', 'Experimental model: Organism/strain'],
    ['Bacterial and virus strains', 'Bacterial strain'],
    ['antibodies', 'Antibody'],
    ['fly', 'Experimental model: Organism/strain'],
  ] as const)
    assert.equal(resourceTypeFromText(text), type, text);
});

test('grid expands rowspan and colspan', () => {
  const table = parseXml('<table><tr><td rowspan="2">a</td><td colspan="2">b</td></tr><tr><td>c</td><td>d</td></tr></table>');
  const grid = tableGrid(table);
  assert.deepEqual(
    grid.map((r) => r.cells.map((c) => c.text)),
    [
      ['a', 'b', 'b'],
      ['a', 'c', 'd'],
    ],
  );
  assert.deepEqual(
    grid.map((r) => r.cells.map((c) => c.copiedBy)),
    [
      [null, null, 'col'],
      ['row', null, null],
    ],
  );
});

test('a non-KRT table (numbers) is not taken for one', () => {
  const xml = wrap(
    '<table-wrap><table><tr><th>Gene</th><th>Fold change</th><th>p</th></tr><tr><td>ACE2</td><td>2.1</td><td>0.01</td></tr></table></table-wrap>',
  );
  assert.equal(extractAuthorTables(parseXml(xml)), null);
});

test('IDENTIFIER normal form', () => {
  const cases: [string, string][] = [
    // A broken RRID is written back as written (identifiers are facts), its label normalised.
    ['Cat#715-035-150; RRID: AB 2340770', 'Cat# 715-035-150; RRID:AB 2340770'],
    ['Cat#715-035-150; RRID: AB_2340770', 'Cat# 715-035-150; RRID:AB_2340770'],
    ['RRID: AB_2687817 Cat # BE0297', 'Cat# BE0297; RRID:AB_2687817'],
    ['MN1020, RRID: AB_223647', 'Cat# MN1020; RRID:AB_223647'],
    ['Product code: MA5-33050', 'Cat# MA5-33050'],
    ['Lot # 019M4108V CAS: 826-39-1', 'Lot # 019M4108V; CAS: 826-39-1'],
    ['n/a', 'N/A'],
    ['RRID: 44609G', 'RRID:44609G'],
    ['https://osf.io/ruxfg/', 'https://osf.io/ruxfg/'],
    ['Addgene plasmid # 12260', 'Addgene: 12260'],
  ];
  for (const [input, expected] of cases) assert.equal(normalizeIdentifier(input), expected, input);
  assert.deepEqual([...identifierKeys('Cat #A-11039, RRID:AB_2534096')], ['CAT:A11039', 'RRID:AB_2534096']);
  assert.deepEqual([...identifierKeys('RRID:Addgene_12260')], [...identifierKeys('12260', { source: 'Addgene' })]);
});

/**
 * Data rows of one table counted straight from the XML text, without the parser: rows inside <tr>, cells
 * <td>/<th> with tags stripped; a data row has at least two non-empty cells, a non-empty first cell, no <th>,
 * and is not a header (two or more cells that are column titles).
 */
function countDataRowsInXml(xml: string, tableIndex: number): number {
  const wraps = [...xml.matchAll(/<table-wrap\b[\s\S]*?<\/table-wrap>/g)].map((m) => m[0]);
  let n = 0;
  for (const [tr] of wraps[tableIndex].matchAll(/<tr\b[\s\S]*?<\/tr>/g)) {
    if (/<\/th>|<th\b[^>]*\/>/.test(tr)) continue;
    const cells = [...tr.matchAll(/<t[dh]\b[^>]*?(?:\/>|>([\s\S]*?)<\/t[dh]>)/g)].map((m) =>
      (m[1] ?? '')
        .replace(/<[^>]+>/g, ' ')
        .replace(/&[#\w]+;/g, 'x')
        .replace(/\s+/g, ' ')
        .trim(),
    );
    const filled = cells.filter(Boolean);
    if (filled.length < 2 || !cells[0]) continue;
    const titles = filled.filter((c) =>
      /^(reagent|resource|source|identifiers?|designation|reagent type|additional information|name|supplier|company|catalog|catalogue|reference|rrid)\b/i.test(
        c,
      ),
    );
    if (titles.length >= 2) continue;
    n++;
  }
  return n;
}

test("the corpus's 84 author tables: rows per paper equal the XML's own data-row count", (t) => {
  const skip = corpusMissing();
  if (skip) {
    t.skip(skip);
    return;
  }
  const found: { file: string; rows: KrtRow[]; expected: number }[] = [];
  const layouts = new Map<string, number>();
  const locations = new Map<string, number>();
  for (const file of corpusFiles()) {
    const xml = readFileSync(file, 'utf8');
    if (!xml.includes('<table-wrap')) continue;
    const extraction = extractArticle(xml, { mode: 'table', fileName: file });
    // The STAR/eLife key resources tables (single-kind resource tables are checked below).
    if (extraction.authorTables.length === 0 || extraction.authorTables.some((table) => table.layout === 'resource')) continue;
    const expected = extraction.authorTables.reduce((sum, table) => sum + countDataRowsInXml(xml, table.index), 0);
    found.push({ file, rows: extraction.rows, expected });
    for (const table of extraction.authorTables) {
      layouts.set(table.layout, (layouts.get(table.layout) ?? 0) + 1);
      locations.set(table.location, (locations.get(table.location) ?? 0) + 1);
    }
  }
  const rows = found.reduce((sum, f) => sum + f.rows.length, 0);
  t.diagnostic(
    `${found.length} papers with an author table, ${rows} rows; table parts by layout ${JSON.stringify(Object.fromEntries(layouts))}, by location ${JSON.stringify(Object.fromEntries(locations))}`,
  );
  assert.equal(found.length, 84);
  for (const f of found) {
    assert.equal(f.rows.length, f.expected, `${f.file}: parser ${f.rows.length} rows, XML ${f.expected}`);
    assert.ok(f.rows.length > 0, f.file);
    for (const row of f.rows) {
      assert.ok(RESOURCE_TYPES.includes(row['RESOURCE TYPE']), `${f.file}: type ${row['RESOURCE TYPE']}`);
      assert.ok(row['RESOURCE NAME'].length > 0, f.file);
      assert.ok(row['NEW/REUSE'] === 'new' || row['NEW/REUSE'] === 'reuse');
    }
  }
  const types = new Map<string, number>();
  for (const f of found) for (const r of f.rows) types.set(r['RESOURCE TYPE'], (types.get(r['RESOURCE TYPE']) ?? 0) + 1);
  t.diagnostic(`rows by type: ${JSON.stringify(Object.fromEntries([...types].sort((a, b) => b[1] - a[1])))}`);
  // Every category of a STAR table lands somewhere sensible: antibodies, chemicals and software dominate.
  assert.ok((types.get('Antibody') ?? 0) > 500 && (types.get('Software/code') ?? 0) > 300);
});

test('resource tables in other layouts: columns in any order, labels from the header, title row or caption', () => {
  const table = (caption: string, head: string[], rows: string[][], title = '') =>
    `<table-wrap><label>${caption}</label><table>${title ? `<tr><td colspan="${head.length}">${title}</td></tr>` : ''}<tr>${head
      .map((h) => `<th>${h}</th>`)
      .join('')}</tr>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</table></table-wrap>`;
  const article = (...tables: string[]) =>
    `<article><body><sec><title>Methods</title><p>Text.</p>${tables.join('<p>Between.</p>')}</sec></body></article>`;
  // Antibody | Host | Dilution | Supplier | Catalogue no. | RRID (an RRID column whose values have no label).
  const antibodies = extractAuthorTables(
    parseXml(
      article(
        table(
          'Table 1 Antibodies used in this study',
          ['Antibody', 'Host', 'Dilution', 'Supplier', 'Catalogue no.', 'RRID'],
          [
            ['GFP', 'Chicken', '1:1000', 'Aves Labs', 'GFP-1020', 'AB_10000240'],
            ['NeuN', 'Mouse', '1:500', 'Merck Millipore', 'MAB377', 'AB 2298772'],
            ['Antibody', 'Host', 'Dilution', 'Supplier', 'Catalogue no.', 'RRID'],
          ],
        ),
      ),
    ),
  );
  assert.ok(antibodies);
  assert.equal(antibodies.parts[0].layout, 'resource');
  assert.deepEqual(
    antibodies.rows.map((r) => [r['RESOURCE TYPE'], r['RESOURCE NAME'], r.SOURCE, r.IDENTIFIER]),
    [
      ['Antibody', 'GFP', 'Aves Labs', 'Cat# GFP-1020; RRID:AB_10000240'],
      // A broken RRID stays as written, labelled as the column says.
      ['Antibody', 'NeuN', 'Merck Millipore', 'Cat# MAB377; RRID:AB 2298772'],
    ],
    'the header written again inside the table is not a row',
  );
  // Name | Species | Vendor (Catalog #) under a title row; the supplier and the code written in one cell.
  const titled = extractAuthorTables(
    parseXml(
      article(
        table(
          ' ',
          ['Name', 'Species', 'Vendor/Catalog #'],
          [
            ['Strep-Tag II', 'Mouse', 'Sigma (71590-M)'],
            ['beta-Actin', 'Rabbit', 'Abcam, ab8227'],
          ],
          'Primary Antibodies',
        ),
      ),
    ),
  );
  assert.deepEqual(
    titled?.rows.map((r) => [r['RESOURCE TYPE'], r['RESOURCE NAME'], r.IDENTIFIER]),
    [
      ['Antibody', 'Strep-Tag II', 'Cat# 71590-M'],
      ['Antibody', 'beta-Actin', 'Cat# ab8227'],
    ],
  );
  const split = extractAuthorTables(
    parseXml(
      article(
        table(
          'Table 2 Plasmids used',
          ['Plasmid', 'Use', 'Source'],
          [
            ['pLJM1-Puro', 'Empty vector', 'Addgene, 19319'],
            ['psPAX2', 'Packaging', 'Addgene 12260'],
          ],
        ),
      ),
    ),
  );
  assert.deepEqual(
    split?.rows.map((r) => [r['RESOURCE TYPE'], r.SOURCE, r.IDENTIFIER]),
    [
      ['Recombinant DNA', 'Addgene', 'Addgene: 19319'],
      ['Recombinant DNA', 'Addgene', 'Addgene: 12260'],
    ],
    'an Addgene number is an Addgene identifier',
  );
  // Two name columns, the first holding the kind: the kind is the type, never part of the name.
  const kinds = extractAuthorTables(
    parseXml(
      article(
        table(
          'Table 3 Key reagents',
          ['Resource', 'Name', 'Source', 'Identifier'],
          [
            ['Antibody', 'anti-GFP', 'Abcam', 'ab290'],
            ['Mouse', 'C57BL/6J', 'The Jackson Laboratory', '000664'],
            ['Mouse', 'Ai14', 'MGI', 'MGI 3809524'],
            ['Zebrafish', 'casper', 'ZFIN', 'ZDB-ALT-070316-1'],
            ['Cell line', 'HEK293T', 'NCBI', 'NCBI Taxonomy 9606'],
          ],
        ),
      ),
    ),
  );
  assert.deepEqual(
    kinds?.rows.map((r) => [r['RESOURCE TYPE'], r['RESOURCE NAME'], r.IDENTIFIER]),
    [
      ['Antibody', 'anti-GFP', 'Cat# ab290'],
      ['Experimental model: Organism/strain', 'C57BL/6J', 'JAX: 000664'],
      ['Experimental model: Organism/strain', 'Ai14', 'MGI: 3809524'],
      ['Experimental model: Organism/strain', 'casper', 'ZFIN: ZDB-ALT-070316-1'],
      ['Experimental model: Cell line', 'HEK293T', 'NCBI: 9606'],
    ],
  );
  // Not resource tables: parameters with a source column; a list of genes with identifiers.
  assert.equal(
    extractAuthorTables(
      parseXml(
        article(
          table(
            'Table 1 Model parameters',
            ['Name', 'Description', 'Value', 'Units', 'Source'],
            [
              ['k1', 'degradation rate', '36.5', 'd-1', 'inferred from [7]'],
              ['k2', 'production rate', '2.1', 'd-1', '[12]'],
            ],
          ),
          table(
            'Table 2 Genes',
            ['Name', 'Gene identifier', 'Clade'],
            [
              ['PP2C12', 'At1g47380', 'H'],
              ['PP2C15', 'At1g68410', 'H'],
            ],
          ),
        ),
      ),
    ),
    null,
  );
});

test('resource tables of every other layout in the corpus: names without types, stock numbers as themselves', (t) => {
  const skip = corpusMissing();
  if (skip) {
    t.skip(skip);
    return;
  }
  let papers = 0;
  let tables = 0;
  let rowsSeen = 0;
  let stocks = 0;
  for (const file of corpusFiles()) {
    const xml = readFileSync(file, 'utf8');
    if (!xml.includes('<table-wrap')) continue;
    const extraction = extractArticle(xml, { mode: 'table', fileName: file });
    const parts = extraction.authorTables;
    if (parts.length === 0) continue;
    // A number from The Jackson Laboratory, Addgene or ATCC is labelled by it; "Cat#" only where the authors
    // wrote a catalog label themselves.
    for (const row of extraction.rows) {
      if (!/^(The Jackson Laboratory|Addgene|ATCC)$/.test(row.SOURCE.trim())) continue;
      const catalog = /^Cat# (\d+)$/.exec(row.IDENTIFIER)?.[1];
      if (catalog)
        assert.match(xml, new RegExp(`cat[a-z]*\\.?\\s*(?:#|no\\.?)\\s*${catalog}`, 'i'), `${file}: ${row.SOURCE} ${row.IDENTIFIER}`);
      stocks++;
    }
    const resource = parts.filter((p) => p.layout === 'resource');
    // A paper's STAR/eLife table is its key resources table: other resource tables are not mixed into it.
    assert.ok(resource.length === 0 || resource.length === parts.length, file);
    if (resource.length === 0) continue;
    papers++;
    tables += resource.length;
    for (const part of resource) assert.ok(part.rows > 0, `${file}: table ${part.index}`);
    for (const row of extraction.rows) {
      rowsSeen++;
      assert.ok(row['RESOURCE NAME'].length > 0, file);
      assert.doesNotMatch(
        row['RESOURCE NAME'],
        /^(antibod\w*|cell lines?|plasmids?|strains?|chemicals?|software)\s*;/i,
        `${file}: ${row['RESOURCE NAME']}`,
      );
    }
  }
  t.diagnostic(`${papers} papers whose resource tables are in other layouts: ${tables} tables, ${rowsSeen} rows`);
  assert.ok(papers >= 30, `${papers} papers`);
  t.diagnostic(`${stocks} rows from The Jackson Laboratory, Addgene or ATCC`);
  assert.ok(stocks > 20);
});
