// The ceilings of B's benchmark (bench/_krt-cv-ceiling.ts): how an authors' identifier is written, which of them a
// knowledge base attests as identifiers, and the count of each form inside each ceiling. No data access: the
// knowledge base and the tables are built in memory.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { attestedIdentifiers, ceilingByForm, identifierForm, identifierParts, type CeilingPaper } from '../bench/_krt-cv-ceiling.ts';
import { makeRow, type KrtRow, type ResourceType } from '../src/services/krt/extract/krt-row.ts';
import { RridKnowledgeBase } from '../src/services/krt/rrid/knowledge-base.ts';

const row = (type: ResourceType, name: string, source: string, identifier: string): KrtRow =>
  makeRow({ 'RESOURCE TYPE': type, 'RESOURCE NAME': name, SOURCE: source, IDENTIFIER: identifier });
const chemical = 'Chemical, peptide, or recombinant protein';

const gold = [
  row('Antibody', 'Rabbit anti-GFP', 'Abcam', 'Cat# ab290; RRID:AB_303395'),
  row(chemical, 'DAPI', 'Thermo Fisher Scientific', 'Cat# D-1306'),
  row('Experimental model: Organism/strain', 'UAS-GFP', 'Bloomington Drosophila Stock Center', 'BDSC: 5137'),
  row('Antibody', 'Rat anti-HA', 'Roche', 'Cat# 11867423001'),
  row('Software/code', 'Fiji', 'https://fiji.sc', 'RRID:SCR_002285'),
  row(chemical, 'Paraformaldehyde', 'Electron Microscopy Sciences', 'Cat# 15710'),
];

it('reads how each identifier is written from its kind and its comparison key', () => {
  assert.deepEqual(
    gold.flatMap((r) => identifierParts(r).map((p) => [p.key, identifierForm(p)])),
    [
      ['AB290', 'catalog number with letters'],
      ['AB303395', 'RRID'],
      ['D1306', 'catalog number with letters'],
      ['5137', 'bare number of at most 5 digits'],
      ['11867423001', 'bare number of more than 5 digits'],
      ['SCR002285', 'RRID'],
      ['15710', 'bare number of at most 5 digits'],
    ],
  );
  assert.equal(identifierForm({ key: '123456', kind: 'catalog' }), 'bare number of more than 5 digits');
  assert.equal(identifierForm({ key: '12345', kind: 'catalog' }), 'bare number of at most 5 digits');
});

it('counts an identifier as attested only where the knowledge base reads it as an identifier', () => {
  const kb = new RridKnowledgeBase();
  // One training paper: its table writes the antibody with both identifiers and DAPI's number spelt without the
  // hyphen; its text writes Fiji's RRID; "15710" is in its text, but as no identifier the base reads.
  kb.addPaper(
    '10.1101/training',
    [gold[0], row(chemical, 'DAPI', 'Thermo Fisher Scientific', 'Cat# D1306'), row(chemical, 'PFA', '', '4%')],
    'jats-table',
    ['SCR_002285'],
  );
  assert.deepEqual([...attestedIdentifiers(kb, gold)].sort(), ['AB290', 'AB303395', 'D1306', 'SCR002285']);
  // Catalog numbers are compared as the base compares them: a pack size is not part of the product.
  assert.deepEqual([...attestedIdentifiers(kb, [row(chemical, 'DAPI', 'Thermo Fisher Scientific', 'Cat# D1306-100ML')])], ['D1306100ML']);
  assert.deepEqual([...attestedIdentifiers(kb, [row(chemical, 'DAPI', 'Thermo Fisher Scientific', 'Cat# D1307')])], []);
  kb.removePaper('10.1101/training');
  assert.equal(attestedIdentifiers(kb, gold).size, 0);
});

it('counts each authors’ identifier once per paper, in its form, inside each ceiling', () => {
  const papers: CeilingPaper[] = [
    {
      paper: 'a',
      // AB303395 written twice: counted once.
      gold: [...gold, row('Antibody', 'Rabbit anti-GFP (IF)', 'Abcam', 'RRID:AB_303395')],
      ceilingIds: new Set(['AB303395', '5137', '15710']),
      attestedIds: new Set(['AB303395', 'AB290']),
    },
    { paper: 'b', gold: [gold[3]], ceilingIds: new Set(), attestedIds: new Set(['11867423001']) },
  ];
  const counts = Object.fromEntries(
    [...ceilingByForm(papers)].map(([form, f]) => [
      form,
      [f.ceiling.length, f.ceiling.filter((h) => h.hit).length, f.attested.filter((h) => h.hit).length],
    ]),
  );
  assert.deepEqual(counts, {
    RRID: [2, 1, 1],
    'catalog number with letters': [2, 0, 1],
    'bare number of at most 5 digits': [2, 2, 0],
    'bare number of more than 5 digits': [2, 0, 1],
  });
});
