// The documentation a user meets first stays short, and the product speaks of itself only: no tracked file narrates
// how the work went (rounds or sessions of work, load averages of past runs, working notes). B's "KRT session",
// "chat session" and "extraction session" are domain words, and the benchmarks print the load average of their own
// run: neither is history.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/** What narrates the work's history, each with what it catches. */
export const HISTORY_PATTERNS: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  { what: 'working notes', pattern: /\.notes\// },
  // "load average 14–21", "a load average of about 17", "load average above 20", "(load 10–16)": a past run's
  // machine load, also where a line break falls inside it.
  {
    what: 'a load average of a past run',
    pattern: /\bload\s+average\s+(?:of\s+)?(?:about\s+|around\s+|above\s+|over\s+)?\d|\(load \d+(?:\.\d+)?[–-]\d/i,
  },
  // "the seventh session", "session 5", "issue 20", "round 3 of the work": the work counted, not the domain.
  {
    what: 'a numbered session of work',
    pattern: /\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|previous|last) session\b|\bsession \d/i,
  },
  { what: 'an issue citation', pattern: /\bissues? #?\d+\b/i },
  { what: 'a numbered round of work', pattern: /\b(?:work|review) rounds? \d|\bround \d+ of (?:the )?work\b/i },
];

/**
 * What narrates the work in a page of documentation (Markdown only: code and data have hexadecimal strings and
 * dates of their own): a commit named as the state of the work ("(623747c)", "d8065de^", "commit 1a2b3c4"), a run
 * dated ("run of 2026-11-26", "measured on 2026-11-26"; a data snapshot's date is reference), "this session".
 */
export const DOCS_HISTORY_PATTERNS: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  {
    what: 'a commit as the state of the work',
    pattern: /(?:\bcommit |\()(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\^/,
  },
  { what: 'a dated run', pattern: /\b(?:runs?|measured|timed|benchmarked) (?:of|on) \d{4}-\d{2}-\d{2}\b/i },
  { what: 'the session of work', pattern: /\b(?:in|during|of) this session\b|\bthe day's work\b/i },
];

/** A number with a unit of time, or a range of them: "3.4 ms", "30–43 ms", "1.5 s". */
const TIMING = String.raw`\d+(?:\.\d+)?(?:[–-]\d+(?:\.\d+)?)? ?(?:ms|µs|s)\b`;

/**
 * What a code comment must not state: a measured timing set against another ("3.4 ms against 5.1", "2.6 s of
 * decoding → 1.6 s"), a time a run took ("took 30–43 ms"), or a measured speed-up ("25% faster", "1.4–2.4x
 * faster"). A comment says why; the figures belong in the benchmarks' output and the performance docs, which
 * state them with the command that reproduces them, so these are looked for in comments only.
 */
export const MEASUREMENT_PATTERNS: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  {
    what: 'a measured timing set against another',
    pattern: new RegExp(String.raw`${TIMING}[^.;:()]{0,30}?,? (?:against|instead of|versus|vs\.?|→) (?:about |~)?\d`),
  },
  { what: 'a time a run took', pattern: new RegExp(String.raw`\btook (?:about |~)?${TIMING}`) },
  { what: 'a measured speed-up', pattern: /\b\d+(?:\.\d+)?(?:[–-]\d+(?:\.\d+)?)? ?(?:x|×|%|times) (?:faster|slower)\b/ },
];

/** The comment of a line of code: a whole-line comment or the text after a trailing `//`. */
export function commentOf(line: string): string | undefined {
  const trimmed = line.trim();
  if (/^(?:\/\/|\/\*|\*)/.test(trimmed)) return trimmed;
  const trailing = / \/\/ (.*)$/.exec(line);
  return trailing?.[1];
}

/** Every comment line of a source file that states a measurement, as "file:line: what". */
export function measurementsIn(file: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const comment = commentOf(line);
    if (comment === undefined) return;
    for (const { what, pattern } of MEASUREMENT_PATTERNS)
      if (pattern.test(comment)) found.push(`${file}:${index + 1}: ${what}: ${comment.slice(0, 120)}`);
  });
  return found;
}

/**
 * The tracked text files (git's list), without this file, which names the patterns, and without the recorded
 * examples of the OpenAPI documents, which are the services' own answers (B's "session 999 not found" is domain).
 */
