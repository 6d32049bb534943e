// Downloading one source file over HTTP with the platform's fetch (undici), the way a public-data mirror must:
// - conditional (If-None-Match / If-Modified-Since from the last copy: 304 means there is nothing to do);
// - streamed to a file, with a size limit (the declared length is checked first, the bytes as they come) and a
//   SHA-256 of what was written;
// - bounded in time: the response headers within `headersMs`, then no more than `idleMs` without a byte, and the
//   whole download, retries and waits included, within `deadlineMs` (a server that trickles a byte at a time
//   never pauses long enough for the idle limit);
// - retried on 5xx, timeouts and network errors with exponential backoff and jitter (never on 4xx), honouring
//   Retry-After; a download cut short resumes with Range/If-Range where the server offers ranges and a validator,
//   and starts again from the first byte when the 206 names another version of the file (ETag or Last-Modified);
// - failures no retry can mend (a 4xx, a redirect to a file: or data: address) fail at once;
// - refused when the answer is not the kind of file expected (an HTML error page served with 200);
// - every error names the address (without credentials) and the status.
// Bodies are asked for without content coding (Accept-Encoding: identity), so that Content-Length, the size limit
// and byte ranges all count the same bytes.
import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Random } from '../random.ts';
import { formatDuration } from './duration.ts';

interface Validators {
  etag?: string | null;
  lastModified?: string | null;
}

export interface DownloadOptions {
  url: string;
  /** The file the body is written to (created or replaced; complete only when download() resolves "downloaded"). */
  destination: string;
  /** Validators of the copy already held: the request becomes conditional. */
  validators?: Validators;
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** Media types accepted (besides application/octet-stream and none); empty or absent accepts any type but HTML. */
  contentTypes?: readonly string[];
  /** The response headers must arrive within this time (default 30 s). */
  headersMs?: number;
  /** No more than this time without a byte of the body (default 60 s). */
  idleMs?: number;
  /** The whole download, every attempt and wait between them included, within this time (default 1 h). */
  deadlineMs?: number;
  /** Attempts after the first one, for retryable failures (default 4). */
  retries?: number;
  /** Backoff before retry n (1-based): a uniform draw in [½, 1] × min(maxDelayMs, baseDelayMs × 2^(n-1)). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  random?: Random;
  /** Stops the download (e.g. the server is shutting down); the error says so. */
  signal?: AbortSignal;
  /** Extra request headers (Accept, User-Agent, …). */
  headers?: Record<string, string>;
  /** Told about each retry (for logs). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string; resumeFrom: number }) => void;
  fetch?: typeof fetch;
}

export type DownloadResult =
  | { status: 'not-modified'; url: string; attempts: number }
  | {
      status: 'downloaded';
      url: string;
      file: string;
      bytes: number;
      sha256: string;
      etag: string | null;
      lastModified: string | null;
      contentType: string | null;
      attempts: number;
      /** Bytes that came from a resumed (206) request rather than the first one. */
      resumedBytes: number;
    };

/** A download that failed for good: names the address and, where there was one, the status. */
export class DownloadError extends Error {
  override name = 'DownloadError';
  readonly url: string;
  readonly status: number | null;
  readonly attempts: number;
  constructor(url: string, status: number | null, attempts: number, message: string) {
    super(message);
    this.url = url;
    this.status = status;
    this.attempts = attempts;
  }
}

