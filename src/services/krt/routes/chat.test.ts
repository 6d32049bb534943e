// The table-building chat over HTTP, on SQLite and PostgreSQL: one session keeps its table across messages, asks
// for what is missing, exports, and expires after inactivity; then the table of error cases.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import Papa from 'papaparse';
import type { Static } from 'typebox';
import { describeKrtHttp, itAnswersErrors } from '../../../../test/support/krt/http.ts';
import type { KrtTables } from '../tables.ts';
import type { ChatResponse } from '../schemas/chat.ts';

type Chat = Static<typeof ChatResponse>;

describeKrtHttp('krt chat', (h) => {
  const { get, post } = h;

  it('chat: one session keeps its table across messages, asks for what is missing, exports, and expires after inactivity', async () => {
    const say = async (message: string, session_id?: string) => {
      const res = await post<Chat>('/api/api/ai/chat/', session_id ? { message, session_id } : { message });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };
    const first = await say('Add rabbit anti-GFP antibody from Abcam, catalog ab290');
    assert.deepEqual(Object.keys(first), [
      'success',
      'session_id',
      'response',
      'intent',
      'krt_entries',
      'needs_clarification',
      'clarifications',
      'response_time',
      'export',
    ]);
    assert.match(first.session_id, /^[0-9a-f-]{36}$/);
    assert.equal(first.intent, 'add_resource');
    assert.deepEqual(
      first.krt_entries.map((r) => [r['RESOURCE TYPE'], r.SOURCE, r.IDENTIFIER.split(';')[0]]),
      [['Antibody', 'Abcam', 'Cat# ab290']],
    );
    const id = first.session_id;
    const ask = await say('add an antibody', id);
    assert.equal(ask.needs_clarification, true);
    assert.ok(ask.clarifications.length >= 1);
    assert.equal(ask.krt_entries.length, 1, 'nothing added without a name');
    const answered = await say('mouse anti-FLAG M2', id);
    assert.equal(answered.intent, 'clarification_answer');
    assert.equal(answered.krt_entries.length, 2);
    await say('Sigma-Aldrich', id);
    const done = await say('F1804', id);
    assert.equal(done.krt_entries[1].IDENTIFIER, 'Cat# F1804');
    const removed = await say('remove row 1', id);
    assert.equal(removed.intent, 'remove_resource');
    assert.deepEqual(
      removed.krt_entries.map((r) => r['RESOURCE NAME']),
      ['Mouse anti-FLAG M2'],
    );
    const exported = await say('export as csv', id);
    assert.equal(exported.intent, 'export');
    assert.deepEqual(exported.export, { format: 'csv', url: `/api/export/${id}/csv/` });
    const csv = await get(exported.export!.url);
    assert.equal(csv.status, 200);
    assert.deepEqual(Papa.parse<string[]>(csv.text, { skipEmptyLines: true }).data.slice(1), [
      ['Antibody', 'Mouse anti-FLAG M2', 'Sigma-Aldrich', 'Cat# F1804', 'reuse', ''],
    ]);
    // Another session does not see this table.
    assert.equal((await say('list resources')).krt_entries.length, 0);
    // 24 hours without a message: the session has expired, the id starts an empty table.
    await h.t.db.kysely
      .withTables<KrtTables>()
      .updateTable('krt_chat_sessions')
      .set({ updated_at: new Date(Date.now() - 25 * 3600 * 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    assert.equal((await say('list resources', id)).krt_entries.length, 0);
  });

  itAnswersErrors(h, [
    { name: 'an empty message', url: '/api/ai/chat/', payload: { message: '' }, status: 400, error: /^message must not be empty$/ },
    {
      name: 'a session id with other characters',
      url: '/api/ai/chat/',
      payload: { message: 'hi', session_id: 'bad id!' },
      status: 400,
      error: /^session_id /,
    },
  ]);
});
