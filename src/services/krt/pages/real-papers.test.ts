// Service B's paper page on real papers of the shared corpus, SQLite and PostgreSQL: RRIDs that papers of the store
// write are valid (with the reason the API gives), the checks agree with POST /api/ai/validate-rrid/, and every row
// is checked.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Static } from 'typebox';
import { TABLE_DOI, describeKrtHttp, real } from '../../../../test/support/krt/http.ts';
import { domainExtraction } from '../../../../test/support/krt/corpus.ts';
import { textOf } from '../../../../test/support/pages.ts';
import { parseIdentifierText } from '../extract/identifier.ts';
import type { ValidateResponse } from '../schemas/ai.ts';
import type { DoiTableResponse } from '../schemas/tables.ts';

type DoiTable = Static<typeof DoiTableResponse>;
type Validate = Static<typeof ValidateResponse>;

describeKrtHttp('krt paper page on real papers', (h) => {
  it('RRIDs written by papers of the store are valid, with the reason; reused rows get suggestions or a plain abstention', async () => {
    const table = (await h.get<DoiTable>(`/api/api/krt/doi/${TABLE_DOI}/`)).body;
    const res = await h.app.inject({ url: `/paper?doi=${encodeURIComponent(TABLE_DOI)}` });
    assert.equal(res.statusCode, 200);
    assert.doesNotMatch(res.body, /generated demo article/);
    const valid = (res.body.match(/<span class="badge good"><span aria-hidden="true">✓<\/span> valid<\/span>/g) ?? []).length;
    const rrids = table.krt_data.flatMap((r) => parseIdentifierText(r.IDENTIFIER).filter((p) => p.kind === 'rrid'));
    let apiValid = 0;
    for (const part of rrids)
      if ((await h.post<Validate>('/api/api/ai/validate-rrid/', { rrid: `RRID:${part.value}` })).body.validation.status === 'valid')
        apiValid++;
    assert.ok(apiValid > 0);
    assert.equal(valid, apiValid);
    assert.match(textOf(res.body), /is written by \d+ papers? of the local store/);
    const checked = (res.body.match(/<td class="rrid-cell">/g) ?? []).length;
    assert.equal(checked, table.krt_data.length);
    if (process.env.KRT_PAGE_DUMP) fs.writeFileSync(process.env.KRT_PAGE_DUMP, res.body);
  });

  it("a text-built table's rows show their identifier candidates with probability and links to the papers that wrote them", async () => {
    let shown = 0;
    for (const file of real) {
      const { doi, extraction } = domainExtraction(file);
      if (extraction.provider !== 'text-pattern') continue;
      const table = (await h.get<DoiTable>(`/api/api/krt/doi/${doi}/`)).body;
      const res = await h.app.inject({ url: `/paper?doi=${encodeURIComponent(doi)}` });
      assert.equal(res.statusCode, 200);
      const page = textOf(res.body);
      const lists = [
        ...table.row_evidence!.map((e) => e.identifier_candidates),
        ...table.further_mentions.map((m) => m.identifier_candidates),
      ];
      assert.equal(
        (res.body.match(/<details class="identifier-candidates">/g) ?? []).length,
        lists.filter((l) => l.length > 0).length,
        'one list under each row (or mention) that has candidates',
      );
      for (const c of lists.flat()) {
        shown++;
        assert.ok(page.includes(c.identifier), c.identifier);
        assert.ok(
          page.includes(`probability it is the authors’ identifier: ${Math.round(c.probability * 100)}%`),
          'its probability says what it is',
        );
        assert.ok(res.body.includes(`href="/paper?doi=${encodeURIComponent(c.papers[0])}"`), 'its first paper is linked');
      }
    }
    assert.ok(shown > 0, 'some candidate is shown');
  });
});
