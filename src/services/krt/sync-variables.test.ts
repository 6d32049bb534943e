// B's two upstream addresses are set apart: PDI_SYNC_URL_KRT names the bioRxiv API (fetch by DOI), as before;
// PDI_SYNC_URL_KRT_CELLOSAURUS names the mirror `pdi sync krt` downloads Cellosaurus from.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolveSyncFiles, syncUrlVariable } from '../../core/sync/source.ts';
import { BIORXIV_API_URL, CELLOSAURUS_URL, krtFetchEndpoints, krtSync } from './sync.ts';

describe('krt sync variables', () => {
  it('the Cellosaurus sync reads PDI_SYNC_URL_KRT_CELLOSAURUS and ignores the bioRxiv variable', () => {
    assert.equal(syncUrlVariable(krtSync), 'PDI_SYNC_URL_KRT_CELLOSAURUS');
    const env = {
      PDI_SYNC_URL_KRT: 'http://biorxiv.mirror.test/api',
      PDI_SYNC_URL_KRT_CELLOSAURUS: 'http://registry.test/cellosaurus.txt',
    };
    assert.deepEqual(
      resolveSyncFiles(krtSync, env).map((f) => f.url),
      ['http://registry.test/cellosaurus.txt'],
    );
    assert.deepEqual(
      resolveSyncFiles(krtSync, { PDI_SYNC_URL_KRT: 'http://biorxiv.mirror.test/api' }).map((f) => f.url),
      [CELLOSAURUS_URL],
    );
    // --source still wins over the variable.
    assert.deepEqual(
      resolveSyncFiles(krtSync, env, 'https://other.test/c.txt').map((f) => f.url),
      ['https://other.test/c.txt'],
    );
    assert.throws(
      () => resolveSyncFiles(krtSync, { PDI_SYNC_URL_KRT_CELLOSAURUS: 'ftp://x.test/c.txt' }),
      /PDI_SYNC_URL_KRT_CELLOSAURUS must be an http\(s\) address/,
    );
  });

  it('fetch by DOI keeps reading PDI_SYNC_URL_KRT for the bioRxiv API', () => {
    const env = {
      PDI_SYNC_URL_KRT: 'http://biorxiv.mirror.test/api/',
      PDI_SYNC_URL_KRT_CELLOSAURUS: 'http://registry.test/cellosaurus.txt',
    };
    assert.equal(krtFetchEndpoints(env).biorxiv, 'http://biorxiv.mirror.test/api');
    assert.equal(krtFetchEndpoints({}).biorxiv, BIORXIV_API_URL);
  });

  it('a definition without its own variable keeps PDI_SYNC_URL_<SERVICE>', () => {
    const { urlVariable: _, ...plain } = krtSync;
    assert.equal(syncUrlVariable(plain), 'PDI_SYNC_URL_KRT');
    assert.deepEqual(
      resolveSyncFiles(plain, { PDI_SYNC_URL_KRT: 'http://mirror.test/c.txt' }).map((f) => f.url),
      ['http://mirror.test/c.txt'],
    );
  });
});
