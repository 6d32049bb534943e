// package.json's dependencies are exactly what production loads: every package a production file under src/
// imports (statically, dynamically, or through createRequire/resolve) is in `dependencies`, and every entry of
// `dependencies` is loaded by some production file. Tests, benchmarks and scripts use devDependencies.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Files production runs: src/ without tests, their workers, and the scripts run by hand (declared in knip.jsonc). */
const HAND_RUN = new Set(['src/services/draws/models-report.ts', 'src/services/krt/extract/learned/build-model.ts']);
function productionFiles(): string[] {
  return fs
    .globSync('src/**/*.ts', { cwd: ROOT })
    .filter((f) => !f.endsWith('.test.ts') && !f.includes('.test-') && !HAND_RUN.has(f))
    .sort();
}

// What TypeScript's import scanner misses: a package loaded through createRequire (`createRequire(…)('x')`,
// `.resolve('x/…')`) or located with `import.meta.resolve('x')`.
const LOADED = /\)\(\s*'([^'./][^']*)'\s*\)|\.resolve\(\s*'([^'./][^']*)'\s*\)/g;

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or null for relative and built-in ones. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier)) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function packagesLoadedBy(text: string): string[] {
  const scanned = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
  const loaded = [...text.matchAll(LOADED)].map((m) => m[1] ?? m[2]);
  return [...scanned, ...loaded].map(packageOf).filter((p): p is string => p !== null);
}

const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

it('finds packages in each form production loads them', () => {
  const text = [
    "import type { X } from 'helmet';",
    "import { a } from '@fastify/rate-limit';",
    "const s = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore.js');",
    "const h = createRequire(import.meta.resolve('@fastify/helmet'))('helmet');",
    "const d = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');",
    "const m = await import('kysely');",
    "import fs from 'node:fs';",
    "import path from 'path';",
    "import { b } from './b.ts';",
  ].join('\n');
  assert.deepEqual([...new Set(packagesLoadedBy(text))].sort(), [
    '@fastify/helmet',
    '@fastify/rate-limit',
    'helmet',
    'kysely',
    'swagger-ui-dist',
  ]);
});

it('lists in dependencies every package production loads, and nothing else', () => {
  const users = new Map<string, string[]>();
  for (const file of productionFiles()) {
    for (const name of packagesLoadedBy(fs.readFileSync(path.join(ROOT, file), 'utf8'))) {
      users.set(name, [...(users.get(name) ?? []), file]);
    }
  }
  const declared = Object.keys(manifest.dependencies).sort();
  // A specification published only as types (`@types/x`, no package x) is erased at run time: a dev dependency.
  const typesOnly = (name: string) =>
    `@types/${name}` in manifest.devDependencies && !fs.existsSync(path.join(ROOT, 'node_modules', name, 'package.json'));
  const unlisted = [...users.keys()].filter((name) => !(name in manifest.dependencies) && !typesOnly(name)).sort();
  assert.deepEqual(
    unlisted.map((name) => `${name} (${users.get(name)?.[0]})`),
    [],
    'production imports these packages, which are not in dependencies',
  );
  assert.deepEqual(
    declared.filter((name) => !users.has(name)),
    [],
    'these dependencies are loaded by no production file: move them to devDependencies or remove them',
  );
  assert.deepEqual(
    declared.filter((name) => name in manifest.devDependencies),
    [],
    'listed both as a dependency and a dev dependency',
  );
});