/** An address fit for logs and messages: no user name, password or secret-looking query value. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//');
  }
  parsed.username = '';
  parsed.password = '';
  for (const key of [...parsed.searchParams.keys()]) {
    if (/key|token|secret|password|passwd|signature|sig$|auth|credential/i.test(key)) parsed.searchParams.set(key, 'REDACTED');
  }
  return parsed.toString();
}

export const DEFAULT_DEADLINE_MS = 3_600_000;

const DEFAULTS = {
  headersMs: 30_000,
  idleMs: 60_000,
  deadlineMs: DEFAULT_DEADLINE_MS,
  retries: 4,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
};

/** Failure of one attempt: whether another attempt may help, and what to say. */
class AttemptFailure extends Error {
  readonly retryable: boolean;
  readonly status: number | null;
  readonly retryAfterMs: number | null;
  constructor(message: string, retryable: boolean, status: number | null = null, retryAfterMs: number | null = null) {
    super(message);
    this.retryable = retryable;
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

/** What has been written so far, carried from one attempt to the next. */
interface Received {
  bytes: number;
  hash: Hash;
  /** The validator the partial body belongs to (If-Range), when the server offers byte ranges. */
  rangeValidator: string | null;
  etag: string | null;
  lastModified: string | null;
  contentType: string | null;
  /** The whole body's length, when the server said it. */
  total: number | null;
}

export async function download(options: DownloadOptions): Promise<DownloadResult> {
  const deadline = new AbortController();
  const deadlineMs = options.deadlineMs ?? DEFAULTS.deadlineMs;
  const deadlineTimer = setTimeout(
    () => deadline.abort(new AttemptFailure(`not finished within the deadline of ${formatDuration(deadlineMs)}`, false)),
    deadlineMs,
  );
  // The caller's signal and the deadline stop the same things: a request, a body, a wait before a retry.
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
  try {
    return await downloadWithin({ ...DEFAULTS, ...options, signal }, options.signal);
  } finally {
    clearTimeout(deadlineTimer);
  }
}

async function downloadWithin(o: DownloadOptions & typeof DEFAULTS, caller: AbortSignal | undefined): Promise<DownloadResult> {
  const shown = redactUrl(o.url);
  const random = o.random ?? new Random(`${process.pid}:${Date.now()}`);
  const fetchImpl = o.fetch ?? fetch;
  await fs.mkdir(path.dirname(o.destination), { recursive: true });
  const file = await fs.open(o.destination, 'w');
  const partial: Received = {
    bytes: 0,
    hash: createHash('sha256'),
    rangeValidator: null,
    etag: null,
    lastModified: null,
    contentType: null,
    total: null,
  };
  let resumedBytes = 0;
  let attempt = 0;
  try {
    for (;;) {
      attempt++;
      const resumeFrom = partial.bytes;
      try {
        const outcome = await attemptOnce(o, fetchImpl, file, partial);
        if (outcome === 'not-modified') return { status: 'not-modified', url: o.url, attempts: attempt };
        if (resumeFrom > 0) resumedBytes += partial.bytes - resumeFrom;
        await file.sync();
        return {
          status: 'downloaded',
          url: o.url,
          file: o.destination,
          bytes: partial.bytes,
          sha256: partial.hash.digest('hex'),
          etag: partial.etag,
          lastModified: partial.lastModified,
          contentType: partial.contentType,
          attempts: attempt,
          resumedBytes,
        };
      } catch (error) {
        if (resumeFrom > 0 && partial.bytes > resumeFrom) resumedBytes += partial.bytes - resumeFrom;
        const failure = asFailure(error, o.signal, caller);
        if (!failure.retryable || attempt > o.retries) {
          const tries = attempt === 1 ? '' : ` (after ${attempt} attempts)`;
          throw new DownloadError(o.url, failure.status, attempt, `GET ${shown}: ${failure.message}${tries}; nothing was imported`);
        }
        // Keep what arrived only when the next request can ask for the rest of the same version of the file.
        if (partial.rangeValidator === null && partial.bytes > 0) await restart(file, partial);
        const cap = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** (attempt - 1));
        const delayMs = Math.min(o.maxDelayMs, Math.max(failure.retryAfterMs ?? 0, cap * (0.5 + 0.5 * random.next())));
        o.onRetry?.({ attempt, delayMs, reason: failure.message, resumeFrom: partial.bytes });
        if (!(await sleep(delayMs, o.signal))) {
          const stopped = asFailure(null, o.signal, caller);
          throw new DownloadError(
            o.url,
            null,
            attempt,
            `GET ${shown}: ${stopped.message} (after ${attempt} attempts); nothing was imported`,
          );
        }
      }
    }
  } finally {
    await file.close();
  }
}

async function restart(file: FileHandle, partial: Received): Promise<void> {
  await file.truncate(0);
  partial.bytes = 0;
  partial.hash = createHash('sha256');
  partial.rangeValidator = null;
  partial.total = null;
}

async function attemptOnce(
  o: DownloadOptions & typeof DEFAULTS,
  fetchImpl: typeof fetch,
  file: FileHandle,
  partial: Received,
): Promise<'not-modified' | 'downloaded'> {
  const headers: Record<string, string> = { 'accept-encoding': 'identity', ...o.headers };
  const resuming = partial.bytes > 0 && partial.rangeValidator !== null;
  if (resuming) {
    headers.range = `bytes=${partial.bytes}-`;
    headers['if-range'] = partial.rangeValidator!;
  } else {
    if (o.validators?.etag) headers['if-none-match'] = o.validators.etag;
    if (o.validators?.lastModified) headers['if-modified-since'] = o.validators.lastModified;
  }
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(o.signal?.reason);
  o.signal?.addEventListener('abort', onOuterAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const arm = (ms: number, what: string) => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new AttemptFailure(what, true)), ms);
  };
  try {
    if (o.signal?.aborted) throw o.signal.reason;
    arm(o.headersMs, `no response within ${o.headersMs / 1000} s`);
    let response: Response;
    try {
      response = await fetchImpl(o.url, { headers, signal: controller.signal, redirect: 'follow' });
    } catch (error) {
      throw networkFailure(error, controller.signal);
    }
    const status = response.status;
    if (status === 304 && !resuming) {
      await response.body?.cancel();
      return 'not-modified';
    }
    if (status === 416 && resuming) {
      await response.body?.cancel();
      await restart(file, partial);
      throw new AttemptFailure('the server refused to resume the download (416); starting again', true, 416);
    }
    if (status >= 400) {
      const retryable = status >= 500;
      await response.body?.cancel();
      throw new AttemptFailure(
        `HTTP ${status}${response.statusText ? ` ${response.statusText}` : ''}`,
        retryable,
        status,
        retryAfter(response),
      );
    }
    if ((status !== 200 && status !== 206) || (status === 206 && !resuming)) {
      await response.body?.cancel();
      throw new AttemptFailure(`unexpected HTTP ${status}`, false, status);
    }
    if (status === 200 && partial.bytes > 0) await restart(file, partial); // the server sent the whole file (changed, or no ranges)
    if (status === 206) {
      const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/i.exec(response.headers.get('content-range') ?? '');
      if (!range || Number(range[1]) !== partial.bytes) {
        await response.body?.cancel();
        await restart(file, partial);
        throw new AttemptFailure(
          `the server resumed at the wrong place (Content-Range "${response.headers.get('content-range')}")`,
          true,
          206,
        );
      }
      if (range[3] !== '*') partial.total = Number(range[3]);
      const changed = otherVersion(response, partial);
      if (changed) {
        await response.body?.cancel();
        await restart(file, partial);
        throw new AttemptFailure(
          `the resumed part is another version of the file (${changed}); starting again from the first byte`,
          true,
          206,
        );
      }
    } else {
      checkContentType(response, o.contentTypes);
      partial.etag = response.headers.get('etag');
      partial.lastModified = response.headers.get('last-modified');
      partial.contentType = response.headers.get('content-type');
      const length = response.headers.get('content-length');
      partial.total = length !== null && /^\d+$/.test(length) ? Number(length) : null;
      // A weak ETag cannot name a byte range (RFC 9110 §13.1.5); Last-Modified can.
      const strongEtag = partial.etag && !partial.etag.startsWith('W/') ? partial.etag : null;
      partial.rangeValidator =
        response.headers.get('accept-ranges')?.toLowerCase() === 'bytes' ? (strongEtag ?? partial.lastModified) : null;
    }
    if (partial.total !== null && partial.total > o.maxBytes) {
      await response.body?.cancel();
      throw new AttemptFailure(`the file is ${partial.total} bytes, more than the limit of ${o.maxBytes}`, false, status);
    }
    if (!response.body) throw new AttemptFailure('the response has no body', true, status);
    arm(o.idleMs, `no data for ${o.idleMs / 1000} s`);
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        arm(o.idleMs, `no data for ${o.idleMs / 1000} s`);
        if (partial.bytes + chunk.byteLength > o.maxBytes) {
          controller.abort();
          throw new AttemptFailure(`the file is larger than the limit of ${o.maxBytes} bytes`, false, status);
        }
        await file.write(chunk, 0, chunk.byteLength, partial.bytes);
        partial.hash.update(chunk);
        partial.bytes += chunk.byteLength;
      }
    } catch (error) {
      if (error instanceof AttemptFailure) throw error;
      throw networkFailure(error, controller.signal, `the connection broke after ${partial.bytes} bytes`);
    }
    if (partial.total !== null && partial.bytes < partial.total) {
      throw new AttemptFailure(`the body ended after ${partial.bytes} of ${partial.total} bytes`, true, status);
    }
    return 'downloaded';
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onOuterAbort);
  }
}