function trackedTextFiles(): string[] {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  return files.filter(
    (file) =>
      file !== 'test/docs.test.ts' &&
      file !== 'package-lock.json' &&
      !file.endsWith('/openapi-examples.json') &&
      /\.(ts|js|md|json|css|yml|yaml|sh|txt)$|^\.ci\//.test(file) &&
      fs.existsSync(path.join(ROOT, file)),
  );
}

/** Every line of `text` that matches one of the patterns (and in Markdown the docs' own), as "file:line: what". */
export function historyIn(file: string, text: string): string[] {
  const found: string[] = [];
  const patterns = file.endsWith('.md') ? [...HISTORY_PATTERNS, ...DOCS_HISTORY_PATTERNS] : HISTORY_PATTERNS;
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    // Each line with the next one joined on, so that a phrase broken over two lines is seen; a match is the line's
    // when it starts on it.
    const joined = `${line} ${lines[index + 1] ?? ''}`;
    for (const { what, pattern } of patterns) {
      const match = pattern.exec(joined);
      if (match && match.index < line.length) found.push(`${file}:${index + 1}: ${what}: ${line.trim().slice(0, 120)}`);
    }
  });
  return found;
}

/**
 * The environment variables the code reads, each with a file that reads it: a name read as a property
 * (`env.PDI_X`) or written as a string (`'PDI_X'`), and a family of names built from a prefix (`PDI_PORT_${…}`,
 * returned with its trailing underscore). Identifiers that merely start with PDI_ (a constant's name) are neither.
 */
