// A source server for sync tests: a real HTTP server on 127.0.0.1 that serves files the test gives it (the real
// files of ../shared/data) the way a publisher does (ETag, Last-Modified, conditional GET, byte ranges), and
// misbehaves on demand, once per fault queued: a status, a stall before the headers, a body cut short (with or
// without a Content-Length), a slow body, the wrong content type, a range answered whatever If-Range says (a
// server that splices versions), a redirect.
import http from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';

export interface Resource {
  body: Buffer;
  contentType: string;
  /** Defaults to a strong ETag of the body; null sends none. */
  etag?: string | null;
  lastModified?: string | null;
  /** Answers Range requests (default true). */
  ranges?: boolean;
}

export type Fault =
  | { status: number; retryAfter?: string }
  | { stallMs: number }
  | { cutAfter: number; chunked?: boolean }
  | { chunkDelayMs: number; chunkBytes?: number }
  | { contentType: string }
  /** Answers a Range request even when If-Range names another version. */
  | { ignoreIfRange: true }
  | { redirect: string };

export interface SeenRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  status: number;
}

export interface SourceServer {
  readonly base: string;
  url(path: string): string;
  put(path: string, resource: Resource): void;
  /** Faults applied to the next requests of `path`, one per request, in order. */
  fault(path: string, ...faults: Fault[]): void;
  readonly requests: SeenRequest[];
  close(): Promise<void>;
}

export async function startSourceServer(): Promise<SourceServer> {
  const resources = new Map<string, Resource>();
  const faults = new Map<string, Fault[]>();
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const seen: SeenRequest = { path, headers: req.headers, status: 0 };
    requests.push(seen);
    const send = (status: number, headers: Record<string, string | number> = {}, body?: Buffer | string) => {
      seen.status = status;
      res.writeHead(status, headers);
      res.end(body);
    };
    const fault = faults.get(path)?.shift();
    const resource = resources.get(path);
    const go = () => {
      if (fault && 'status' in fault) {
        return send(
          fault.status,
          { 'content-type': 'text/plain', ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}) },
          `error ${fault.status}`,
        );
      }
      if (fault && 'redirect' in fault) return send(302, { location: fault.redirect });
      if (!resource) return send(404, { 'content-type': 'application/json' }, '{"error":"not found"}');
      const etag = resource.etag === undefined ? `"${createHash('sha1').update(resource.body).digest('hex')}"` : resource.etag;
      const validators: Record<string, string> = {};
      if (etag) validators.etag = etag;
      if (resource.lastModified) validators['last-modified'] = resource.lastModified;
      const ranges = resource.ranges !== false;
      if (ranges) validators['accept-ranges'] = 'bytes';
      if (etag && req.headers['if-none-match'] === etag) return send(304, validators);
      if (!etag && resource.lastModified && req.headers['if-modified-since'] === resource.lastModified) return send(304, validators);
      const contentType = fault && 'contentType' in fault ? fault.contentType : resource.contentType;
      let start = 0;
      let status = 200;
      const range = /^bytes=(\d+)-$/.exec(String(req.headers.range ?? ''));
      const ifRange = req.headers['if-range'];
      const ignoreIfRange = fault !== undefined && 'ignoreIfRange' in fault;
      if (ranges && range && (!ifRange || ifRange === etag || ifRange === resource.lastModified || ignoreIfRange)) {
        start = Number(range[1]);
        if (start >= resource.body.length) return send(416, { 'content-range': `bytes */${resource.body.length}` });
        status = 206;
        validators['content-range'] = `bytes ${start}-${resource.body.length - 1}/${resource.body.length}`;
      }
      const body = resource.body.subarray(start);
      seen.status = status;
      if (fault && 'cutAfter' in fault) {
        // A body cut short: with its full Content-Length (the connection then breaks), or chunked (it just ends).
        const headers = fault.chunked
          ? { 'content-type': contentType, ...validators }
          : { 'content-type': contentType, 'content-length': body.length, ...validators };
        res.writeHead(status, headers);
        res.write(body.subarray(0, fault.cutAfter), () => {
          if (fault.chunked) res.end();
          else setTimeout(() => res.socket?.destroy(), 20);
        });
        return;
      }
      res.writeHead(status, { 'content-type': contentType, 'content-length': body.length, ...validators });
      if (fault && 'chunkDelayMs' in fault) {
        const size = fault.chunkBytes ?? 64 * 1024;
        let at = 0;
        const next = () => {
          if (res.destroyed) return;
          if (at >= body.length) return res.end();
          res.write(body.subarray(at, at + size));
          at += size;
          setTimeout(next, fault.chunkDelayMs);
        };
        return next();
      }
      res.end(body);
    };
    if (fault && 'stallMs' in fault) setTimeout(go, fault.stallMs);
    else go();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    url: (path) => `${base}${path}`,
    put: (path, resource) => resources.set(path, resource),
    fault: (path, ...more) => faults.set(path, [...(faults.get(path) ?? []), ...more]),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
