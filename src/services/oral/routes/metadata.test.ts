// GET /api/metadata/ on SQLite and PostgreSQL, over the real files plus the demo data.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { answersErrors, getJson, oralAppWithData } from '../../../../test/support/oral/app.ts';
import type { ErrorCase } from '../../../../test/support/oral/app.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { oralService } from '../service.ts';

const ERRORS: ErrorCase[] = [['POST', '/api/metadata/', 405, /^GET method required$/]];

describeEachDatabase(
  'oral /api/metadata/',
  (t) => {
    let app: ServiceApp;
    before(async () => {
      app = await oralAppWithData(t);
    });
    after(async () => app?.close());
    const get = (url: string) => getJson(app, url);

    describe('success', () => {
      it('lists vocabularies and data sources; the demo data the real import replaced is no longer listed', async () => {
        const { body } = await get('/api/metadata/');
        assert.ok(body.data.topics.some((x: { slug: string; id: number }) => x.slug === 'fluoride' && x.id === 1));
        const sources = body.data.data_sources;
        assert.deepEqual(sources.map((d: { dataset: string }) => d.dataset).sort(), ['cochrane', 'sign138', 'toolkit']);
        assert.equal(sources.find((d: { dataset: string }) => d.dataset === 'toolkit').is_demo, false);
        assert.ok(sources.every((d: { is_demo: boolean }) => d.is_demo === false));
      });
    });

    describe('errors', () => answersErrors(() => app, ERRORS));
  },
  { migrations: oralService.migrations },
);
