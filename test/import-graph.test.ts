// The shape of the code as DEVELOPERS.md states it, checked on the import graph of src/: no import cycles,
// services never import each other, core never imports a service, production code never imports test code.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const isTest = (file: string) => file.endsWith('.test.ts');

/** Relative imports of each production file (type-only ones too: a cycle of types is a cycle of concepts). */
function graph(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of sourceFiles(SRC).filter((f) => !isTest(f))) {
    const text = fs.readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) => path.resolve(path.dirname(file), m[1] ?? m[2]));
    edges.set(file, targets);
  }
  return edges;
}

/** Strongly connected components with more than one file (Tarjan). */
function cycles(edges: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(path.relative(ROOT, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

const edges = graph();
const rel = (file: string) => path.relative(SRC, file).split(path.sep);

it('finds the imports it checks (the parser reads this code base)', () => {
  assert.ok(edges.size > 200, `${edges.size} files`);
  const registry = edges.get(path.join(SRC, 'services/registry.ts')) ?? [];
  assert.ok(
    registry.some((t) => t.endsWith(path.join('oral', 'service.ts'))),
    'registry imports oral/service.ts',
  );
});

it('has no import cycles in src/', () => {
  assert.deepEqual(cycles(edges), []);
});

it('keeps services apart and core free of services', () => {
  const problems: string[] = [];
  for (const [file, targets] of edges) {
    const [top, owner] = rel(file);
    for (const target of targets) {
      const [targetTop, targetOwner] = rel(target);
      if (top === 'core' && targetTop === 'services') problems.push(`${path.relative(ROOT, file)} → ${path.relative(ROOT, target)}`);
      const crossService = top === 'services' && targetTop === 'services' && owner !== targetOwner;
      // Files directly under services/ (registry, database, sync sources) compose the services by design.
      if (crossService && owner.endsWith('.ts') === false && targetOwner.endsWith('.ts') === false)
        problems.push(`${path.relative(ROOT, file)} → ${path.relative(ROOT, target)}`);
      if (!target.startsWith(SRC)) problems.push(`${path.relative(ROOT, file)} imports outside src/: ${path.relative(ROOT, target)}`);
    }
  }
  assert.deepEqual(problems, []);
});
