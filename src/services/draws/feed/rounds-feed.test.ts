import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ImportRefusedError, TruncatedSourceError } from '../../../core/import.ts';
import {
  FeedFetchError,
  fetchRoundsFeed,
  jsonTruncation,
  parseRoundsFeed,
  RoundsFeedError,
  roundSortKey,
  sortRoundsChronologically,
} from './rounds-feed.ts';
import { loadSnapshot } from '../../../../test/support/draws/snapshot.ts';

function clone<T>(value: T): T {
  return structuredClone(value);
}

test('the real snapshot parses completely: 389 rounds, typed, raw names kept', (t) => {
  const json = loadSnapshot(t) as { rounds: Record<string, string>[] } | null;
  if (json === null) return;
  const feed = parseRoundsFeed(json);
  assert.deepEqual([feed.total, feed.skipped.length, feed.warnings.length], [389, 0, 0], 'nothing skipped, no warnings');
  const rounds = feed.rounds.map((r) => ({ ...r, poolDistribution: r.poolDistribution! }));
  assert.equal(rounds.length, 389);
  assert.ok(feed.rounds.every((r) => r.poolDistribution !== null && r.programs !== null && r.drawnAt !== null));
  assert.deepEqual(
    rounds.map((r) => r.roundNumber),
    json.rounds.map((r) => r.drawNumber),
    'feed order, nothing dropped',
  );
  assert.deepEqual(
    rounds.map((r) => r.drawName),
    json.rounds.map((r) => r.drawName),
    'raw names kept verbatim',
  );

  const newest = rounds[0];
  assert.equal(newest.roundNumber, '388');
  assert.equal(newest.date, '2025-12-17');
  assert.equal(newest.invitations, 6000);
  assert.equal(newest.crs, 399);
  assert.equal(newest.drawnAt, '2025-12-17T12:26:48Z');
  assert.equal(newest.tieBreakAt, '2025-08-24T23:43:05Z');
  assert.equal(newest.poolDistribution.asOn, '2025-12-14');
  assert.equal(
    newest.url,
    'https://www.canada.ca/en/immigration-refugees-citizenship/corporate/mandate/policies-operational-instructions-agreements/ministerial-instructions/express-entry-rounds/invitations.html?q=388',
  );
  const bands = Object.fromEntries(newest.poolDistribution.bands.map((b) => [b.label, b.candidates]));
  assert.equal(bands['601-1200'], 390);
  assert.equal(bands['451-500'], 68700);
  assert.equal(bands.Total, 237302);
  assert.equal(newest.poolDistribution.total, 237302);

  const lettered = rounds.filter((r) => /[a-z]$/.test(r.roundNumber));
  assert.deepEqual(
    lettered.map((r) => [r.roundNumber, r.roundSortKey]),
    [
      ['91b', 9102],
      ['91a', 9101],
    ],
  );
  const biggest = rounds.find((r) => r.roundNumber === '176')!;
  assert.equal(biggest.invitations, 27332, '"27,332" → 27332');
  assert.equal(biggest.crs, 75);

  // The feed leaves drawCutOff empty for rounds 1–76 (before the tie-breaking rule was published there).
  const withoutCutOff = rounds.filter((r) => r.tieBreakAt === null).map((r) => r.roundNumber);
  assert.equal(withoutCutOff.length, 76);
  assert.ok(withoutCutOff.every((n) => Number(n) <= 76));
  assert.ok(rounds.every((r) => r.tieBreakAt === null || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(r.tieBreakAt)));
  assert.ok(rounds.every((r) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(r.drawnAt!)));
  assert.equal(rounds.find((r) => r.roundNumber === '208')!.tieBreakAt, '2021-10-07T16:38:21Z', 'year supplied from the round');

  // Pool distributions: in the feed from round 214 on (rounds 223, 224, 226, 227 carry zeros); the
  // breakdowns add up except in round 247.
  const published = rounds.filter((r) => r.poolDistribution.published);
  assert.equal(published.length, 171);
  assert.ok(published.every((r) => roundSortKey(r.roundNumber) >= 21400));
  assert.deepEqual(
    rounds.filter((r) => !r.poolDistribution.published && roundSortKey(r.roundNumber) >= 21400).map((r) => r.roundNumber),
    ['227', '226', '224', '223'],
  );
  assert.deepEqual(
    rounds.filter((r) => !r.poolDistribution.consistent).map((r) => r.roundNumber),
    ['247'],
  );
  assert.ok(rounds.every((r) => r.poolDistribution.bands.length === 18));

  const chronological = sortRoundsChronologically(rounds);
  assert.equal(chronological[0].roundNumber, '1');
  assert.equal(chronological.at(-1)!.roundNumber, '388');
  const i = chronological.findIndex((r) => r.roundNumber === '91a');
  assert.equal(chronological[i + 1].roundNumber, '91b');
});

