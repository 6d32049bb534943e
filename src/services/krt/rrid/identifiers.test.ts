// Identifiers are facts: nothing is served that no source wrote; broken RRIDs are repaired only with
// verbatim evidence; validation never shortens or pads what the client sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { extractArticle } from '../extract/extract-article.ts';
import { catalogKey, formatIdentifier, parseIdentifierText } from '../extract/identifier.ts';
import { makeRow, type KrtRow, type ResourceType } from '../extract/krt-row.ts';
import { corpusFiles, corpusMissing } from '../../../../test/support/krt/corpus.ts';
import { parseXml, textOf } from '../jats/tree.ts';
import { rridsWrittenIn } from './attestation.ts';
import { RridKnowledgeBase } from './knowledge-base.ts';
import { parseRrid, RRID_REGISTRIES, stripRridLabel } from './registry.ts';
import { suggestRrids } from './suggest.ts';
import { validateRrid } from './validate.ts';

const row = (type: ResourceType, name: string, source: string, identifier: string): KrtRow =>
  makeRow({ 'RESOURCE TYPE': type, 'RESOURCE NAME': name, SOURCE: source, IDENTIFIER: identifier });
const digits = (text: string) => text.replace(/\D/g, '');

test('a broken RRID is kept as written, with its repair beside it; nothing is cut or padded', () => {
  const cases: [string, string, string | undefined][] = [
    ['RRID:A B_2127 260', 'A B_2127 260', 'AB_2127260'],
    ['RRID:SCR_0030 70', 'SCR_0030 70', 'SCR_003070'],
    ['RRID: AB 303395', 'AB 303395', 'AB_303395'],
    ['RRID: ab28364', 'ab28364', 'AB_28364'],
    ['RRID:IMSR_JAX: 032675', 'IMSR_JAX: 032675', 'IMSR_JAX:032675'],
    ['RRID:SCR_01698', 'SCR_01698', undefined],
    ['RRID: 44609G', '44609G', undefined],
  ];
  for (const [written, value, repair] of cases) {
    const parts = parseIdentifierText(written);
    assert.equal(parts.length, 1, written);
    assert.equal(parts[0].kind, 'unresolved-rrid', written);
    assert.equal(parts[0].value, value, written);
    assert.equal(parts[0].repair, repair, written);
    assert.equal(formatIdentifier(parts), `RRID:${value}`, 'written back as written');
    assert.deepEqual(parseIdentifierText(formatIdentifier(parts)), parts, 'stable when parsed again');
  }
  const fine = parseIdentifierText('Cat# ab290; RRID:ab_303395');
  assert.deepEqual(
    fine.map((p) => [p.kind, p.value]),
    [
      ['catalog', 'ab290'],
      ['rrid', 'AB_303395'],
    ],
  );
});

