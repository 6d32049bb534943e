// `npm run bench -- <name> [args…]`: runs bench/<name>.ts, which prints what it measured beside a
// baseline measured in the same run, and their ratio.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const [name, ...rest] = process.argv.slice(2);
const available = fs
  .readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .map((f) => f.replace(/\.ts$/, ''));
if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <${available.join('|')}> [options]`);
  process.exit(name ? 1 : 0);
}
const result = spawnSync(process.execPath, ['--expose-gc', path.join(import.meta.dirname, `${name}.ts`), ...rest], { stdio: 'inherit' });
process.exit(result.status ?? 1);
