// Extraction over HTTP (admin), on SQLite and PostgreSQL: the same file gives the same session; the token rules
// and the other refusals in the table of error cases; 404 on a server without an admin token.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import { TABLE_DOI, describeKrtHttp, itAnswersErrors } from '../../../../test/support/krt/http.ts';
import type { ExtractResponse } from '../schemas/extraction.ts';
import type { DoiTableResponse } from '../schemas/tables.ts';

type Extract = Static<typeof ExtractResponse>;
type DoiTable = Static<typeof DoiTableResponse>;

const url = '/api/api/krt/extract/';
const admin = { authorization: 'Bearer secret-admin' };

describeKrtHttp('krt extraction', (h) => {
  it('POST /api/krt/extract/ with the admin token: the same file gives the same session', async () => {
    const before_ = (await h.get<DoiTable>(`/api/krt/doi/${TABLE_DOI}/`)).body.session_id;
    const res = await h.request<Extract>({
      method: 'POST',
      url: '/api/krt/extract/',
      payload: { doi: `doi:${TABLE_DOI}` },
      headers: admin,
    });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.sessions.map((s) => [s.session_id, s.change, s.provider]),
      [[before_, 'unchanged', 'jats-table']],
    );
  });

  itAnswersErrors(h, [
    { name: 'without a token', url, payload: { doi: TABLE_DOI }, status: 401, error: /admin token is required/ },
    { name: 'with a wrong token', url, payload: { doi: TABLE_DOI }, headers: { authorization: 'Bearer nope' }, status: 403 },
    {
      name: 'a DOI not in the store',
      url,
      payload: { doi: '10.1101/2099.01.01.000001' },
      headers: admin,
      status: 404,
      error: /not in the local store/,
    },
    { name: 'text that is no DOI', url, payload: { doi: 'x' }, headers: admin, status: 400 },
    {
      name: 'the language model when none is configured',
      url,
      payload: { doi: TABLE_DOI, provider: 'llm' },
      headers: admin,
      status: 400,
      error: /no language-model provider is configured/,
    },
  ]);
});

describeKrtHttp(
  'krt without an admin token',
  (h) => {
    it('POST /api/krt/extract/ answers 404: extraction over HTTP is not enabled', async () => {
      const res = await h.request({ method: 'POST', url, payload: { doi: TABLE_DOI }, headers: { authorization: 'Bearer anything' } });
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, {
        success: false,
        error: 'extraction over HTTP is not enabled on this server (set PDI_KRT_ADMIN_TOKEN to enable it)',
      });
    });
  },
  { data: 'none', env: { PDI_KRT_ADMIN_TOKEN: '' } },
);
