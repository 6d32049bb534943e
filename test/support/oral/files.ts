// Real-shaped source files for the oral import tests: copies of ../shared/data/oral, cut or edited, in
// scratch folders (the shared data itself is read-only).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sharedData } from '../databases.ts';

export function scratchDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-oral-files-'));
}

export function readRealJson(name: string): { recommendations: Record<string, unknown>[] } & Record<string, unknown> {
  return JSON.parse(fs.readFileSync(sharedData('oral', name), 'utf8'));
}

export function writeFile(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** The real Cochrane folder and titles file, copied into `dir` (laid out as ../shared/data/oral). */
export function copyCochrane(dir: string): string {
  fs.cpSync(sharedData('oral', 'cochrane_sof'), path.join(dir, 'cochrane_sof'), { recursive: true });
  fs.copyFileSync(sharedData('oral', 'cochrane_titles.csv'), path.join(dir, 'cochrane_titles.csv'));
  for (const entry of fs.readdirSync(dir, { recursive: true }) as string[]) fs.chmodSync(path.join(dir, entry), 0o755);
  return dir;
}
