// Slow clients cannot hold connections for ever, and SIGTERM stops the process gracefully.
// Runs `serve grants` (it answers a POST) as a real process (SQLite in a temporary directory, no data: the requests here need none) and
// talks to it over raw sockets.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './support/private-postgres.ts';
import { request, startServer } from './support/server-process.ts';
import type { ServerProcess } from './support/server-process.ts';

/** A raw connection that records what the server sends and when it closes. */
class RawClient {
  readonly socket: net.Socket;
  received = '';
  closed = false;
  readonly closing: Promise<void>;

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => (this.received += chunk));
    this.socket.on('error', () => {});
    this.closing = new Promise((resolve) =>
      this.socket.on('close', () => {
        this.closed = true;
        resolve();
      }),
    );
  }

  async connected(): Promise<this> {
    if (!this.socket.connecting) return this;
    await new Promise<void>((resolve, reject) => {
      this.socket.once('connect', resolve);
      this.socket.once('error', reject);
    });
    return this;
  }

  send(text: string): void {
    this.socket.write(text);
  }

  /** Waits until the server closed the connection, or `ms` passed; true if it was closed. */
  async closedWithin(ms: number): Promise<boolean> {
    await Promise.race([this.closing, new Promise((r) => setTimeout(r, ms))]);
    return this.closed;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let dataDir: string;

before(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-slow-clients-'));
});
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function serve(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    args: ['grants', '--no-demo', '--port', `grants=${port}`],
    env: { PDI_DATA_DIR: dataDir, PDI_DATABASE_URL: '', ...env },
    port,
    readyPath: '/openapi.json',
  });
}

describe('timeouts for slow clients', () => {
  let server: ServerProcess;
  before(async () => {
    server = await serve({ PDI_REQUEST_TIMEOUT_MS: '1000', PDI_HEADERS_TIMEOUT_MS: '800', PDI_KEEP_ALIVE_TIMEOUT_MS: '600' });
  });
  after(async () => server?.stop());

  it('answers a request whose body never finishes with 408 in the JSON error body, and closes it', async () => {
    const client = await new RawClient(server.port).connected();
    client.send('POST /api/api/calculate/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
    // A deadline, not a measurement: the request timeout closes the connection well within it.
    assert.ok(await client.closedWithin(15_000), `still open; received: ${client.received}`);
    assert.match(client.received, /^HTTP\/1\.1 408 /);
    assert.match(client.received, /content-type: application\/json/i);
    // grants' error body: { error: message }
    const body = JSON.parse(client.received.slice(client.received.indexOf('\r\n\r\n') + 4)) as { error: string };
    assert.match(body.error, /^the request did not arrive in time \(the limit is 1 s\)$/);
  });

  it('closes a connection whose headers never finish, naming the headers limit', async () => {
    const client = await new RawClient(server.port).connected();
    client.send('GET /openapi.json HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    assert.ok(await client.closedWithin(15_000), `still open; received: ${client.received}`);
    assert.match(client.received, /^HTTP\/1\.1 408 /);
    const body = JSON.parse(client.received.slice(client.received.indexOf('\r\n\r\n') + 4)) as { error: string };
    assert.match(body.error, /^the request headers did not arrive in time \(the limit is 0\.8 s\)$/);
  });

  it('answers a 20 kB URL with the documented 431 naming the limit', async () => {
    const client = await new RawClient(server.port).connected();
    client.send(`GET /openapi.json?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.ok(await client.closedWithin(15_000), `still open; received: ${client.received.slice(0, 200)}`);
    assert.match(client.received, /^HTTP\/1\.1 431 /);
    const body = JSON.parse(client.received.slice(client.received.indexOf('\r\n\r\n') + 4)) as { error: string };
    assert.match(body.error, /too large: the limit is 16 KiB/);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const client = await new RawClient(server.port).connected();
    client.send('GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.ok(await client.closedWithin(15_000), 'the idle connection stayed open');
    assert.match(client.received, /^HTTP\/1\.1 200 /);
    assert.match(client.received, /keep-alive: timeout=0?\.?\d*/i);
  });
});

describe('SIGTERM', () => {
  it('stops accepting, lets a request in flight finish, closes idle and stalled connections, and exits 0', async () => {
    // A long request timeout: here it is the grace period that must cut the stalled client.
    const server = await serve({ PDI_REQUEST_TIMEOUT_MS: '120000', PDI_HEADERS_TIMEOUT_MS: '120000', PDI_SHUTDOWN_GRACE_MS: '3000' });
    try {
      // An idle keep-alive connection (one answered request), a client stalled in the middle of its body, and a
      // request in flight whose headers are still arriving.
      const idle = await new RawClient(server.port).connected();
      idle.send('GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n');
      while (!idle.received.includes('\r\n\r\n')) await sleep(20);
      const stalled = await new RawClient(server.port).connected();
      stalled.send('POST /api/api/calculate/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
      const inFlight = await new RawClient(server.port).connected();
      inFlight.send('GET /openapi.json?in-flight HTTP/1.1\r\nHost: x\r\n');
      await sleep(300);

      server.child.kill('SIGTERM');
      await sleep(500);
      await assert.rejects(request({ port: server.port, path: '/openapi.json' }), 'a new connection was accepted after SIGTERM');
      assert.ok(await idle.closedWithin(2000), 'the idle keep-alive connection was not closed');
      inFlight.send('Accept: application/json\r\n\r\n');
      assert.ok(await inFlight.closedWithin(10_000), 'the request in flight was not answered and closed');
      assert.match(inFlight.received, /^HTTP\/1\.1 200 /, `in flight: ${inFlight.received.slice(0, 200)}`);
      assert.match(inFlight.received, /connection: close/i);
      assert.equal(stalled.closed, false, 'the stalled client was cut before the grace period ended');
      // A deadline, not a measurement: a stalled client must not keep the process from exiting.
      const code = await Promise.race([server.exited, sleep(20_000).then(() => 'still running')]);
      assert.equal(code, 0, server.output().slice(-2000));
      assert.ok(stalled.closed, 'the stalled connection is closed');
      assert.match(server.output(), /grace period over/);
    } finally {
      await server.stop();
    }
  });
});
