// `npm test [-- filter…]`: every *.test.ts under src/ and test/, run by node --test. Prints node's own
// summary; with CI=true a skipped test is a failure (CI must run every suite on SQLite, PostgreSQL and Redis).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const filters = process.argv.slice(2);
const files = [...fs.globSync('src/**/*.test.ts', { cwd: root }), ...fs.globSync('test/**/*.test.ts', { cwd: root })]
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}

const tapFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-tap-')), 'results.tap');
const concurrency = process.env.PDI_TEST_CONCURRENCY ?? String(Math.max(3, os.availableParallelism()));
const result = spawnSync(
  process.execPath,
  [
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-timeout=900000',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tapFile}`,
    ...files,
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);

const tap = fs.existsSync(tapFile) ? fs.readFileSync(tapFile, 'utf8') : '';
const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1] ?? 'NaN');
const skipped = count('skipped');
if (process.env.CI === 'true' && skipped > 0) {
  const reasons = [...tap.matchAll(/# SKIP (.*)$/gm)].map((m) => m[1]);
  console.error(`\nCI requires every suite to run, but ${skipped} were skipped:\n  ${[...new Set(reasons)].join('\n  ')}`);
  process.exit(1);
}
if (result.status !== 0 || Number.isNaN(count('pass'))) process.exit(result.status || 1);