export function variablesReadIn(files: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/(?:\.|['"`])(PDI_[A-Z0-9_]*[A-Z0-9])\b(?!\$)/g)) if (!found.has(m[1])) found.set(m[1], file);
    for (const m of text.matchAll(/`(PDI_[A-Z0-9_]*_)\$\{/g)) if (!found.has(m[1])) found.set(m[1], file);
  }
  return found;
}

/** Whether `docs` names the variable, or for a family its prefix followed by a name or a `<PLACEHOLDER>`. */
export function documents(docs: string, variable: string): boolean {
  return variable.endsWith('_') ? new RegExp(`\\b${variable}(?:<|[A-Z])`).test(docs) : new RegExp(`\\b${variable}\\b`).test(docs);
}

describe('the documentation', () => {
  it('keeps README.md to 300 lines at most', () => {
    const lines = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length;
    assert.ok(lines <= 300, `README.md has ${lines} lines`);
  });

  it('links only files that exist', () => {
    const missing: string[] = [];
    for (const file of [
      'README.md',
      ...fs
        .readdirSync(path.join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ]) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        if (!fs.existsSync(path.resolve(ROOT, path.dirname(file), target))) missing.push(`${file} → ${target}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('tells the patterns of history from domain text', () => {
    for (const history of [
      'run again in the seventh session of the work',
      'Session 5 measured it',
      '(issue 20)',
      'under a load average of about 17',
      "the machine's load average\n22–31",
      'a loaded machine (load average above 20)',
      'served p95, first 3 runs (load 10–16)',
      'see .notes/closing.md',
    ])
      assert.notDeepEqual(historyIn('x', history), [], history);
    for (const history of [
      '| before the name consensus (623747c) | now |',
      'served by an earlier commit (`git worktree add DIR d8065de^`)',
      'the state at commit 1a2b3c4d',
      'Run of 2026-11-26 (on 2 cores):',
      'as measured on 2026-11-26',
      'the figures of this session',
      "at the start of the day's work",
    ])
      assert.notDeepEqual(historyIn('x.md', history), [], history);
    for (const reference of [
      'Snapshot of 2025-12-17, pooled over h = 1–5:',
      '`"<sha1>"`, an ETag such as "5d41402abc4b2a76b9719d911017c592"',
      'the chat keeps this session for 24 hours',
      'seed 20251217',
    ])
      assert.deepEqual(historyIn('x.md', reference), [], reference);
    for (const domain of [
      'a KRT session of the chat',
      'the extraction session of a paper',
      'an unknown session id',
      'round 387 invited 3,000 candidates',
      'Journal of Dentistry, volume 12, issue',
      'console.log(`load average ${os.loadavg()}`)',
    ])
      assert.deepEqual(historyIn('x', domain), [], domain);
  });

  it('tells a measured timing in a comment from a comment that says why', () => {
    for (const measured of [
      '// queries 1.6–1.7 ms against 2.0–2.3 ms; back to 1 MiB afterwards.',
      '// parsed in 4.6 s against 5.6 s, imported in 24.5 s against 24.9 s',
      ' * columns are never decoded (2.6 s of decoding → 1.6 s, in profiles)',
      '// Why: the FTS5 trigram query took 30–43 ms on the generated file',
      '    // Without automatic merging during the rebuild: 25% faster for the grants dictionary',
      '// a common phrase was counted 1.4–2.4x faster than with all of them',
      'statement.run(...row); // spread: 12% faster than an array',
    ])
      assert.notDeepEqual(measurementsIn('x.ts', measured), [], measured);
    for (const why of [
      '// FTS5 without positions: smaller and faster to build.',
      '// 200 ms, not the default 50: the first command through the proxy can take longer',
      ' * (default: a tenth of the period, 5 s to 60 s)',
      '/** Download timeouts (PDI_SYNC_TIMEOUT, default 60s). */',
      '// 12,302.315 − 2,355.75 = 9,946.565 → half up → 9,946.57',
      "const note = 'p95 3.4 ms against 5.1 ms for the baseline'; // the bench prints its own figures",
      '// Durations as people write them: "90s", "15m", "6h", "1d"',
    ])
      assert.deepEqual(measurementsIn('x.ts', why), [], why);
  });

  it('no comment in the code states a measured timing', () => {
    const found = trackedTextFiles()
      .filter((file) => /\.(ts|js)$/.test(file))
      .flatMap((file) => measurementsIn(file, fs.readFileSync(path.join(ROOT, file), 'utf8')));
    assert.deepEqual(found, [], `${found.length} lines:\n${found.slice(0, 60).join('\n')}`);
  });

  it('documents every PDI_* variable the code reads (src/, test/, scripts/, bench/) in README.md or docs/', () => {
    const code = trackedTextFiles().filter((file) => /^(src|test|scripts|bench)\/.*\.ts$/.test(file));
    const read = variablesReadIn(code);
    assert.ok(read.has('PDI_TEST_PG_URL') && read.has('PDI_DATABASE_URL') && read.has('PDI_PORT_'), [...read.keys()].join(' '));
    const docs = ['README.md', ...fs.globSync('docs/*.md', { cwd: ROOT })]
      .map((f) => fs.readFileSync(path.join(ROOT, f), 'utf8'))
      .join('\n');
    const missing = [...read].filter(([variable]) => !documents(docs, variable)).map(([variable, file]) => `${variable} (read in ${file})`);
    assert.deepEqual(missing, [], "variables no page documents: add each to docs/operations.md, the service's page or docs/development.md");
  });

  it('tells a variable read from a name that only looks like one', () => {
    const dir = fs.mkdtempSync(path.join(ROOT, '.docs-test-'));
    try {
      const file = path.join(dir, 'x.ts');
      fs.writeFileSync(
        file,
        [
          'const a = process.env.PDI_ALPHA;',
          "const b = env['PDI_BETA'];",
          'const c = env[`PDI_GAMMA_${name}`];',
          'const PDI_CONSTANT = 1;',
          '// PDI_IN_A_COMMENT is not read here',
        ].join('\n'),
      );
      const read = variablesReadIn([path.relative(ROOT, file)]);
      assert.deepEqual([...read.keys()].sort(), ['PDI_ALPHA', 'PDI_BETA', 'PDI_GAMMA_']);
      assert.ok(documents('`PDI_GAMMA_<SERVICE>`', 'PDI_GAMMA_'));
      assert.ok(documents('`PDI_GAMMA_ORAL`', 'PDI_GAMMA_'));
      assert.ok(!documents('`PDI_GAMMA_`', 'PDI_GAMMA_'));
      assert.ok(!documents('`PDI_ALPHABET`', 'PDI_ALPHA'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('no tracked file narrates the history of the work', () => {
    const found = trackedTextFiles().flatMap((file) => historyIn(file, fs.readFileSync(path.join(ROOT, file), 'utf8')));
    assert.deepEqual(found, [], `${found.length} lines:\n${found.slice(0, 60).join('\n')}`);
  });
});
