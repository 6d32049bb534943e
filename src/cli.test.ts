// `serve`'s primary process forks the workers and serves nothing: it must not load the services (memory).
// What cli.ts imports statically, and what those modules import in turn, is what the primary loads.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

/** Files under src/ reachable from `entry` through static value imports (`import type` and `import()` excluded). */
function staticImports(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^import\s+(?!type\s)(?:[^;]*?\sfrom\s+)?'([^']+)'/gms)) {
      const spec = match[1];
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
      else if (!spec.startsWith('node:')) packages.add(spec.split('/')[0]);
    }
  };
  visit(entry);
  return { files, packages };
}

describe('the command line', () => {
  it("loads no service, database or HTTP framework before a command runs (serve's primary stays small)", () => {
    const src = path.resolve(import.meta.dirname);
    const { files, packages } = staticImports(path.join(src, 'cli.ts'));
    const relative = [...files].map((file) => path.relative(src, file));
    assert.ok(relative.includes('core/cluster.ts'), `the walk follows imports: ${relative.join(', ')}`);
    assert.deepEqual(
      relative.filter(
        (file) => file.startsWith('services/') || file === 'commands.ts' || file.startsWith('core/db/') || file.startsWith('core/http/'),
      ),
      [],
    );
    assert.deepEqual(
      [...packages].filter((name) => ['fastify', 'kysely', 'better-sqlite3', 'pg', 'ioredis'].includes(name)),
      [],
    );
  });
});