test('property: parsing an RRID never changes its digits; a well-formed one differs from the input in letter case only', () => {
  const registryish = fc.oneof(
    fc.constantFrom(...RRID_REGISTRIES.map((r) => r.example)),
    fc.constantFrom('AB', 'SCR', 'CVCL', 'Addgene', 'IMSR_JAX', 'JAX', 'MGI', 'BDSC', 'Bloomington', 'ZFIN', 'FlyBase', 'ab', 'scr'),
  );
  const noise = fc.stringMatching(/^[ _:#\-0-9A-Za-z]{0,12}$/);
  const input = fc.oneof(
    fc.tuple(registryish, noise).map(([a, b]) => `${a}${b}`),
    fc.tuple(fc.constantFrom('RRID:', 'RRID: ', 'rrid ', ''), registryish, noise).map(([l, a, b]) => `${l}${a}${b}`),
    fc.string({ maxLength: 30 }),
  );
  fc.assert(
    fc.property(input, (raw) => {
      const parsed = parseRrid(raw);
      const sent = stripRridLabel(raw);
      if (parsed.normalized && parsed.normalized.toUpperCase() !== sent.toUpperCase()) return false;
      if (parsed.corrected && digits(parsed.corrected) !== digits(sent)) return false;
      const v = validateRrid(null, raw);
      // What is reported is what was sent: never shortened or padded.
      return v.rrid === (parsed.normalized ? `RRID:${parsed.normalized}` : parsed.input);
    }),
    { numRuns: 3000, seed: 15 },
  );
  assert.equal(parseRrid('SCR_2285').corrected, null, 'no zero padding');
  assert.match(validateRrid(null, 'RRID:SCR_2285').recommendations[0], /malformed: SCR identifiers have 6 digits/);
  assert.equal(parseRrid('IMSR_JAX:664').corrected, null);
  assert.equal(parseRrid('AB 303395').corrected, 'AB_303395');
});

test('knowledge base: a broken mention joins an RRID only while a paper writes that RRID verbatim', () => {
  const kb = new RridKnowledgeBase();
  kb.addPaper('broken', [
    row('Antibody', 'INTS10', 'Proteintech', 'Cat# 15271-1-AP; RRID:A B_2127 260'),
    row('Software/code', 'ImageJ', 'NIH', 'RRID:SCR_0030 70'),
  ]);
  const rrids = () => [...kb.entries()].filter((e) => e.rrid).map((e) => e.rrid);
  assert.deepEqual(rrids(), [], 'no RRID without a verbatim writing');
  assert.equal(kb.entryByRrid('AB_2127'), undefined, 'never a cut-down form');
  assert.equal(validateRrid(kb, 'RRID:AB_2127').status, 'unverified');
  assert.deepEqual(suggestRrids(kb, { resourceName: 'INTS10', vendor: 'Proteintech', catalogNumber: '15271-1-AP' }), []);
  // Kept as unresolved mentions, with the row's catalog number or alone.
  const unresolved = [...kb.entries()].map((e) => e.key).sort();
  assert.deepEqual(unresolved, ['CAT:proteintech:152711AP', 'UNRESOLVED:SCR_0030 70']);

  kb.addPaper('verbatim', [row('Antibody', 'anti-INTS10', 'Proteintech', 'Cat# 15271-1-AP; RRID:AB_2127260')]);
  const entry = kb.entryByRrid('AB_2127260')!;
  assert.deepEqual([...entry.papers.keys()].sort(), ['broken', 'verbatim']);
  assert.deepEqual([...entry.repairedFrom], [['A B_2127 260', 1]]);
  assert.equal(suggestRrids(kb, { resourceName: 'INTS10', catalogNumber: '15271-1-AP' })[0]?.suggested_rrid, 'RRID:AB_2127260');
  // Evidence from a paper's text (not its table) counts too.
  kb.addPaper('text', [], 'jats-table', ['SCR_003070']);
  assert.deepEqual(rrids().sort(), ['AB_2127260', 'SCR_003070']);
  assert.equal(kb.entryByRrid('SCR_003070')!.papers.size, 1, "the mention is the broken paper's; the text only attests");

  // Snapshots keep it; taking the evidence away puts the mentions back.
  const reloaded = RridKnowledgeBase.fromJSON(JSON.parse(JSON.stringify(kb.toJSON())));
  const listing = (base: RridKnowledgeBase) =>
    [...base.entries()].map((e) => [e.id, e.key, e.mentions, [...e.repairedFrom]]).sort((a, b) => Number(a[0]) - Number(b[0]));
  assert.deepEqual(listing(reloaded), listing(kb));
  kb.removePaper('verbatim');
  kb.removePaper('text');
  assert.deepEqual(rrids(), []);
  assert.deepEqual([...kb.entries()].map((e) => e.key).sort(), unresolved);
  assert.throws(() => RridKnowledgeBase.fromJSON({ ...kb.toJSON(), version: 1 } as unknown as ReturnType<typeof kb.toJSON>));
});

test('rridsWrittenIn: verbatim RRIDs only', () => {
  assert.deepEqual(rridsWrittenIn('RRID:AB_2534096, (SCR_002285). IMSR_JAX:000664) A B_2127 260, SCR_0030 70, ab_123456 and AB_12x'), [
    'AB_123456',
    'AB_2534096',
    'IMSR_JAX:000664',
    'SCR_002285',
  ]);
});

/** Whether `text` (lower case) contains `id` as a whole token: not preceded or followed by a letter, digit or "_". */
function writesVerbatim(text: string, id: string): boolean {
  const needle = id.toLowerCase();
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
    if (!/[a-z0-9_]/.test(text[i - 1] ?? ' ') && !/[a-z0-9_]/.test(text[i + needle.length] ?? ' ')) return true;
  }
  return false;
}

test('property on the corpus: every RRID the base serves occurs verbatim (up to "RRID:" and case) in a source document', (t) => {
  const skip = corpusMissing();
  if (skip) {
    t.skip(skip);
    return;
  }
  // Every corpus paper that writes "RRID" (those are where broken ones are), extracted as the importer does.
  const kb = new RridKnowledgeBase();
  const texts: string[] = [];
  for (const file of corpusFiles()) {
    const xml = readFileSync(file, 'utf8');
    if (!xml.includes('RRID')) continue;
    const x = extractArticle(xml);
    const text = textOf(parseXml(xml));
    texts.push(text.toLowerCase());
    if (x.rows.length) kb.addPaper(x.metadata.doi, x.rows, x.provider, rridsWrittenIn(text));
  }
  const served = [...kb.entries()].filter((e) => e.rrid);
  const repaired = served.filter((e) => e.repairedFrom.size > 0);
  const unresolved = [...kb.entries()].filter((e) => e.key.startsWith('UNRESOLVED:')).length;
  t.diagnostic(
    `${kb.paperCount} papers, ${served.length} RRIDs (${repaired.length} also written broken and repaired), ${unresolved} unresolved mentions`,
  );
  const unattested = served.filter((e) => !texts.some((text) => writesVerbatim(text, e.rrid!)));
  assert.deepEqual(
    unattested.map((e) => e.rrid),
    [],
  );
  // The forms the old base made by cutting or padding are gone.
  for (const made of ['AB_2127', 'AB_1059', 'AB_2722', 'SCR_000030', 'SCR_000027', 'SCR_001698']) {
    assert.equal(kb.entryByRrid(made), undefined, made);
    assert.notEqual(validateRrid(kb, `RRID:${made}`).status, 'valid', made);
  }
  // Any query: whatever is suggested or validated as valid is written verbatim somewhere.
  const entries = [...kb.entries()];
  const names = entries.flatMap((e) => [...e.names.keys()]);
  const catalogs = entries.flatMap((e) => [...e.catalogs.keys()]);
  const written = entries.flatMap((e) => (e.key.startsWith('UNRESOLVED:') ? [e.key.slice(11)] : e.rrid ? [e.rrid] : []));
  const verified = new Map<string, boolean>();
  const attested = (rrid: string) => {
    if (!verified.has(rrid))
      verified.set(
        rrid,
        texts.some((text) => writesVerbatim(text, rrid)),
      );
    return verified.get(rrid)!;
  };
  const word = fc.stringMatching(/^[A-Za-z0-9 _-]{0,16}$/);
  fc.assert(
    fc.property(
      fc.record({
        resourceName: fc.oneof(fc.constantFrom(...names), word),
        catalogNumber: fc.option(fc.oneof(fc.constantFrom(...catalogs), word), { nil: undefined }),
        rrid: fc.oneof(
          fc.constantFrom(...written),
          word.map((w) => `AB_${w}`),
        ),
      }),
      (q) => {
        for (const s of suggestRrids(kb, q, { limit: 10 })) if (!attested(s.suggested_rrid.slice(5))) return false;
        const v = validateRrid(kb, q.rrid);
        return v.status !== 'valid' || attested(v.rrid.slice(5));
      },
    ),
    { numRuns: 400, seed: 15 },
  );
});

test('catalogKey: a pack size after a dash is left out of the product, a product code that ends in a number and L is not', () => {
  assert.equal(catalogKey('E7023-500ML'), catalogKey('E7023'));
  assert.equal(catalogKey('HT15-1KT'), catalogKey('HT15'));
  assert.equal(catalogKey('F7503-4L'), catalogKey('F7503'));
  assert.equal(catalogKey('S6639-1 L'), catalogKey('S6639'));
  // PeproTech's "250-31L" is a product (not 31 litres of product 250), as are "CL-1000L" and "21-28637L".
  for (const product of ['250-31L', 'CL-1000L', '21-28637L']) assert.equal(catalogKey(product), product.replace(/-/g, ''));
  assert.notEqual(catalogKey('250-31L'), catalogKey('250-10'));
});
