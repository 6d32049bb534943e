// One entry point for a JATS document: parse safely, read metadata.

import { readFileSync, statSync } from 'node:fs';
import { readArticleMetadata, type ArticleMetadata } from './metadata.ts';
import { parseXml, type XmlElement } from './tree.ts';

export interface JatsArticle {
  root: XmlElement;
  metadata: ArticleMetadata;
}

export function parseJats(xml: string, fileName?: string): JatsArticle {
  const root = parseXml(xml, fileName);
  return { root, metadata: readArticleMetadata(root) };
}

export interface JatsFile extends JatsArticle {
  path: string;
  fileSize: number;
  /** The file's modification time (ISO 8601 UTC), the nearest thing to a download time a store file has. */
  modifiedAt: string;
}

export function readJatsFile(path: string): JatsFile {
  const xml = readFileSync(path, 'utf8');
  const stats = statSync(path);
  return { ...parseJats(xml, path), path, fileSize: stats.size, modifiedAt: stats.mtime.toISOString() };
}
