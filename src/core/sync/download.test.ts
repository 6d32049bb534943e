// The download of a source file against a local server that misbehaves on demand: conditional requests, retries
// with backoff on 5xx and broken connections (never on 4xx), resuming with Range, size and type limits, timeouts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Random } from '../random.ts';
import { download, redactUrl } from './download.ts';
import type { DownloadError, DownloadOptions } from './download.ts';
import { startSourceServer } from '../../../test/support/sync/source-server.ts';
import type { SourceServer } from '../../../test/support/sync/source-server.ts';

const random = new Random(21);
const body = Buffer.from(Array.from({ length: 300_000 }, () => random.int(0, 255)));
const sha = createHash('sha256').update(body).digest('hex');

let server: SourceServer;
let dir: string;
before(async () => {
  server = await startSourceServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-download-'));
});
after(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

let n = 0;
function options(p: string, extra: Partial<DownloadOptions> = {}): DownloadOptions {
  return {
    url: server.url(p),
    destination: path.join(dir, `file-${++n}`),
    maxBytes: 10_000_000,
    contentTypes: ['application/json'],
    headersMs: 2000,
    idleMs: 2000,
    retries: 3,
    baseDelayMs: 5,
    maxDelayMs: 20,
    random: new Random(1),
    ...extra,
  };
}
const requestsOf = (p: string) => server.requests.filter((r) => r.path === p);

describe('download', () => {
  it('writes the body with its checksum and validators; the same request with them is a 304', async () => {
    server.put('/a.json', { body, contentType: 'application/json', lastModified: 'Wed, 17 Dec 2025 10:00:00 GMT' });
    const first = await download(options('/a.json'));
    assert.equal(first.status, 'downloaded');
    if (first.status !== 'downloaded') return;
    assert.equal(first.sha256, sha);
    assert.equal(first.bytes, body.length);
    assert.deepEqual(fs.readFileSync(first.file), body);
    assert.match(first.etag ?? '', /^"[0-9a-f]{40}"$/);
    const second = await download(options('/a.json', { validators: { etag: first.etag, lastModified: first.lastModified } }));
    assert.equal(second.status, 'not-modified');
    const last = requestsOf('/a.json').at(-1)!;
    assert.equal(last.headers['if-none-match'], first.etag);
    assert.equal(last.headers['if-modified-since'], 'Wed, 17 Dec 2025 10:00:00 GMT');
    assert.equal(last.headers['accept-encoding'], 'identity');
  });

  it('retries a 500 and a 503 (Retry-After honoured), then succeeds', async () => {
    server.put('/b.json', { body, contentType: 'application/json' });
    server.fault('/b.json', { status: 500 }, { status: 503, retryAfter: '0' });
    const retries: string[] = [];
    const result = await download(options('/b.json', { onRetry: (i) => retries.push(i.reason) }));
    assert.equal(result.status, 'downloaded');
    assert.equal(result.attempts, 3);
    assert.deepEqual(retries, ['HTTP 500 Internal Server Error', 'HTTP 503 Service Unavailable']);
  });

  it('never retries a 4xx, and the error names the address and the status', async () => {
    const before = requestsOf('/missing.json').length;
    await assert.rejects(download(options('/missing.json')), (error: DownloadError) => {
      assert.equal(error.status, 404);
      assert.equal(error.attempts, 1);
      assert.match(
        error.message,
        new RegExp(`GET ${server.url('/missing.json').replace(/[.]/g, '\\.')}: HTTP 404 Not Found; nothing was imported`),
      );
      return true;
    });
    assert.equal(requestsOf('/missing.json').length - before, 1);
  });

  it('gives up after the retries on a server that keeps failing, saying how many attempts', async () => {
    server.put('/c.json', { body, contentType: 'application/json' });
    server.fault('/c.json', { status: 502 }, { status: 502 }, { status: 502 }, { status: 502 });
    await assert.rejects(download(options('/c.json')), /HTTP 502 Bad Gateway \(after 4 attempts\)/);
  });

  it('resumes a body cut short with Range/If-Range and checks the whole', async () => {
    server.put('/d.json', { body, contentType: 'application/json' });
    server.fault('/d.json', { cutAfter: 100_000 });
    const result = await download(options('/d.json'));
    assert.equal(result.status, 'downloaded');
    if (result.status !== 'downloaded') return;
    assert.equal(result.sha256, sha);
    assert.equal(result.attempts, 2);
    assert.ok(result.resumedBytes > 0 && result.resumedBytes <= 200_000, `resumed ${result.resumedBytes}`);
    const resumed = requestsOf('/d.json').at(-1)!;
    assert.match(String(resumed.headers.range), /^bytes=\d+-$/);
    assert.equal(resumed.status, 206);
    assert.equal(resumed.headers['if-range'], result.etag);
  });

  it('starts again from the first byte where the server offers no ranges', async () => {
    server.put('/e.json', { body, contentType: 'application/json', ranges: false });
    server.fault('/e.json', { cutAfter: 100_000 });
    const result = await download(options('/e.json'));
    assert.equal(result.status, 'downloaded');
    if (result.status !== 'downloaded') return;
    assert.equal(result.sha256, sha);
    assert.equal(result.resumedBytes, 0);
    assert.equal(requestsOf('/e.json').at(-1)!.headers.range, undefined);
  });

  it('fails after its retries when the body is always cut short', async () => {
    server.put('/f.json', { body, contentType: 'application/json', ranges: false });
    server.fault('/f.json', { cutAfter: 1000 }, { cutAfter: 1000 }, { cutAfter: 1000 }, { cutAfter: 1000 });
    await assert.rejects(download(options('/f.json')), /the connection broke after 1000 bytes.*\(after 4 attempts\)/);
  });

  it('refuses an HTML page served instead of the file, without retrying', async () => {
    server.put('/g.json', { body, contentType: 'application/json' });
    server.fault('/g.json', { contentType: 'text/html; charset=utf-8' });
    const before = requestsOf('/g.json').length;
    await assert.rejects(download(options('/g.json')), /the answer is text\/html, not the file expected \(application\/json\)/);
    assert.equal(requestsOf('/g.json').length - before, 1);
  });

  it('refuses a file over the size limit, by its Content-Length and by its bytes', async () => {
    server.put('/h.json', { body, contentType: 'application/json' });
    await assert.rejects(download(options('/h.json', { maxBytes: 1000 })), /the file is 300000 bytes, more than the limit of 1000/);
    server.fault('/h.json', { cutAfter: 250_000, chunked: true });
    await assert.rejects(download(options('/h.json', { maxBytes: 200_000 })), /larger than the limit of 200000 bytes/);
  });

  it('retries a server that stalls past the timeout, and accepts a slow body that keeps coming', async () => {
    server.put('/i.json', { body, contentType: 'application/json' });
    server.fault('/i.json', { stallMs: 600 }, { chunkDelayMs: 30, chunkBytes: 50_000 });
    const retries: string[] = [];
    const result = await download(options('/i.json', { headersMs: 200, idleMs: 200, onRetry: (i) => retries.push(i.reason) }));
    assert.equal(result.status, 'downloaded');
    assert.deepEqual(retries, ['no response within 0.2 s']);
    server.fault('/i.json', { chunkDelayMs: 500, chunkBytes: 100_000 }, { status: 404 });
    await assert.rejects(download(options('/i.json', { idleMs: 200 })), /HTTP 404/);
    assert.equal(requestsOf('/i.json').at(-2)!.status, 200); // the stalled body was given up and asked for again
  });

  it('starts again from the first byte when a resumed part names another version (ETag or Last-Modified)', async () => {
    const next = Buffer.from(body.map((b) => 255 - b));
    const nextSha = createHash('sha256').update(next).digest('hex');
    for (const [p, validators] of [
      ['/j.json', {}],
      ['/k.json', { etag: null, lastModified: 'Wed, 17 Dec 2025 10:00:00 GMT' }],
    ] as const) {
      server.put(p, { body, contentType: 'application/json', ...validators });
      server.fault(p, { cutAfter: 100_000 });
      const retries: string[] = [];
      const result = await download(
        options(p, {
          onRetry: (info) => {
            retries.push(info.reason);
            // The publisher replaces the file between the cut and the resume, and answers the range anyway.
            if (retries.length === 1) {
              server.put(p, {
                body: next,
                contentType: 'application/json',
                ...(validators.etag === null ? { etag: null, lastModified: 'Thu, 18 Dec 2025 10:00:00 GMT' } : {}),
              });
              server.fault(p, { ignoreIfRange: true });
            }
          },
        }),
      );
      assert.equal(result.status, 'downloaded');
      if (result.status !== 'downloaded') return;
      assert.equal(result.sha256, nextSha, `${p}: the file is the new version whole, not the old one's start with the new one's end`);
      assert.deepEqual(fs.readFileSync(result.file), next);
      assert.equal(requestsOf(p).at(-2)!.status, 206);
      assert.match(retries[1], /another version of the file \((ETag|Last-Modified) /);
      assert.equal(requestsOf(p).at(-1)!.headers.range, undefined);
    }
  });

  it('stops a body that trickles in past the deadline, without retrying', { timeout: 10_000 }, async () => {
    server.put('/l.json', { body, contentType: 'application/json' });
    server.fault('/l.json', { chunkDelayMs: 50, chunkBytes: 1 });
    const before = requestsOf('/l.json').length;
    const started = Date.now();
    await assert.rejects(
      download(options('/l.json', { idleMs: 2000, deadlineMs: 600 })),
      /GET .*: not finished within the deadline of 600ms; nothing was imported/,
    );
    const took = Date.now() - started;
    assert.ok(took < 3000, `stopped after ${took} ms`);
    assert.equal(requestsOf('/l.json').length - before, 1);
  });

  it('counts the waits between attempts in the deadline', { timeout: 10_000 }, async () => {
    server.put('/m.json', { body, contentType: 'application/json' });
    server.fault('/m.json', { status: 503, retryAfter: '30' });
    await assert.rejects(
      download(options('/m.json', { maxDelayMs: 30_000, deadlineMs: 400 })),
      /not finished within the deadline of 400ms \(after 1 attempts\)/,
    );
  });

  it('fails at once, saying why, on a redirect to a file: or data: address', async () => {
    for (const [p, target] of [
      ['/n.json', 'file:///etc/passwd'],
      ['/o.json', 'data:application/json,{}'],
    ] as const) {
      server.fault(p, { redirect: target }, { redirect: target }, { redirect: target });
      const before = requestsOf(p).length;
      await assert.rejects(download(options(p)), (error: DownloadError) => {
        assert.match(
          error.message,
          /redirected to an address that is not http\(s\) \(such as file: or data:\); refused; nothing was imported/,
        );
        assert.equal(error.attempts, 1);
        return true;
      });
      assert.equal(requestsOf(p).length - before, 1);
    }
  });

  it('takes credentials out of addresses shown in messages', () => {
    assert.equal(
      redactUrl('https://user:pw@example.org/a.csv?api_key=123&mailto=x@example.org'),
      'https://example.org/a.csv?api_key=REDACTED&mailto=x%40example.org',
    );
  });
});
