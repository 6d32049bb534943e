import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { extractArticle } from '../extract/extract-article.ts';
import { makeRow, type KrtRow, type ResourceType } from '../extract/krt-row.ts';
import { corpusFiles, corpusMissing } from '../../../../test/support/krt/corpus.ts';
import { calibrate, crossValidateSuggestions, leaveOnePaperOut, top1Rate } from './calibration.ts';
import { calibratedProbability, fitIsotonic } from './calibration-map.ts';
import { RridKnowledgeBase } from './knowledge-base.ts';
import { recommendAlternatives } from './recommend.ts';
import { parseRrid, RRID_REGISTRIES } from './registry.ts';
import { suggestRrids } from './suggest.ts';
import { ValidationCache, validateRrid } from './validate.ts';

const row = (type: ResourceType, name: string, source: string, identifier: string): KrtRow =>
  makeRow({ 'RESOURCE TYPE': type, 'RESOURCE NAME': name, SOURCE: source, IDENTIFIER: identifier });

function changeLastDigit(id: string): string {
  const i = id.search(/\d(?=\D*$)/);
  return `${id.slice(0, i)}${(Number(id[i]) + 1) % 10}${id.slice(i + 1)}`;
}

test('validation statuses for well-formed known, well-formed unknown and malformed RRIDs of every registry', () => {
  const kb = new RridKnowledgeBase();
  // Valid needs two papers when no registry dump is imported (validate.ts); one is tested in registry/registry.test.ts.
  for (const doi of ['10.1101/known', '10.1101/known-too'])
    kb.addPaper(
      doi,
      RRID_REGISTRIES.map((r) => row(r.resourceType, `resource ${r.key}`, 'Vendor', `RRID:${r.example}`)),
    );
  const now = new Date('2025-01-02T03:04:05Z');
  for (const registry of RRID_REGISTRIES) {
    const known = validateRrid(kb, `RRID:${registry.example}`, now);
    assert.deepEqual(
      [known.status, known.is_valid, known.rrid, known.confidence_score],
      ['valid', true, `RRID:${registry.example}`, 1],
      registry.key,
    );
    assert.equal(known.last_checked, '2025-01-02T03:04:05.000Z');
    assert.equal(known.source, 'fresh');
    const unknownId = changeLastDigit(registry.example);
    const unknown = validateRrid(kb, unknownId, now);
    assert.deepEqual([unknown.status, unknown.is_valid, unknown.rrid], ['unverified', false, `RRID:${unknownId}`], registry.key);
    assert.match(unknown.recommendations.join(' '), /scicrunch\.org\/resolver\/RRID:/, registry.key);
    // Malformed: the first separator replaced by a hyphen (or a space where the canonical one is a hyphen).
    const malformedId = /[_:]/.test(registry.example)
      ? registry.example.replace(/[_:]/, (c) => (c === '_' ? '-' : ' '))
      : registry.example.includes('-')
        ? registry.example.replace('-', '_')
        : registry.example.replace(/^([A-Z]+)/, '$1-');
    const malformed = validateRrid(kb, `RRID:${malformedId}`, now);
    assert.deepEqual([malformed.status, malformed.is_valid], ['invalid', false], `${registry.key} ${malformedId}`);
    const correctable = !['SCR-legacy', 'SAMN'].includes(registry.key);
    if (correctable) {
      assert.equal(parseRrid(malformedId).corrected, registry.example, registry.key);
      assert.match(malformed.recommendations[0], /is malformed: /, registry.key);
      assert.match(
        malformed.recommendations[1],
        new RegExp(`Did you mean RRID:${registry.example.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\?`),
        registry.key,
      );
      assert.match(malformed.recommendations[2], /written by 2 papers/);
      assert.equal(malformed.rrid, malformedId, 'what the client sent, unchanged');
    }
  }
  assert.equal(parseRrid('AB-123').corrected, 'AB_123');
  assert.equal(validateRrid(kb, 'RRID:XYZ_123').confidence_score, 0);
  assert.equal(validateRrid(null, 'RRID:AB_2107436').status, 'unverified');
  const cache = new ValidationCache(60_000);
  assert.equal(cache.validate(kb, 'RRID:AB_2107436', now).source, 'fresh');
  assert.equal(cache.validate(kb, 'rrid: AB_2107436', new Date(now.getTime() + 1000)).source, 'cache');
  assert.equal(cache.validate(kb, 'RRID:AB_2107436', new Date(now.getTime() + 61_000)).source, 'fresh');
});