function tinyFeed(): { rounds: Record<string, string>[] } {
  const dd = Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`dd${i + 1}`, '0']));
  return {
    rounds: [
      {
        drawNumber: '2',
        drawDate: '2024-02-01',
        drawDateFull: 'February 1, 2024',
        drawName: 'General',
        drawSize: '1,500',
        drawCRS: '480',
        drawText2: 'All',
        drawDateTime: 'February 1, 2024 at 14:00:00 UTC',
        drawCutOff: 'January 3, 2024 at 10:00:00 UTC',
        drawDistributionAsOn: 'January 30, 2024',
        ...dd,
      },
      {
        drawNumber: '1',
        drawDate: '2024-01-15',
        drawDateFull: 'January 15, 2024',
        drawName: 'Some new category',
        drawSize: '900',
        drawCRS: '470',
        drawText2: 'All',
        drawDateTime: 'January 15, 2024 at 14:00:00 UTC',
        drawCutOff: '',
        drawDistributionAsOn: 'January 14, 2024',
        ...dd,
      },
    ],
  };
}

test('a bad primary field skips its round, naming the round, the field and the raw value', () => {
  assert.equal(parseRoundsFeed(tinyFeed()).rounds.length, 2);
  assert.equal(parseRoundsFeed(JSON.stringify(tinyFeed())).rounds.length, 2, 'text is accepted too');

  const cases: [(f: ReturnType<typeof tinyFeed>) => void, string, string, string][] = [
    [
      (f) => {
        f.rounds[0].drawSize = 'four thousand';
      },
      '2',
      'drawSize',
      'unreadable drawSize',
    ],
    [
      (f) => {
        f.rounds[1].drawCRS = '1300';
      },
      '1',
      'drawCRS',
      'unreadable drawCRS',
    ],
    [
      (f) => {
        delete (f.rounds[1] as Record<string, string>).drawDate;
        delete (f.rounds[1] as Record<string, string>).drawDateFull;
      },
      '1',
      'drawDate',
      'missing drawDate',
    ],
    [
      (f) => {
        f.rounds[0].drawDate = '2024-02-30';
        f.rounds[0].drawDateFull = 'February 30, 2024';
      },
      '2',
      'drawDate',
      'unreadable drawDate',
    ],
    [
      (f) => {
        f.rounds[0].drawNumber = 'x12';
      },
      '#0',
      'drawNumber',
      'unreadable drawNumber',
    ],
    [
      (f) => {
        f.rounds[0].drawName = ' ';
      },
      '2',
      'drawName',
      'missing drawName',
    ],
    [
      (f) => {
        f.rounds[0].drawSize = '0';
      },
      '2',
      'drawSize',
      'unreadable drawSize',
    ],
  ];
  for (const [mutate, round, field, reason] of cases) {
    const feed = clone(tinyFeed());
    mutate(feed);
    const parsed = parseRoundsFeed(feed);
    assert.equal(parsed.rounds.length, 1, `${round}/${field}: the other round is read`);
    assert.equal(parsed.skipped.length, 1, `${round}/${field}`);
    const [skip] = parsed.skipped;
    assert.deepEqual([skip.round, skip.field, skip.reason, skip.duplicate], [round, field, reason, false]);
    assert.match(skip.message, new RegExp(`round ${round.replace('#', '\\#')}, field ${field}`));
  }
  // A second copy of a round: the first is kept; an identical copy is a duplicate, a differing one a skip.
  const twice = clone(tinyFeed());
  twice.rounds.push(clone(twice.rounds[0]), { ...clone(twice.rounds[1]), drawCRS: '471' });
  const parsed = parseRoundsFeed(twice);
  assert.deepEqual(
    parsed.rounds.map((r) => [r.roundNumber, r.crs]),
    [
      ['2', 480],
      ['1', 470],
    ],
  );
  assert.deepEqual(
    parsed.skipped.map((s) => [s.round, s.duplicate, s.roundNumber]),
    [
      ['2', true, null],
      ['1', false, null],
    ],
  );
});

