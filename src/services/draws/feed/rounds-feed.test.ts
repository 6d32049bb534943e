import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  FeedFetchError,
  fetchRoundsFeed,
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
  const rounds = parseRoundsFeed(json);
  assert.equal(rounds.length, 389);
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
  assert.ok(rounds.every((r) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(r.drawnAt)));
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

test('a bad or missing field is an error naming the round and the field', () => {
  assert.equal(parseRoundsFeed(tinyFeed()).length, 2);
  assert.equal(parseRoundsFeed(JSON.stringify(tinyFeed())).length, 2, 'text is accepted too');

  const cases: [(f: ReturnType<typeof tinyFeed>) => void, string, string][] = [
    [
      (f) => {
        f.rounds[0].drawSize = 'four thousand';
      },
      '2',
      'drawSize',
    ],
    [
      (f) => {
        f.rounds[1].drawCRS = '1300';
      },
      '1',
      'drawCRS',
    ],
    [
      (f) => {
        delete (f.rounds[1] as Record<string, string>).drawDate;
      },
      '1',
      'drawDate',
    ],
    [
      (f) => {
        f.rounds[0].drawDate = '2024-02-30';
      },
      '2',
      'drawDate',
    ],
    [
      (f) => {
        f.rounds[0].drawCutOff = 'sometime in January';
      },
      '2',
      'drawCutOff',
    ],
    [
      (f) => {
        f.rounds[0].dd7 = '';
      },
      '2',
      'dd7',
    ],
    [
      (f) => {
        f.rounds[0].drawNumber = 'x12';
      },
      'x12',
      'drawNumber',
    ],
    [
      (f) => {
        f.rounds[1].drawNumber = '2';
      },
      '2',
      'drawNumber',
    ],
    [
      (f) => {
        (f.rounds[0] as Record<string, unknown>).drawSize = 1500;
      },
      '2',
      'drawSize',
    ],
    [
      (f) => {
        f.rounds[0].drawSize = '0';
      },
      '2',
      'drawSize',
    ],
  ];
  for (const [mutate, round, field] of cases) {
    const feed = clone(tinyFeed());
    mutate(feed);
    assert.throws(
      () => parseRoundsFeed(feed),
      (error: unknown) => {
        assert.ok(error instanceof RoundsFeedError);
        assert.ok(
          error.problems.some((p) => p.round === round && p.field === field),
          JSON.stringify(error.problems),
        );
        assert.match(error.message, new RegExp(`round ${round}, field ${field}`));
        return true;
      },
      `${round}/${field}`,
    );
  }
  assert.throws(() => parseRoundsFeed({ items: [] }), /no "rounds" array/);
  assert.throws(() => parseRoundsFeed('{not json'), /not JSON/);
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
      assert.equal(fetched.rounds.length, 2);
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