test('knowledge base: incremental, idempotent, removable, serialisable; conflicts settled by majority with evidence', () => {
  const kb = new RridKnowledgeBase();
  const gfp = (rrid: string) => row('Antibody', 'Rabbit anti-GFP (1:1000)', 'Abcam', `Cat# ab290; RRID:${rrid}`);
  kb.addPaper('p1', [gfp('AB_303395')]);
  kb.addPaper('p2', [gfp('AB_303395'), row('Software/code', 'Fiji', 'Schindelin et al., 2012', 'RRID:SCR_002285')]);
  kb.addPaper('p3', [gfp('AB_999999')]); // one paper disagrees
  kb.addPaper('p3', [gfp('AB_999999')]); // again: idempotent
  const hits = kb.rridsForCatalog('AB-290', 'abcam');
  assert.deepEqual(
    hits.map((h) => [h.rrid, h.papers]),
    [
      ['AB_303395', 2],
      ['AB_999999', 1],
    ],
  );
  const entry = kb.entryByRrid('AB_303395')!;
  assert.deepEqual([...entry.papers.keys()], ['p1', 'p2']);
  assert.deepEqual([...entry.names.keys()], ['Rabbit anti-GFP']);
  assert.equal(kb.entryByRrid('SCR_002285')!.vendors.size, 0, 'a citation is not a vendor');
  const suggestions = suggestRrids(kb, { resourceName: 'GFP antibody', vendor: 'Abcam', catalogNumber: 'ab290' });
  assert.deepEqual(
    suggestions.map((s) => s.suggested_rrid),
    ['RRID:AB_303395', 'RRID:AB_999999'],
  );
  assert.match(suggestions[0].reasoning, /catalog number ab290 is listed/);
  assert.match(suggestions[0].reasoning, /1 other RRID/);
  // Serialise, reload: same answers and the same entry ids.
  const snapshot = JSON.parse(JSON.stringify(kb.toJSON()));
  const reloaded = RridKnowledgeBase.fromJSON(snapshot);
  assert.deepEqual(suggestRrids(reloaded, { resourceName: 'GFP antibody', vendor: 'Abcam', catalogNumber: 'ab290' }), suggestions);
  // Remove a paper: its evidence goes, ids stay stable.
  const id = entry.id;
  kb.removePaper('p1');
  assert.equal(kb.entryByRrid('AB_303395')!.papers.size, 1);
  kb.removePaper('p2');
  assert.equal(kb.hasRrid('AB_303395'), false);
  kb.addPaper('p1', [gfp('AB_303395')]);
  assert.equal(kb.entryByRrid('AB_303395')!.id, id);
});

test('suggestions: synonym-aware names, never an RRID that is not in the base', () => {
  const kb = new RridKnowledgeBase();
  kb.addPaper('a', [
    row('Antibody', 'anti-GFP antibody', 'Abcam', 'RRID:AB_303395'),
    row('Antibody', 'Mouse anti-beta-Actin', 'Sigma-Aldrich', 'Cat# A5441; RRID:AB_476744'),
  ]);
  kb.addPaper('b', [row('Software/code', 'ImageJ v1.53', '', 'RRID:SCR_003070')]);
  // One paper each is too little evidence for a name alone at the default threshold; every candidate when asked.
  assert.deepEqual(suggestRrids(kb, { resourceName: 'GFP antibody' }), []);
  const all = { minConfidence: 0 };
  assert.equal(suggestRrids(kb, { resourceName: 'GFP antibody' }, all)[0]?.suggested_rrid, 'RRID:AB_303395');
  assert.equal(suggestRrids(kb, { resourceName: 'anti-β-actin' }, all)[0]?.suggested_rrid, 'RRID:AB_476744');
  assert.equal(
    suggestRrids(kb, { resourceName: 'image j version 1.52', resourceType: 'software' }, all)[0]?.suggested_rrid,
    'RRID:SCR_003070',
  );
  assert.deepEqual(suggestRrids(kb, { resourceName: 'completely unrelated widget' }), []);
  assert.deepEqual(suggestRrids(new RridKnowledgeBase(), { resourceName: 'anti-GFP', catalogNumber: 'ab290' }), []);
});