test('a secondary field that cannot be read is null with a warning naming the round and the raw value; the round is kept', () => {
  const feed = clone(tinyFeed());
  feed.rounds[0].drawCutOff = 'sometime in January';
  feed.rounds[0].dd7 = 'n/a';
  feed.rounds[0].drawDateTime = 'February 1, 2024 at 14:00:00 CEST';
  delete (feed.rounds[1] as Record<string, string>).drawText2;
  feed.rounds[1].drawDistributionAsOn = '14/01/2024';
  (feed.rounds[1] as Record<string, unknown>).drawSize = 900; // a number instead of text: read as the number
  const parsed = parseRoundsFeed(feed);
  assert.equal(parsed.skipped.length, 0);
  assert.deepEqual(
    parsed.rounds.map((r) => [r.roundNumber, r.invitations]),
    [
      ['2', 1500],
      ['1', 900],
    ],
  );
  const [two, one] = parsed.rounds;
  assert.equal(two.tieBreakAt, null);
  assert.equal(two.poolDistribution, null, 'one unreadable count: no distribution rather than a wrong one');
  assert.equal(two.drawnAt, null);
  assert.equal(one.programs, null);
  assert.equal(one.poolDistribution!.asOn, null);
  assert.equal(one.poolDistribution!.bands.length, 18);
  assert.deepEqual(
    parsed.warnings.map((w) => [w.round, w.field]),
    [
      ['2', 'drawDateTime'],
      ['2', 'drawCutOff'],
      ['2', 'dd7'],
      ['1', 'drawText2'],
      ['1', 'drawDistributionAsOn'],
    ],
  );
  assert.match(parsed.warnings[1].message, /^round 2: drawCutOff: not a timestamp .*"sometime in January".*; stored as null$/);
  assert.match(parsed.warnings[2].message, /"n\/a"/);
  // An empty cut-off (rounds before late 2017) or link is normal: null without a warning.
  const quiet = clone(tinyFeed());
  quiet.rounds[0].drawCutOff = '';
  assert.deepEqual(parseRoundsFeed(quiet).warnings, []);
});

test("the live feed's spellings are read: ordinal days, Sept., no at, odd spaces, zone words", () => {
  const feed = clone(tinyFeed());
  Object.assign(feed.rounds[0], {
    drawCutOff: 'January 3rd 2024 at 10:00:00 UTC',
    drawDateTime: 'Feb.\u00a01st,  2024   14:00:00\u202fGMT',
    drawDistributionAsOn: 'Jan 30th, 2024',
  });
  Object.assign(feed.rounds[1], {
    drawDate: ' 2024-01-15 ',
    drawCutOff: 'Sept. 21st 2023 9:05:00 p.m. EDT',
    drawDateTime: 'Monday, January 15th, 2024 at 9:00:00 AM Eastern Time',
    drawSize: '9\u00a0000',
  });
  const parsed = parseRoundsFeed(feed);
  assert.deepEqual([parsed.skipped, parsed.warnings], [[], []]);
  const [two, one] = parsed.rounds;
  assert.equal(two.tieBreakAt, '2024-01-03T10:00:00Z');
  assert.equal(two.drawnAt, '2024-02-01T14:00:00Z');
  assert.equal(two.poolDistribution!.asOn, '2024-01-30');
  assert.equal(one.date, '2024-01-15');
  assert.equal(one.tieBreakAt, '2023-09-22T01:05:00Z', 'EDT is UTC − 4');
  assert.equal(one.drawnAt, '2024-01-15T14:00:00Z', 'Eastern time in January is EST, UTC − 5');
  assert.equal(one.invitations, 9000);
});

