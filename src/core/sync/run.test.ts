// formatSyncReport: the lines `pdi sync` prints, one per file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ImportReport } from '../import.ts';
import { formatSyncReport } from './run.ts';
import type { SyncFileReport, SyncReport } from './run.ts';

function importReport(changes: Partial<Pick<ImportReport, 'inserted' | 'updated' | 'deleted' | 'unchanged'>>): ImportReport {
  return {
    service: 'draws',
    importer: 'rounds',
    dataset: 'rounds',
    source: 'ee_rounds_123_en.json',
    is_demo: false,
    data_version: 'v1',
    rows_read: 389,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    deleted: 0,
    skipped: 0,
    skip_reasons: {},
    unreadable: 0,
    stored_before: 389,
    demo_rows_removed: 0,
    warnings: 0,
    warning_samples: [],
    duration_ms: 1,
    ...changes,
  };
}

function report(file: Partial<SyncFileReport>): SyncReport {
  return {
    service: 'draws',
    trigger: 'manual',
    result: file.result ?? 'imported',
    warnings: [],
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:01.000Z',
    files: [
      {
        name: 'rounds',
        url: 'http://127.0.0.1/feed.json',
        result: 'imported',
        http: { attempts: 1, bytes: 618_433, sha256: 'e029b4431ae6ffff', etag: null, resumed_bytes: 0 },
        reports: [],
        error: null,
        ...file,
      },
    ],
  };
}

describe('formatSyncReport', () => {
  it('says when an import changed no record (a forced sync of the same data)', () => {
    const [line] = formatSyncReport(report({ reports: [importReport({ unchanged: 389 })] }));
    assert.equal(line, 'draws/rounds from http://127.0.0.1/feed.json: imported (618433 bytes, sha256 e029b4431ae6): no record changed');
  });

  it('does not say so when records changed', () => {
    const [line] = formatSyncReport(
      report({
        reports: [importReport({ inserted: 2, unchanged: 387 })],
        http: { attempts: 3, bytes: 10, sha256: 'abc', etag: null, resumed_bytes: 0 },
      }),
    );
    assert.equal(line, 'draws/rounds from http://127.0.0.1/feed.json: imported (10 bytes, sha256 abc, 3 attempts)');
  });

  it('does not repeat "refused" when the error says it', () => {
    const [line] = formatSyncReport(report({ result: 'refused', error: 'x.json: refused: the import would delete 339 of 389 records' }));
    assert.equal(line, 'draws/rounds from http://127.0.0.1/feed.json: x.json: refused: the import would delete 339 of 389 records');
  });
});
