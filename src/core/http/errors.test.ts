// HttpError: a client's mistake (4xx) carries no stack (never logged; capturing one cost a 429 flood about a tenth of
// its time), a server's failure (5xx) keeps one, and the process's stack-trace limit is left as it was.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HttpError, badRequest } from './errors.ts';

const frames = (error: Error) => (error.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at ')).length;

describe('HttpError', () => {
  it('captures no stack frames for a 4xx, and keeps status, code, message and headers', () => {
    const limit = Error.stackTraceLimit;
    const error = new HttpError(429, 'rate limit exceeded', 'RATE_LIMITED', { 'retry-after': '60' });
    assert.equal(frames(error), 0);
    assert.equal(frames(badRequest('limit must be an integer')), 0);
    assert.deepEqual(
      [error.statusCode, error.code, error.message, error.headers['retry-after']],
      [429, 'RATE_LIMITED', 'rate limit exceeded', '60'],
    );
    assert.ok(error instanceof Error && error instanceof HttpError);
    assert.equal(Error.stackTraceLimit, limit);
  });

  it('keeps the stack of a 5xx', () => {
    assert.ok(frames(new HttpError(503, 'database unreachable')) > 0);
    assert.ok(frames(new Error('plain')) > 0);
  });
});
