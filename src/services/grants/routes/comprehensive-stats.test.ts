// GET /api/comprehensive-stats/ on SQLite and PostgreSQL: every statistic recomputed from the stored rows.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { SPEC, dollars, grantsHttp, sumCents } from '../../../../test/support/grants/http.ts';
import { grantsService } from '../service.ts';
import { VALUE_RANGES } from '../aggregates.ts';

describeEachDatabase(
  'grants comprehensive-stats route',
  (t) => {
    const h = grantsHttp(t);
    const { get } = h;

    describe('answers', () => {
      it('labels each sector in the language, and the agreements with no NAICS sector (the entry "") as such', async () => {
        const english = (await get(`${SPEC}/comprehensive-stats/`)).body;
        const french = (await get(`${SPEC}/comprehensive-stats/?lang=fr`)).body;
        const none = h.rows.filter((r) => r.naics_sector_en === '').length;
        assert.ok(none > 0, 'the generated rows have agreements with no sector');
        const at = english.sector_analysis.findIndex((s: { naics_sector_en: string }) => s.naics_sector_en === '');
        assert.equal(english.sector_analysis[at].count, none);
        assert.equal(english.sector_analysis[at].label, 'Agreements with no NAICS sector');
        assert.equal(french.sector_analysis[at].naics_sector_en, '');
        assert.equal(french.sector_analysis[at].label, 'Ententes sans secteur SCIAN');
        for (const [i, s] of (english.sector_analysis as Array<{ naics_sector_en: string; label: string }>).entries()) {
          if (i === at) continue;
          assert.equal(s.label, s.naics_sector_en);
          assert.equal(french.sector_analysis[i].label, french.sector_analysis[i].naics_sector_en);
        }
        assert.deepEqual((await get(`${SPEC}/comprehensive-stats/?lang=both`)).body.sector_analysis, english.sector_analysis);
      });

      it('names sectors and value ranges in French with lang=fr (or Accept-Language), the same figures', async () => {
        const english = (await get(`${SPEC}/comprehensive-stats/`)).body;
        const french = (await get(`${SPEC}/comprehensive-stats/?lang=fr`)).body;
        const byHeader = (await get(`${SPEC}/comprehensive-stats/`, { 'accept-language': 'fr-CA' })).body;
        assert.deepEqual(byHeader, french);
        assert.deepEqual(
          french.sector_analysis.map((s: { count: number }) => s.count),
          english.sector_analysis.map((s: { count: number }) => s.count),
        );
        const names = new Map(
          english.sector_analysis.map((s: { naics_sector_en: string }, i: number) => [
            s.naics_sector_en,
            french.sector_analysis[i].naics_sector_en,
          ]),
        );
        if (names.has('Health care and social assistance'))
          assert.equal(names.get('Health care and social assistance'), 'Soins de santé et assistance sociale');
        if (names.has('')) assert.equal(names.get(''), '');
        assert.deepEqual(
          french.value_distribution.map((r: { range: string }) => r.range),
          VALUE_RANGES.map((r) => r.rangeFr),
        );
        const recipients = (await get(`${SPEC}/recipients/?lang=fr`)).body;
        const types = new Map(recipients.by_type.map((r: { recipient_type: string; label: string }) => [r.recipient_type, r.label]));
        if (types.has('N')) assert.equal(types.get('N'), 'Organismes sans but lucratif et organismes de bienfaisance');
      });

      it('names the top programs and recipients in French with lang=fr, both with lang=both (stored at import)', async () => {
        // expected: the French name of the first agreement (by id) of the program (recipient) whose source gives one
        const frenchOf = (key: 'program_name_en' | 'recipient_legal_name', fr: 'program_name_fr' | 'recipient_legal_name_fr') => {
          const names = new Map<string, string>();
          for (const r of [...h.rows].sort((a, b) => a.id - b.id)) if (!names.has(r[key]) && r[fr] !== '') names.set(r[key], r[fr]);
          return (name: string) => names.get(name) ?? '';
        };
        const program = frenchOf('program_name_en', 'program_name_fr');
        const recipient = frenchOf('recipient_legal_name', 'recipient_legal_name_fr');
        for (const [path, list, en, fr, expected] of [
          ['stats', 'top_programs', 'program_name_en', 'program_name_fr', program],
          ['comprehensive-stats', 'program_analysis', 'program_name_en', 'program_name_fr', program],
          ['recipients', 'top_recipients', 'recipient_legal_name', 'recipient_legal_name_fr', recipient],
        ] as const) {
          type Entry = Record<string, string | number>;
          const english: Entry[] = (await get(`${SPEC}/${path}/`)).body[list];
          const french: Entry[] = (await get(`${SPEC}/${path}/?lang=fr`)).body[list];
          const both: Entry[] = (await get(`${SPEC}/${path}/?lang=both`)).body[list];
          assert.deepEqual((await get(`${SPEC}/${path}/`, { 'accept-language': 'fr' })).body[list], french, path);
          assert.ok(
            english.every((e) => !(fr in e)),
            `${path}: English alone by default`,
          );
          assert.deepEqual(
            both.map((e) => [e[en], e[fr]]),
            english.map((e) => [e[en], expected(String(e[en]))]),
            `${path}: both names`,
          );
          assert.deepEqual(
            french.map((e) => e[en]),
            english.map((e) => expected(String(e[en])) || e[en]),
            `${path}: the French name, else the English one`,
          );
          assert.deepEqual(
            french.map((e) => e.total_value),
            english.map((e) => e.total_value),
          );
          if (list !== 'top_recipients') assert.ok(both.filter((e) => e[fr] !== '').length >= 10, `${path}: programs named in French`);
        }
      });

      it('comprehensive-stats: median, extremes, years, provinces, sectors, half-open value ranges, notable breakdown', async () => {
        const { body } = await get(`${SPEC}/comprehensive-stats/`);
        const values = h.rows.map((r) => r.agreement_value_cents).sort((a, b) => a - b);
        const mid = values.length >> 1;
        const b = body.basic_stats;
        assert.equal(b.total_grants, h.rows.length);
        assert.equal(b.median_value, (values.length % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2) / 100);
        assert.equal(b.minimum_value, values[0] / 100);
        assert.equal(b.maximum_value, values[values.length - 1] / 100);
        assert.equal(b.average_value, Math.round(sumCents(h.rows) / h.rows.length) / 100);
        for (const y of body.yearly_analysis) {
          const mine = h.rows.filter((r) => r.fiscal_year === y.fiscal_year);
          assert.deepEqual(
            [y.count, y.major_count, y.notable_count],
            [mine.length, mine.filter((r) => r.is_major_funding).length, mine.filter((r) => r.is_notable).length],
          );
        }
        for (const p of body.provincial_analysis) {
          assert.equal(p.value_per_recipient, Math.round((p.total_value * 100) / p.unique_recipients) / 100);
        }
        assert.equal(
          body.sector_analysis.reduce((n: number, s: { count: number }) => n + s.count, 0),
          h.rows.length,
        );
        assert.deepEqual(
          body.value_distribution.map((r: { range: string }) => r.range),
          VALUE_RANGES.map((r) => r.range),
        );
        for (const [i, range] of body.value_distribution.entries()) {
          const { min, max } = VALUE_RANGES[i];
          const mine = h.rows.filter(
            (r) => (min === null || r.agreement_value_cents >= min) && (max === null || r.agreement_value_cents < max),
          );
          assert.equal(range.count, mine.length, range.range);
          assert.equal(range.total_value, dollars(sumCents(mine)));
          assert.equal(range.percentage, Math.round((mine.length / h.rows.length) * 10000) / 100);
        }
        const notable = h.rows.filter((r) => r.is_notable);
        assert.deepEqual(body.notable_breakdown.notable, { count: notable.length, total_value: dollars(sumCents(notable)) });
        assert.equal(
          body.notable_breakdown.by_reason.reduce((n: number, x: { count: number }) => n + x.count, 0),
          notable.length,
        );
        assert.ok(body.notable_breakdown.by_reason.every((x: { label: string }) => x.label.length > 0));
      });
    });
  },
  { migrations: grantsService.migrations },
);