test('only a document that is not the feed is refused; one cut short is refused as truncated, naming the line', () => {
  assert.throws(
    () => parseRoundsFeed({ items: [] }),
    (e: unknown) => e instanceof RoundsFeedError && /no "rounds" array/.test(e.message),
  );
  assert.throws(
    () => parseRoundsFeed({ rounds: [] }),
    (e: unknown) => e instanceof RoundsFeedError && /"rounds" array is empty/.test(e.message),
  );
  assert.throws(
    () => parseRoundsFeed('{not json'),
    (e: unknown) => e instanceof RoundsFeedError && /not JSON/.test(e.message),
  );
  assert.throws(() => parseRoundsFeed('<html>maintenance</html>'), RoundsFeedError);
  const text = JSON.stringify(tinyFeed(), null, 2);
  for (const cut of [text.length - 1, text.length - 10, Math.floor(text.length / 2), 30]) {
    assert.throws(
      () => parseRoundsFeed(text.slice(0, cut), 'feed.json'),
      (e: unknown) =>
        e instanceof TruncatedSourceError &&
        e instanceof ImportRefusedError &&
        new RegExp(
          `^feed\\.json is truncated: line ${text.slice(0, cut).trimEnd().split('\n').length}: the JSON document ends before it closes`,
        ).test(e.message),
      `cut at ${cut}`,
    );
  }
  assert.equal(jsonTruncation('{"a": 1}}', new Error('Unexpected non-whitespace character after JSON at position 8')), null);
});

async function withServer(handler: Parameters<typeof createServer>[1], run: (base: string) => Promise<void>): Promise<void> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await run(`http://127.0.0.1:${port}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

test('fetchRoundsFeed downloads and parses, and explains failures', async () => {
  const body = JSON.stringify(tinyFeed());
  await withServer(
    (req, res) => {
      if (req.url === '/feed.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      } else if (req.url === '/slow.json') {
        setTimeout(() => res.end(body), 2_000).unref();
      } else if (req.url === '/html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>maintenance</html>');
      } else {
        res.writeHead(503);
        res.end();
      }
    },
    async (base) => {
      const fetched = await fetchRoundsFeed(`${base}/feed.json`, { timeoutMs: 5_000 });
      assert.equal(fetched.feed.rounds.length, 2);
      assert.equal(fetched.body, body);
      await assert.rejects(
        fetchRoundsFeed(`${base}/down`, { timeoutMs: 5_000 }),
        (e: unknown) => e instanceof FeedFetchError && /HTTP 503/.test(e.message),
      );
      await assert.rejects(
        fetchRoundsFeed(`${base}/slow.json`, { timeoutMs: 100 }),
        (e: unknown) => e instanceof FeedFetchError && /within 100 ms/.test(e.message),
      );
      await assert.rejects(
        fetchRoundsFeed(`${base}/html`, { timeoutMs: 5_000 }),
        (e: unknown) => e instanceof FeedFetchError && /not JSON/.test(e.message),
      );
    },
  );
  // A port nobody listens on stands in for being offline.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  await assert.rejects(
    fetchRoundsFeed(`http://127.0.0.1:${port}/feed.json`, { timeoutMs: 5_000 }),
    (e: unknown) => e instanceof FeedFetchError && /Could not reach/.test(e.message) && /ECONNREFUSED/.test(e.message),
  );
});
