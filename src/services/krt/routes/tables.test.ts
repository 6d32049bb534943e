// Key resources tables by session and by DOI over HTTP, on SQLite and PostgreSQL: both addresses, DOI slashes
// raw or %2F, the author table as the best table, the text extractor's table; then the table of error cases.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Static } from 'typebox';
import { TABLE_DOI, describeKrtHttp, itAnswersErrors, real, realFile } from '../../../../test/support/krt/http.ts';
import type { ErrorCase } from '../../../../test/support/krt/http.ts';
import { domainExtraction } from '../../../../test/support/krt/corpus.ts';
import { KRT_COLUMNS, RESOURCE_TYPES, TABLE_EXTRACTOR_MODEL, splitTable } from '../extract/index.ts';
import type { RowEvidence } from '../extract/index.ts';
import { shippedFillModel, shippedInclusion } from '../extract/learned/shipped.ts';
import { parseIdentifierText } from '../extract/identifier.ts';
import { CANDIDATE_FLOOR } from '../rrid/fill-model.ts';
import type { KrtTables } from '../tables.ts';
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
        assert.deepEqual(Object.keys(res.body), [
          'success',
          'doi',
          'session_id',
          'krt_data',
          'row_evidence',
          'further_mentions',
          'summary',
          'article_info',
        ]);
        assert.equal(res.body.doi, TABLE_DOI);
        assert.deepEqual(res.body.krt_data, expected.rows);
        assert.equal(res.body.row_evidence, null, "an author's table has no sentence evidence");
        assert.deepEqual(res.body.further_mentions, [], "every row of an author's table is in the table");
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
        'further_mentions',
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
  });

  // A paper without an author table, its extraction as the importer stored it, and the served rule split.
  const textPaper = () => {
    const file = real.find((f) => domainExtraction(f).extraction.provider === 'text-pattern')!;
    const { doi, extraction } = domainExtraction(file);
    return { file, doi, extraction, split: splitTable(extraction.rows, extraction.evidence) };
  };
  const served = (evidence: readonly RowEvidence[]) =>
    evidence.map(({ sentence, confidence, inclusion_probability }) => ({ sentence, confidence, inclusion_probability }));
  /** Served evidence or mentions without their identifier candidates (tested apart). */
  const withoutCandidates = <T extends { identifier_candidates: unknown }>(items: readonly T[]) =>
    items.map(({ identifier_candidates: _, ...rest }) => rest);

  it('a table found in the text: the key resources table, each row with its evidence, and the further mentions apart', async () => {
    const { file, doi, extraction, split } = textPaper();
    const textTable = await get<DoiTable>(`/api/api/krt/doi/${doi}/`);
    assert.equal(textTable.body.summary.provider, 'text-pattern');
    const evidence = extraction.evidence;
    assert.ok(evidence && evidence.length === extraction.rows.length, 'the text extractor keeps evidence for every row');
    const inclusion = shippedInclusion();
    assert.ok(inclusion, 'the row-inclusion model ships with the extractor it was fitted on');
    // The rows the model keeps are the table, in the extractor's order, with their evidence; the others are mentions.
    assert.ok(split.mentions.length > 0, 'the model leaves some rows of this paper out of its table');
    assert.deepEqual(textTable.body.krt_data, split.rows);
    assert.deepEqual(withoutCandidates(textTable.body.row_evidence!), served(split.evidence!));
    assert.deepEqual(withoutCandidates(textTable.body.further_mentions), split.mentions);
    assert.equal(textTable.body.summary.total_resources, split.rows.length, 'the summary counts the table, not its mentions');
    // No row is lost: table and mentions together are every row the extractor found, each once.
    const positions = [...textTable.body.further_mentions.map((m) => m.position)];
    assert.equal(textTable.body.krt_data.length + positions.length, extraction.rows.length);
    for (const m of textTable.body.further_mentions) {
      assert.deepEqual(m.row, extraction.rows[m.position]);
      assert.ok(m.inclusion_probability !== null && m.inclusion_probability < inclusion.threshold, JSON.stringify(m));
    }
    const best = Math.max(...evidence.map((e) => e.inclusion_probability!));
    assert.ok(
      textTable.body.row_evidence!.some((e) => e.inclusion_probability === best),
      'the best row of a paper is always in its table',
    );
    const textSession = await get<SessionTable>(`/api/krt/${textTable.body.session_id}/`);
    assert.deepEqual(textSession.body.row_evidence, textTable.body.row_evidence);
    assert.deepEqual(textSession.body.further_mentions, textTable.body.further_mentions);
    // Each sentence is the paper's own text (letters and digits compared: inline markup splits spacing).
    const squash = (x: string) => x.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
    const paper = squash(textOf(parseXml(fs.readFileSync(file, 'utf8'))));
    for (const e of evidence) {
      assert.ok(e.sentence.length > 0 && e.confidence >= 0 && e.confidence <= 1, JSON.stringify(e));
      assert.ok(paper.includes(squash(e.sentence)), e.sentence);
    }
    // The exports are the key resources table.
    const csv = await get(`/api/export/${textTable.body.session_id}/csv/`);
    assert.equal(csv.status, 200);
    assert.equal(csv.text.trim().split(/\r?\n/).length, 1 + split.rows.length, 'a header and the rows of the table');
    const json = await get<{ resources_found: number; krt_data: unknown[] }>(`/api/export/${textTable.body.session_id}/json/`);
    assert.deepEqual(json.body.krt_data, split.rows);
  });

  it("a text-built table's empty identifier cells list candidates that stored papers wrote; filled kinds and author tables none", async () => {
    assert.ok(shippedFillModel(), 'the fill model ships with the extractor it was fitted on');
    const textDois = real
      .map((f) => domainExtraction(f))
      .filter((x) => x.extraction.provider === 'text-pattern')
      .map((x) => x.doi);
    assert.ok(textDois.length > 0);
    const key = (id: string) =>
      id
        .replace(/^RRID:\s*/i, '')
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, '');
    const kinds = (row: { IDENTIFIER: string; SOURCE: string }) =>
      new Set(parseIdentifierText(row.IDENTIFIER, { source: row.SOURCE }).map((p) => p.kind));
    const tableOf = new Map<string, DoiTable>();
    const table = async (doi: string) => {
      if (!tableOf.has(doi)) tableOf.set(doi, (await get<DoiTable>(`/api/api/krt/doi/${doi}/`)).body);
      return tableOf.get(doi)!;
    };
    let listed = 0;
    for (const doi of textDois) {
      const body = await table(doi);
      const rows = [
        ...body.krt_data.map((row, i) => ({ row, candidates: body.row_evidence![i].identifier_candidates })),
        ...body.further_mentions.map((m) => ({ row: m.row, candidates: m.identifier_candidates })),
      ];
      for (const { row, candidates } of rows) {
        const has = kinds(row);
        for (const c of candidates) {
          listed++;
          assert.ok(!has.has(c.kind), `a row that carries an identifier of kind ${c.kind} lists none: ${JSON.stringify(row)}`);
          assert.ok(c.probability >= CANDIDATE_FLOOR && c.probability <= 1);
          assert.equal(c.paper_count, c.papers.length, 'the test store holds fewer than ten papers per identifier');
          assert.ok(c.agreeing <= c.total);
          assert.ok(!c.papers.includes(doi), `${doi} is not evidence for its own row: ${JSON.stringify(c)}`);
          // Its papers are stored papers whose own tables write it, and one of them writes it verbatim.
          let verbatim = false;
          for (const paper of c.papers) {
            const theirs = await table(paper);
            const written = [...theirs.krt_data, ...theirs.further_mentions.map((m) => m.row)].some((r) =>
              parseIdentifierText(r.IDENTIFIER, { source: r.SOURCE }).some((p) => p.kind === c.kind && key(p.value) === key(c.identifier)),
            );
            assert.ok(written, `${paper} does not write ${c.identifier}`);
            const text = fs.readFileSync(realFile(paper.split('/')[1]), 'utf8');
            if (text.toLowerCase().includes(c.identifier.replace(/^RRID:/, '').toLowerCase())) verbatim = true;
          }
          assert.ok(verbatim, `${c.identifier} is written verbatim by one of its papers`);
        }
        for (let i = 1; i < candidates.length; i++) assert.ok(candidates[i - 1].probability >= candidates[i].probability);
      }
    }
    assert.ok(listed > 0, 'some empty cell of the text-built tables lists a candidate');
    // An author's table lists none: its rows carry no evidence object.
    const authors = await get<DoiTable>(`/api/api/krt/doi/${TABLE_DOI}/`);
    assert.equal(authors.body.row_evidence, null);
    assert.ok(!authors.text.includes('identifier_candidates'));
  });

  it('a row stored before its inclusion was kept (no value in the new columns) is served in the table', async () => {
    const { doi, extraction } = textPaper();
    const k = h.t.db.kysely.withTables<KrtTables>();
    const { session_id } = (await get<DoiTable>(`/api/api/krt/doi/${doi}/`)).body;
    const before = await k
      .selectFrom('krt_session_rows')
      .select(['position', 'inclusion_probability', 'in_table'])
      .where('session_id', '=', session_id)
      .execute();
    await k
      .updateTable('krt_session_rows')
      .set({ inclusion_probability: null, in_table: null })
      .where('session_id', '=', session_id)
      .execute();
    try {
      // Addresses not asked before, so that no cached answer stands in for the stored rows.
      const old = await get<SessionTable>(`/api/api/krt/${session_id}`);
      assert.equal(old.status, 200);
      assert.deepEqual(old.body.krt_data, extraction.rows, 'every row in the table');
      assert.deepEqual(old.body.further_mentions, []);
      assert.ok(old.body.row_evidence!.every((e) => e.inclusion_probability === null));
      const byDoi = await get<DoiTable>(`/api/krt/doi/${encodeURIComponent(doi)}`);
      assert.deepEqual(byDoi.body.krt_data, extraction.rows);
    } finally {
      for (const r of before)
        await k
          .updateTable('krt_session_rows')
          .set({ inclusion_probability: r.inclusion_probability, in_table: r.in_table })
          .where('session_id', '=', session_id)
          .where('position', '=', r.position)
          .execute();
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
