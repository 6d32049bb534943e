// Static assets of the pages (style sheet, small progressive-enhancement scripts), served by each service
// itself under /assets/<name>.<hash>.<ext> with a year-long immutable cache: a changed file gets a new name.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface Asset {
  /** The name pages refer to (e.g. "pdi.css"). */
  name: string;
  /** The address with its content hash (e.g. "/assets/pdi.3f2a9c1e.css"). */
  url: string;
  contentType: string;
  body: Buffer;
}

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export class AssetRegistry {
  private readonly byName = new Map<string, Asset>();
  private readonly byUrl = new Map<string, Asset>();

  add(name: string, body: Buffer | string): Asset {
    const ext = path.extname(name);
    const contentType = TYPES[ext];
    if (!contentType) throw new Error(`asset ${name}: unknown type ${ext}`);
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 10);
    const asset: Asset = { name, url: `/assets/${path.basename(name, ext)}.${hash}${ext}`, contentType, body: bytes };
    this.byName.set(name, asset);
    this.byUrl.set(asset.url, asset);
    return asset;
  }

  /** Adds a file from disk (read once, at start). */
  addFile(file: string, name = path.basename(file)): Asset {
    return this.add(name, fs.readFileSync(file));
  }

  url(name: string): string {
    const asset = this.byName.get(name);
    if (!asset) throw new Error(`no asset named ${name}`);
    return asset.url;
  }

  find(url: string): Asset | undefined {
    return this.byUrl.get(url);
  }

  all(): Asset[] {
    return [...this.byName.values()];
  }
}

/** The assets every service's pages share. */
export function coreAssets(): AssetRegistry {
  const registry = new AssetRegistry();
  const dir = path.join(import.meta.dirname, 'static');
  for (const file of fs.readdirSync(dir).sort()) registry.addFile(path.join(dir, file));
  return registry;
}
