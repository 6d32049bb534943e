// Key resources tables by session and by DOI over HTTP, on SQLite and PostgreSQL: both addresses, DOI slashes
// raw or %2F, the author table as the best table, the text extractor's table; then the table of error cases.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Static } from 'typebox';
import { TABLE_DOI, describeKrtHttp, itAnswersErrors, real, realFile } from '../../../../test/support/krt/http.ts';
import type { ErrorCase } from '../../../../test/support/krt/http.ts';
import { domainExtraction } from '../../../../test/support/krt/corpus.ts';
import { KRT_COLUMNS, RESOURCE_TYPES, TABLE_EXTRACTOR_MODEL } from '../extract/index.ts';
import { parseXml, textOf } from '../jats/tree.ts';
import type { DoiTableResponse, SessionResponse } from '../schemas/tables.ts';

type DoiTable = Static<typeof DoiTableResponse>;
type SessionTable = Static<typeof SessionResponse>;

const BASES = ['/api/api/krt', '/api/krt'];

describeKrtHttp('krt tables by session and by DOI', (h) => {
  const { get } = h;

  it('krt by session and by DOI (slashes raw or %2F) at both addresses; the author table is the best table', async () => {
    const expected = domainExtraction(realFile('459408')).extraction;
    for (const base of BASES) {
      for (const form of [TABLE_DOI, encodeURIComponent(TABLE_DOI), `https://doi.org/${TABLE_DOI}`.replace(/\//g, '%2F')]) {
        const res = await get<DoiTable>(`${base}/doi/${form}/`);
        assert.equal(res.status, 200, form);
        assert.deepEqual(Object.keys(res.body), ['success', 'doi', 'session_id', 'krt_data', 'row_evidence', 'summary', 'article_info']);
        assert.equal(res.body.doi, TABLE_DOI);
        assert.deepEqual(res.body.krt_data, expected.rows);
        assert.equal(res.body.row_evidence, null, "an author's table has no sentence evidence");
        const fresh = expected.rows.filter((r) => r['NEW/REUSE'] === 'new').length;
        assert.deepEqual(res.body.summary, {
          total_resources: expected.rows.length,
          new_resources: fresh,
          reused_resources: expected.rows.length - fresh,
          total_sessions: 1,
          provider: 'jats-table',
          model: TABLE_EXTRACTOR_MODEL,
        });
        assert.deepEqual(res.body.article_info, {
          title: expected.metadata.title,
          authors: expected.metadata.authors,
          publication_date: expected.metadata.publicationDate,
          journal: expected.metadata.journal,
          is_preprint_paper: true,
          is_biorxiv_paper: true,
          is_demo: false,
        });
      }
      const noSlash = await get<DoiTable>(`${base}/doi/${TABLE_DOI}`);
      assert.equal(noSlash.status, 200);
      const id = noSlash.body.session_id;
      const session = await get<SessionTable>(`${base}/${id}/`);
      assert.equal(session.status, 200);
      assert.deepEqual(Object.keys(session.body), [
        'success',
        'session_id',
        'doi',
        'title',
        'status',
        'error',
        'created_at',
        'krt_data',
        'row_evidence',
        'summary',
      ]);
      assert.deepEqual(session.body.krt_data, expected.rows);
      assert.equal(session.body.row_evidence, null);
      assert.equal(session.body.status, 'completed');
      assert.equal(session.body.summary.total_resources, expected.rows.length);
      assert.equal(session.body.summary.provider, 'jats-table');
      assert.equal(session.body.summary.model, TABLE_EXTRACTOR_MODEL);
      assert.equal(typeof session.body.summary.processing_time, 'number');
      for (const row of session.body.krt_data) {
        assert.deepEqual(Object.keys(row), [...KRT_COLUMNS]);
        assert.ok((RESOURCE_TYPES as readonly string[]).includes(row['RESOURCE TYPE']));
      }
    }
    const text = real.find((f) => domainExtraction(f).extraction.provider === 'text-pattern')!;
    const textDoi = domainExtraction(text).doi;
    const textTable = await get<DoiTable>(`/api/api/krt/doi/${textDoi}/`);
    assert.equal(textTable.body.summary.provider, 'text-pattern');
    assert.deepEqual(textTable.body.krt_data, domainExtraction(text).extraction.rows);
    // Each row found in text is served with the sentence it came from and its confidence, in row order.
    const evidence = domainExtraction(text).extraction.evidence;
    assert.ok(evidence && evidence.length === textTable.body.krt_data.length, 'the text extractor keeps evidence for every row');
    assert.deepEqual(textTable.body.row_evidence, evidence);
    const textSession = await get<SessionTable>(`/api/krt/${textTable.body.session_id}/`);
    assert.deepEqual(textSession.body.row_evidence, evidence);
    // Each sentence is the paper's own text (letters and digits compared: inline markup splits spacing).
    const squash = (x: string) => x.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
    const paper = squash(textOf(parseXml(fs.readFileSync(text, 'utf8'))));
    for (const e of evidence) {
      assert.ok(e.sentence.length > 0 && e.confidence >= 0 && e.confidence <= 1, JSON.stringify(e));
      assert.ok(paper.includes(squash(e.sentence)), e.sentence);
    }
  });

  itAnswersErrors(
    h,
    BASES.flatMap((base): ErrorCase[] => [
      { name: `${base}: an unknown session`, url: `${base}/00000000-0000-5000-8000-000000000000/`, status: 404, error: /not found/ },
      {
        name: `${base}: a DOI with no session`,
        url: `${base}/doi/10.1101/2099.01.01.000001/`,
        status: 404,
        error: /no extraction session/,
      },
      { name: `${base}: text that is no DOI`, url: `${base}/doi/not-a-doi/`, status: 400, error: /^doi must be a DOI/ },
      { name: `${base}: doi/ without a DOI`, url: `${base}/doi/`, status: 400, error: /^doi is required$/ },
    ]),
  );
});