/**
 * How a 206 shows that it belongs to another version than the bytes already held (a server that ignored
 * If-Range), or null when its validators match: an ETag or a Last-Modified it sends must be the first answer's.
 */
function otherVersion(response: Response, partial: Received): string | null {
  const etag = response.headers.get('etag');
  if (etag !== null && partial.etag !== null && etag !== partial.etag) return `ETag ${etag}, not ${partial.etag}`;
  const lastModified = response.headers.get('last-modified');
  if (lastModified !== null && partial.lastModified !== null && lastModified !== partial.lastModified)
    return `Last-Modified ${lastModified}, not ${partial.lastModified}`;
  return null;
}

function checkContentType(response: Response, accepted: readonly string[] | undefined): void {
  const raw = response.headers.get('content-type');
  const type = raw?.split(';')[0].trim().toLowerCase() ?? '';
  if (type === '' || type === 'application/octet-stream') return;
  const list = (accepted ?? []).map((t) => t.toLowerCase());
  if (list.includes(type)) return;
  if (list.length === 0 && type !== 'text/html' && type !== 'application/xhtml+xml') return;
  throw new AttemptFailure(
    `the answer is ${type}, not the file expected (${list.length ? list.join(', ') : 'anything but HTML'}): an error or login page, or the wrong address`,
    false,
    response.status,
  );
}

