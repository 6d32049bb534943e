// RRID validation, suggestion and recommendation over HTTP, on SQLite and PostgreSQL: the validation statuses and
// the cache, suggestions only from the store with calibrated confidences, and the table of error cases (real
// papers); demo evidence labelled (the generated demo articles); honest empty answers without data.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import { describeKrtHttp, itAnswersErrors, real, realFile } from '../../../../test/support/krt/http.ts';
import { domainExtraction } from '../../../../test/support/krt/corpus.ts';
import type { RecommendResponse, SuggestResponse, ValidateResponse } from '../schemas/ai.ts';

type Validate = Static<typeof ValidateResponse>;
type Suggest = Static<typeof SuggestResponse>;
type Recommend = Static<typeof RecommendResponse>;

describeKrtHttp('krt AI routes', (h) => {
  const { post } = h;

  it('validate-rrid: valid (written by two papers of the store), unverified, invalid with the obvious correction, then from the cache', async () => {
    // Without a registry dump, valid needs two papers (rrid/validate.ts): the RRIDs of the store by how many papers write them.
    const papersOf = new Map<string, Set<string>>();
    for (const f of real)
      for (const r of domainExtraction(f).extraction.rows)
        for (const [, id] of r.IDENTIFIER.matchAll(/RRID:\s?((?:AB|SCR|CVCL)_[A-Z0-9]*\d)\b/g))
          papersOf.set(id, (papersOf.get(id) ?? new Set()).add(f));
    const known = [...papersOf].find(([, papers]) => papers.size >= 2)![0];
    const single = [...papersOf].find(([, papers]) => papers.size === 1)![0];
    const once = (await post<Validate>('/api/ai/validate-rrid/', { rrid: `RRID:${single}` })).body.validation;
    assert.deepEqual([once.status, once.is_valid, once.papers], ['unverified', false, 1]);
    assert.match(once.recommendations[0], /One paper alone does not attest/);
    const all = real.flatMap((f) => domainExtraction(f).extraction.rows.map((r) => r.IDENTIFIER)).join(' ');
    let unknown = known.replace(/\d$/, (d) => String((Number(d) + 1) % 10));
    while (all.includes(unknown)) unknown = unknown.replace(/\d$/, (d) => String((Number(d) + 1) % 10));
    const valid = await post<Validate>('/api/api/ai/validate-rrid/', { rrid: `rrid: ${known}` });
    assert.equal(valid.status, 200);
    assert.deepEqual(Object.keys(valid.body.validation), [
      'rrid',
      'is_valid',
      'status',
      'confidence_score',
      'recommendations',
      'last_checked',
      'source',
      'registry',
      'papers',
    ]);
    assert.deepEqual(
      [valid.body.validation.rrid, valid.body.validation.status, valid.body.validation.is_valid, valid.body.validation.source],
      [`RRID:${known}`, 'valid', true, 'fresh'],
    );
    assert.ok(valid.body.validation.papers >= 2);
    const again = await post<Validate>('/api/ai/validate-rrid/', { rrid: `rrid: ${known}` });
    assert.equal(again.body.validation.source, 'cache');
    assert.equal(again.body.validation.status, 'valid');
    const unverified = (await post<Validate>('/api/ai/validate-rrid/', { rrid: `RRID:${unknown}` })).body.validation;
    assert.deepEqual([unverified.status, unverified.is_valid], ['unverified', false]);
    assert.match(unverified.recommendations[0], /scicrunch\.org\/resolver\/RRID:/);
    const invalid = (await post<Validate>('/api/ai/validate-rrid/', { rrid: 'AB-123' })).body.validation;
    assert.deepEqual([invalid.status, invalid.is_valid], ['invalid', false]);
    // Malformed, with the reason first (what the client sent is reported as it is), then the obvious form.
    assert.match(invalid.recommendations[0], /^"AB-123" is malformed: /);
    assert.match(invalid.recommendations[1], /^Did you mean RRID:AB_123\?/);
    assert.equal((await post<Validate>('/api/ai/validate-rrid/', { rrid: 'XYZ:42' })).body.validation.confidence_score, 0);
  });

  it('suggest-rrid and recommend: RRIDs only from the store, calibrated confidence, empty when nothing matches', async () => {
    const table = domainExtraction(realFile('459408')).extraction.rows;
    const row = table.find((r) => /RRID:AB_/.test(r.IDENTIFIER) && /Cat#/.test(r.IDENTIFIER))!;
    const catalog = /Cat# ([^;]+)/.exec(row.IDENTIFIER)![1];
    const res = await post<Suggest>('/api/api/ai/suggest-rrid/', {
      resource_name: row['RESOURCE NAME'],
      resource_type: 'antibody',
      vendor: row.SOURCE,
      catalog_number: catalog,
    });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['success', 'total_found', 'abstained', 'reason', 'response_time', 'suggestions']);
    assert.deepEqual([res.body.abstained, res.body.reason], [false, null]);
    const top = res.body.suggestions[0];
    assert.equal(top.suggested_rrid, /RRID:AB_\d+/.exec(row.IDENTIFIER)![0]);
    assert.deepEqual(Object.keys(top), [
      'id',
      'suggested_rrid',
      'confidence_score',
      'reasoning',
      'vendor',
      'catalog_number',
      'resource_name',
      'resource_type',
      'papers',
    ]);
    assert.ok(top.confidence_score > 0 && top.confidence_score < 1);
    assert.notEqual(top.confidence_score, 0.5, 'calibrated, not the uncalibrated 1/2');
    assert.match(top.reasoning, /catalog number .* is listed with this RRID/);
    assert.equal(res.body.total_found, res.body.suggestions.length);
    const all = real.flatMap((f) => domainExtraction(f).extraction.rows.map((r) => r.IDENTIFIER)).join(' ');
    for (const s of res.body.suggestions) assert.ok(all.includes(s.suggested_rrid.replace('RRID:', '')), s.suggested_rrid);
    const none = await post<Suggest>('/api/ai/suggest-rrid/', { resource_name: 'quantum flux capacitor widget' });
    assert.deepEqual([none.status, none.body.suggestions, none.body.total_found, none.body.abstained], [200, [], 0, true]);
    assert.match(none.body.reason ?? '', /^no RRID in the knowledge base matches this name$/);
    // recommend identifies the resource itself as suggest-rrid does (the same first answer), and does not offer it
    // as its own alternative.
    for (const r of table.filter((t) => /RRID:/.test(t.IDENTIFIER)).slice(0, 8)) {
      const asked = { resource_name: r['RESOURCE NAME'] };
      const suggested = (await post<Suggest>('/api/ai/suggest-rrid/', asked)).body;
      const recommended = (await post<Recommend>('/api/ai/recommend/', asked)).body;
      assert.equal(recommended.identified?.rrid ?? null, suggested.suggestions[0]?.suggested_rrid ?? null, r['RESOURCE NAME']);
      assert.equal(recommended.identification_reason, suggested.reason);
      if (recommended.identified) assert.ok(!recommended.recommendations.some((x) => x.recommended_rrid === recommended.identified!.rrid));
    }
    assert.deepEqual(
      (await post<Recommend>('/api/ai/recommend/', { resource_name: 'anti-nonexistentprotein999 antibody' })).body.recommendations,
      [],
    );
  });

  itAnswersErrors(h, [
    { name: 'validate-rrid without an RRID', url: '/api/ai/validate-rrid/', payload: {}, status: 400, error: /^rrid is required$/ },
    {
      name: 'validate-rrid with a blank RRID',
      url: '/api/ai/validate-rrid/',
      payload: { rrid: '  ' },
      status: 400,
      error: /^rrid must not be empty$/,
    },
    {
      name: 'suggest-rrid without a resource name',
      url: '/api/ai/suggest-rrid/',
      payload: { vendor: 'Abcam' },
      status: 400,
      error: /^resource_name is required$/,
    },
    {
      name: 'suggest-rrid with limit 0',
      url: '/api/ai/suggest-rrid/',
      payload: { resource_name: 'x', limit: 0 },
      status: 400,
      error: /^limit must be at least 1$/,
    },
    {
      name: 'recommend with a context that is no object',
      url: '/api/ai/recommend/',
      payload: { resource_name: 'x', context: 'text' },
      status: 400,
      error: /^context must be of type object/,
    },
  ]);
});

