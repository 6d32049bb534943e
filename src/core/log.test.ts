import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isEcho } from './cluster.ts';
import { logFormat, readyLine, requestLoggingDisabled } from './log.ts';

describe('the console', () => {
  it('is readable on a terminal and JSON otherwise, unless PDI_LOG_FORMAT says', () => {
    assert.equal(logFormat(undefined, true), 'pretty');
    assert.equal(logFormat('', false), 'json');
    assert.equal(logFormat('json', true), 'json');
    assert.equal(logFormat(' Pretty ', false), 'pretty');
    assert.throws(() => logFormat('yaml', true), /PDI_LOG_FORMAT must be "pretty" or "json", got "yaml"/);
  });

  it('logs requests only at debug or finer', () => {
    assert.equal(requestLoggingDisabled('info'), true);
    assert.equal(requestLoggingDisabled('warn'), true);
    assert.equal(requestLoggingDisabled('silent'), true);
    assert.equal(requestLoggingDisabled('debug'), false);
    assert.equal(requestLoggingDisabled('trace'), false);
  });

  it('says where a service is in one line', () => {
    assert.equal(
      readyLine('oral', 'http://127.0.0.1:8001'),
      'ready — oral       http://127.0.0.1:8001/  (API docs http://127.0.0.1:8001/docs)',
    );
  });

  it("takes npm's forwarded copy of a terminal's Ctrl-C for the same request to stop", () => {
    assert.equal(isEcho(10_000, 10_400), true);
    assert.equal(isEcho(10_000, 12_000), false);
  });
});