let corpusBase: RridKnowledgeBase | null = null;
function baseFromAuthorTables(): RridKnowledgeBase {
  if (corpusBase) return corpusBase;
  const kb = new RridKnowledgeBase();
  for (const file of corpusFiles()) {
    const xml = readFileSync(file, 'utf8');
    if (!xml.includes('<table-wrap')) continue;
    const extraction = extractArticle(xml, { mode: 'table' });
    if (extraction.rows.length) kb.addPaper(extraction.metadata.doi, extraction.rows, extraction.provider);
  }
  corpusBase = kb;
  return kb;
}

test('leave-one-paper-out on the 84 author tables: the right RRID first when another paper writes it; out-of-sample calibration and abstention', (t) => {
  const skip = corpusMissing();
  if (skip) {
    t.skip(skip);
    return;
  }
  const kb = baseFromAuthorTables();
  const shared = [...kb.entries()].filter((e) => e.rrid && e.papers.size >= 2).length;
  const before = JSON.stringify(kb.toJSON());
  const queries = leaveOnePaperOut(kb);
  assert.equal(JSON.stringify(kb.toJSON()), before, 'the experiment restores the base');
  const answerable = queries.filter((q) => q.answerable);
  const rate = top1Rate(answerable);
  const inTop5 = answerable.filter((q) => q.returned.some((r) => r.rrid === q.rrid)).length / answerable.length;
  const cv = crossValidateSuggestions(queries, 5, 15);
  const calibration = calibrate(kb);
  const share = (xs: readonly boolean[]) => xs.filter(Boolean).length / Math.max(1, xs.length);
  const held = (answerableOnly: boolean) => cv.answers.filter((a) => a.answerable === answerableOnly);
  const answered = held(true).filter((a) => a.answered);
  t.diagnostic(
    `${kb.paperCount} papers, ${kb.size} entries, ${[...kb.entries()].filter((e) => e.rrid).length} RRIDs, ${shared} in 2+ papers; ${queries.length} queries, ${answerable.length} answerable: right RRID first ${(100 * rate).toFixed(1)}%, in top 5 ${(100 * inTop5).toFixed(1)}%`,
  );
  t.diagnostic(
    `held out (5 folds by paper): answerable — shown ${(100 * share(held(true).map((a) => a.answered))).toFixed(1)}%, right when shown ${(100 * share(answered.map((a) => a.firstRight))).toFixed(1)}%; unanswerable — abstained ${(100 * share(held(false).map((a) => !a.answered))).toFixed(1)}%; ECE ${cv.reliability.ece.toFixed(3)}, Brier ${cv.reliability.brier.toFixed(3)} on ${cv.reliability.n} suggestions`,
  );
  t.diagnostic(
    `calibration: ${calibration.bins.map((b) => `[${b.from.toFixed(2)}, ${b.to.toFixed(2)}] ${b.right}/${b.total} → ${b.probability}`).join('; ')}`,
  );
  assert.ok(answerable.length >= 100);
  assert.ok(rate > 0.5, `top-1 rate ${rate}`);
  // What is shown is more often right than wrong, out of sample; unanswerable queries are mostly abstained on.
  assert.ok(share(answered.map((a) => a.firstRight)) > 0.5);
  assert.ok(share(held(false).map((a) => !a.answered)) > 0.5);
  assert.ok(cv.reliability.ece < 0.15, `ECE ${cv.reliability.ece}`);
  for (let i = 1; i < calibration.bins.length; i++) assert.ok(calibration.bins[i].probability >= calibration.bins[i - 1].probability);
});