describeKrtHttp(
  'krt AI routes on the generated demo articles',
  (h) => {
    const { post } = h;

    it('demo evidence is labelled: a demo RRID is never valid, demo suggestions say where they come from', async () => {
      // Demo RRIDs are written only by generated articles: never reported as valid.
      const demo = (await post<Validate>('/api/ai/validate-rrid/', { rrid: 'RRID:AB_0000101' })).body.validation;
      assert.deepEqual([demo.status, demo.is_valid], ['unverified', false]);
      assert.match(demo.recommendations[0], /only in generated demo articles/);
      // A name alone is too weak to show a suggestion (abstention); the demo catalog number is not.
      const suggested = await post<Suggest>('/api/ai/suggest-rrid/', {
        resource_name: 'rabbit anti-histone H3 (generated demo)',
        vendor: 'Example Biosciences (demo)',
        catalog_number: 'DEMO-AB-0104',
        limit: 1,
      });
      assert.equal(suggested.body.suggestions.length, 1);
      assert.match(suggested.body.suggestions[0].reasoning, /generated demo articles/);

      const rec = await post<Recommend>('/api/api/ai/recommend/', {
        resource_name: 'rabbit anti-histone H3 antibody',
        context: { vendor: 'Example Biosciences (demo)' },
      });
      assert.equal(rec.status, 200);
      assert.deepEqual(Object.keys(rec.body), [
        'success',
        'identified',
        'identification_reason',
        'recommendations',
        'total_found',
        'response_time',
      ]);
      for (const r of rec.body.recommendations) {
        assert.equal(r.availability_status, 'unknown');
        assert.ok(['functional_equivalent', 'alternative_vendor', 'alternative_clone', 'updated_version'].includes(r.recommendation_type));
        assert.ok(r.confidence_score > 0 && r.confidence_score <= 1);
      }
    });
  },
  { data: 'demo' },
);

describeKrtHttp(
  'krt AI routes with no data',
  (h) => {
    it('with no data at all, the AI routes answer honestly: nothing to suggest, nothing verified', async () => {
      const none = await h.post<Suggest>('/api/api/ai/suggest-rrid/', { resource_name: 'anti-GFP' });
      assert.deepEqual([none.status, none.body.suggestions, none.body.abstained], [200, [], true]);
      assert.match(none.body.reason ?? '', /knowledge base is empty|no RRID in the knowledge base/);
      assert.equal(
        (await h.post<Validate>('/api/api/ai/validate-rrid/', { rrid: 'RRID:AB_2107436' })).body.validation.status,
        'unverified',
      );
    });
  },
  { data: 'none', env: { PDI_KRT_ADMIN_TOKEN: '' } },
);
