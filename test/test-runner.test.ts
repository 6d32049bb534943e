// `npm test` on a machine without chromium must report the browser test as skipped and
// exit 0 outside CI, and fail in CI (where every suite must run). Runs the real runner (scripts/test.ts) on the
// browser test with PDI_CHROMIUM pointing at a file that does not exist.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

function runBrowserTest(ci: boolean): { status: number | null; output: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, PDI_CHROMIUM: '/nonexistent/chromium', PDI_TEST_CONCURRENCY: '1' };
  delete env.CI;
  if (ci) env.CI = 'true';
  // The runner's own node --test would otherwise inherit this test's context and report into it.
  delete env.NODE_TEST_CONTEXT;
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts/test.ts'), 'krt/browser'], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 300_000,
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

describe('npm test without chromium', () => {
  it('outside CI: the browser test is reported as skipped and the run succeeds', () => {
    const { status, output } = runBrowserTest(false);
    assert.equal(status, 0, output.slice(-3000));
    assert.match(output, /skipped [1-9]/, output.slice(-3000));
    assert.match(output, /nonexistent\/chromium not found/);
  });

  it('in CI: the run fails and says why', () => {
    const { status, output } = runBrowserTest(true);
    assert.notEqual(status, 0, output.slice(-3000));
    assert.match(output, /chromium not found/);
  });
});