test('property: every suggested RRID is in the base, with paper evidence; confidence in [0, 1]', (t) => {
  const skip = corpusMissing();
  if (skip) {
    t.skip(skip);
    return;
  }
  const kb = baseFromAuthorTables();
  const entries = [...kb.entries()];
  const names = entries.flatMap((e) => [...e.names.keys()]).slice(0, 3000);
  const catalogs = entries.flatMap((e) => [...e.catalogs.keys()]).slice(0, 3000);
  const vendors = [...new Set(entries.flatMap((e) => [...e.vendors.keys()]))];
  const word = fc.stringMatching(/^[A-Za-z0-9 -]{0,24}$/);
  const query = fc.record({
    resourceName: fc.oneof(
      fc.constantFrom(...names),
      word,
      fc.constantFrom(...names).chain((n) => word.map((w) => `${n} ${w}`)),
    ),
    vendor: fc.option(fc.oneof(fc.constantFrom(...vendors), word), { nil: undefined }),
    catalogNumber: fc.option(fc.oneof(fc.constantFrom(...catalogs), word), { nil: undefined }),
    resourceType: fc.option(fc.constantFrom('antibody', 'software', 'cell line', 'chemical', 'nonsense'), { nil: undefined }),
  });
  fc.assert(
    fc.property(query, (q) => {
      for (const s of suggestRrids(kb, q, { limit: 10 })) {
        const entry = kb.entryByRrid(s.suggested_rrid.replace(/^RRID:/, ''));
        if (!entry || entry.id !== s.id || entry.papers.size === 0) return false;
        if (!(s.confidence_score >= 0 && s.confidence_score <= 1)) return false;
        // The RRID was written by a paper of the base.
        const written = [...entry.papers.keys()].some((doi) => kb.paper(doi)!.observations.some((o) => o.rrid === entry.rrid));
        if (!written) return false;
      }
      return true;
    }),
    { numRuns: 300, seed: 42 },
  );
});

test('isotonic calibration: monotone steps, smoothed, 1/2 without data', () => {
  assert.equal(calibratedProbability(null, 3), 0.5);
  const bins = fitIsotonic([
    { score: 1, right: false },
    { score: 2, right: true },
    { score: 3, right: false },
    { score: 4, right: true },
    { score: 5, right: true },
  ]);
  for (let i = 1; i < bins.length; i++) assert.ok(bins[i].probability >= bins[i - 1].probability);
  const cal = { method: 't', bins, queries: 0, pairs: 5, top1Rate: 0 };
  assert.ok(calibratedProbability(cal, 0) < calibratedProbability(cal, 10));
  assert.ok(calibratedProbability(cal, 10) < 1, 'smoothing keeps certainty out');
});

test('recommendations: same target and host, other vendor or clone, newer versions; availability unknown', () => {
  const kb = new RridKnowledgeBase();
  kb.addPaper('p1', [
    row('Antibody', 'Rabbit anti-GFP', 'Abcam', 'Cat# ab290; RRID:AB_303395'),
    row('Antibody', 'Rabbit anti-GFP polyclonal', 'Thermo Fisher Scientific', 'Cat# A-11122; RRID:AB_221569'),
    row('Antibody', 'Mouse anti-GFP, clone 7.1 and 13.1', 'Roche', 'Cat# 11814460001; RRID:AB_390913'),
    row('Antibody', 'Rabbit anti-RFP', 'Rockland', 'Cat# 600-401-379'),
    row('Software/code', 'ImageJ v1.54f', '', 'RRID:SCR_003070'),
    row('Software/code', 'CellProfiler v4.2', '', 'RRID:SCR_007358'),
    row('Software/code', 'DESeq2', '', 'RRID:SCR_015687'),
  ]);
  const abs = recommendAlternatives(kb, { resourceName: 'rabbit anti-GFP antibody', context: { vendor: 'Abcam' } });
  assert.deepEqual(abs.map((r) => r.recommended_rrid).sort(), ['RRID:AB_221569', 'RRID:AB_390913']);
  assert.equal(abs.find((r) => r.recommended_rrid === 'RRID:AB_221569')!.recommendation_type, 'alternative_vendor');
  assert.equal(abs.find((r) => r.recommended_rrid === 'RRID:AB_390913')!.recommendation_type, 'functional_equivalent');
  assert.ok(abs.every((r) => r.availability_status === 'unknown' && r.confidence_score > 0 && r.confidence_score <= 1));
  const sw = recommendAlternatives(kb, { resourceName: 'ImageJ 1.52', resourceType: 'software' });
  assert.deepEqual(sw.map((r) => [r.recommended_resource, r.recommendation_type]).sort(), [
    ['CellProfiler v4.2', 'functional_equivalent'],
    ['ImageJ v1.54f', 'updated_version'],
  ]);
  assert.deepEqual(recommendAlternatives(kb, { resourceName: 'anti-tubulin antibody' }), []);
});
