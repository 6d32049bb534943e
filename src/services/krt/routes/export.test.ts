// Exports over HTTP, on SQLite and PostgreSQL: json, csv and excel with the contract's file names, read back
// (JSON, papaparse, read-excel-file) at both addresses; then the table of error cases.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import Papa from 'papaparse';
import readXlsxFile from 'read-excel-file/node';
import type { Static } from 'typebox';
import { TABLE_DOI, describeKrtHttp, itAnswersErrors } from '../../../../test/support/krt/http.ts';
import type { ErrorCase, KrtHttp } from '../../../../test/support/krt/http.ts';
import { guardFormula } from '../../../core/export/index.ts';
import { KRT_COLUMNS, TABLE_EXTRACTOR_MODEL } from '../extract/index.ts';
import type { ExportJson } from '../schemas/export.ts';
import type { DoiTableResponse } from '../schemas/tables.ts';

type DoiTable = Static<typeof DoiTableResponse>;
type ExportDocument = Static<typeof ExportJson> & { is_demo: boolean };

const BASES = ['/api/export', '/export'];
const tableSession = async (h: KrtHttp) => (await h.get<DoiTable>(`/api/api/krt/doi/${TABLE_DOI}/`)).body.session_id;

describeKrtHttp('krt exports', (h) => {
  const { get } = h;

  it("exports json, csv and excel with the contract's file names, read back", async () => {
    const table = (await get<DoiTable>(`/api/api/krt/doi/${TABLE_DOI}/`)).body;
    const id = table.session_id;
    for (const base of BASES) {
      const json = await get<ExportDocument>(`${base}/${id}/json/`);
      assert.equal(json.status, 200);
      assert.match(String(json.headers['content-type']), /^application\/json/);
      assert.equal(json.headers['content-disposition'], `attachment; filename="krt_${id}.json"`);
      assert.ok(json.text.includes('\n  "session_id"'), 'pretty-printed');
      assert.deepEqual(Object.keys(json.body), [
        'title',
        'session_id',
        'doi',
        'processing_date',
        'provider',
        'model',
        'resources_found',
        'krt_data',
        'is_demo',
      ]);
      assert.deepEqual(
        [json.body.session_id, json.body.doi, json.body.provider, json.body.model, json.body.resources_found],
        [id, TABLE_DOI, 'jats-table', TABLE_EXTRACTOR_MODEL, table.krt_data.length],
      );
      assert.deepEqual(json.body.krt_data, table.krt_data);

      const csv = await get(`${base}/${id}/csv`);
      assert.match(String(csv.headers['content-type']), /^text\/csv/);
      assert.equal(csv.headers['content-disposition'], `attachment; filename="krt_${id}.csv"`);
      const parsed = Papa.parse<string[]>(csv.text, { header: false, skipEmptyLines: true }).data;
      assert.deepEqual(parsed[0], [...KRT_COLUMNS]);
      assert.deepEqual(
        parsed.slice(1),
        table.krt_data.map((r) => KRT_COLUMNS.map((c) => guardFormula(r[c]))),
      );

      const xlsx = await get(`${base}/${id}/excel/`);
      assert.equal(xlsx.headers['content-type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      assert.equal(xlsx.headers['content-disposition'], `attachment; filename="krt_${id}.xlsx"`);
      const [sheet] = await readXlsxFile(xlsx.raw, { trim: false });
      const rows = sheet.data.map((r: unknown[]) => r.map((c) => (c === null || c === undefined ? '' : String(c))));
      const header = rows.findIndex((r: string[]) => r.join('|') === KRT_COLUMNS.join('|'));
      assert.ok(header > 0, 'title rows, then the header');
      assert.equal(rows[0][0], 'Key Resources Table');
      assert.ok(rows.slice(0, header).some((r: string[]) => r[0] === 'DOI' && r[1] === TABLE_DOI));
      assert.deepEqual(
        rows.slice(header + 1),
        table.krt_data.map((r) => KRT_COLUMNS.map((c) => r[c])),
      );
    }
  });

  itAnswersErrors(
    h,
    BASES.flatMap((base): ErrorCase[] => [
      {
        name: `${base}: a format other than json, csv and excel`,
        url: async () => `${base}/${await tableSession(h)}/pdf/`,
        status: 400,
        error: /^format must be one of: json, csv, excel/,
      },
      { name: `${base}: an unknown session`, url: `${base}/no-such-session/csv/`, status: 404, error: /not found/ },
    ]),
  );
});