function retryAfter(response: Response): number | null {
  const raw = response.headers.get('retry-after');
  if (!raw) return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim()) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** A failure of the network or of a timer, as an AttemptFailure (retryable unless the caller stopped the download). */
function networkFailure(error: unknown, signal: AbortSignal, prefix?: string): AttemptFailure {
  if (signal.aborted && signal.reason instanceof AttemptFailure) {
    const reason = signal.reason;
    return prefix ? new AttemptFailure(`${prefix}: ${reason.message}`, reason.retryable, reason.status) : reason;
  }
  if (signal.aborted) return new AttemptFailure('stopped', false);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
  // undici's words for a redirect no attempt can follow: to a scheme other than http(s), or round in circles.
  if (/URL scheme must be a HTTP\(S\) scheme/i.test(detail)) {
    return new AttemptFailure('the server redirected to an address that is not http(s) (such as file: or data:); refused', false);
  }
  if (/redirect count exceeded/i.test(detail)) return new AttemptFailure('too many redirects', false);
  return new AttemptFailure(prefix ? `${prefix} (${detail})` : `network error (${detail})`, true);
}

/** `signal` is the caller's combined with the deadline; `caller` the caller's alone. */
function asFailure(error: unknown, signal: AbortSignal | undefined, caller: AbortSignal | undefined): AttemptFailure {
  if (signal?.aborted && !caller?.aborted && signal.reason instanceof AttemptFailure) return signal.reason;
  if (signal?.aborted) return new AttemptFailure('stopped before it finished', false);
  if (error instanceof AttemptFailure) return error;
  return new AttemptFailure(`unexpected failure (${(error as Error).message ?? String(error)})`, false);
}

/** Waits `ms`; false when `signal` stopped the wait. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
