// Public registries as sources, on SQLite and PostgreSQL: Cellosaurus' flat file and the Antibody Registry's CSV
// export through `import krt --kind registry` with the guards of every import (one transaction, unreadable rows
// counted and refused above 5%, a cut file refused, a shrinking file refused, a second import changing nothing, one
// registry never touching the other's entries), the lookup by identifier, name and catalog number, and validation
// that says `valid` only for what a registry or enough papers attest.
//
// The files are small ones written here to the documented formats: no full cellosaurus.txt or Antibody Registry
// export was available to this test (the full files are hundreds of megabytes; see the README for where they come
// from). The Cellosaurus entries follow the flat file's line codes (ID, AC, AS, SY, DR, RX, CC, OX, SX, AG, CA, DT,
// "//"); the Antibody Registry files use the legacy export's header and the current API's field names.
import { after, before, it, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Static } from 'typebox';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { buildTestApp, testContext } from '../../../../test/support/app.ts';
import { ImportRefusedError, TruncatedSourceError } from '../../../core/import.ts';
import type { ServiceApp, ServiceContext } from '../../../core/service.ts';
import { makeRow } from '../extract/krt-row.ts';
import { RridKnowledgeBase } from '../rrid/knowledge-base.ts';
import { RegistryKnowledge } from '../rrid/registry-knowledge.ts';
import { validateRrid } from '../rrid/validate.ts';
import type { ValidateResponse } from '../schemas/ai.ts';
import { krtService } from '../service.ts';
import { krtSync } from '../sync.ts';
import { runSync } from '../../../core/sync/run.ts';
import { Random } from '../../../core/random.ts';
import { startSourceServer } from '../../../../test/support/sync/source-server.ts';
import { SYNC_SOURCES } from '../../sync-sources.ts';
import type { KrtTables } from '../tables.ts';
import { antibodyColumns, readAntibodyRegistry } from './antibody-registry.ts';
import { openCellosaurus } from './cellosaurus.ts';
import { registryKindOf } from './import.ts';
import { keysOf, registryNameKey } from './records.ts';

type Validate = Static<typeof ValidateResponse>;

const HEADER = `----------------------------------------------------------------------------
        CALIPHO group at the SIB - Swiss Institute of Bioinformatics
----------------------------------------------------------------------------

 Description: Cellosaurus: a knowledge resource on cell lines
 Name:        cellosaurus.txt
 Version:     49.0
 Last update: 12-June-2024

 ID         Identifier (cell line name)     Once; starts an entry
 //         Terminator                      Once; ends an entry
____________________________________________________________________________
`;

const HELA = `ID   HeLa
AC   CVCL_0030
AS   CVCL_X001
SY   HELA; Hela; He La; He-La
DR   ATCC; CCL-2
DR   ECACC; 93021013
DR   Wikidata; Q847482
RX   PubMed=13052828;
CC   Problematic cell line: Contaminating.
OX   NCBI_TaxID=9606; ! Homo sapiens (Human)
SX   Female
AG   30Y6M
CA   Cancer cell line
DT   Created: 04-04-12; Last updated: 12-06-24; Version: 40
//
`;

const HEK293T = `ID   HEK293T
AC   CVCL_0063
SY   293T; 293tsA1609neo; HEK-293T; HEK 293T
DR   ATCC; CRL-3216
OX   NCBI_TaxID=9606; ! Homo sapiens (Human)
CA   Transformed cell line
DT   Created: 04-04-12; Last updated: 12-06-24; Version: 38
//
`;

/** More entries, so that one unreadable or missing entry stays under the guards' limits. */
function filler(n: number, from = 0): string {
  let text = '';
  for (let i = from; i < from + n; i++) {
    const ac = `CVCL_Z${String(i).padStart(3, '0')}`;
    text += `ID   Line ${i}\nAC   ${ac}\nSY   L${i}; Line-${i}\nOX   NCBI_TaxID=10090; ! Mus musculus (Mouse)\nCA   Hybridoma\n//\n`;
  }
  return text;
}

const ANTIBODIES_LEGACY = `ab_id,name,vendor,catalog_num,proper_citation,defining_citation
AB_2210370,"Anti-alpha-Tubulin Antibody, clone DM1A",MilliporeSigma,T9026,"(MilliporeSigma Cat# T9026, RRID:AB_2210370)",
AB_2870222,"BUV496 Mouse Anti-Human CD3, clone UCHT1",BD Biosciences,612941,"(BD Biosciences Cat# 612941, RRID:AB_2870222)",
AB_287022,"Rabbit anti-GFAP, polyclonal",Example Vendor,EV-100,,
`;

const ANTIBODIES_API = `abId,abName,abTarget,catalogNum,vendorName,clonality,cloneId,sourceOrganism,targetSpecies
2210370,"Anti-alpha-Tubulin Antibody, clone DM1A",alpha-Tubulin,T9026,MilliporeSigma,monoclonal,DM1A,mouse,"human, mouse"
2870222,"BUV496 Mouse Anti-Human CD3, clone UCHT1",CD3,612941,BD Biosciences,monoclonal,UCHT1,mouse,human
`;

const temp: string[] = [];
function write(name: string, content: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'krt-registry-'));
  temp.push(dir);
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}
after(() => {
  for (const dir of temp) fs.rmSync(dir, { recursive: true, force: true });
});

test('the Cellosaurus flat file: header release, entries with their accession, synonyms, suppliers and species', async () => {
  const opened = await openCellosaurus(write('cellosaurus.txt', HEADER + HELA + HEK293T));
  assert.equal(opened.release, '49.0');
  assert.equal(opened.lastUpdate, '12-June-2024');
  const items = [];
  for await (const item of opened.items) items.push(item);
  assert.equal(items.length, 2);
  const hela = items[0].record!;
  assert.deepEqual(
    [hela.identifier, hela.name, hela.synonyms, hela.vendor, hela.catalog, hela.species],
    ['CVCL_0030', 'HeLa', ['HELA', 'Hela', 'He La', 'He-La'], 'ATCC', 'CCL-2', 'Homo sapiens (Human)'],
  );
  // Wikidata is a cross-reference, not a supplier.
  assert.deepEqual(hela.detail, {
    secondary: ['CVCL_X001'],
    suppliers: [
      { vendor: 'ATCC', catalog: 'CCL-2' },
      { vendor: 'ECACC', catalog: '93021013' },
    ],
    category: 'Cancer cell line',
  });
  const keys = keysOf(hela).map((k) => `${k.kind}:${k.key}`);
  for (const key of ['name:hela', 'catalog:CCL2', 'catalog:93021013', 'accession:CVCL_X001']) assert.ok(keys.includes(key), key);
  assert.equal(registryNameKey('HEK-293T'), registryNameKey('hek 293t'));
});

test('a Cellosaurus file cut inside its last entry is refused; an entry without a terminator or an accession is unreadable', async () => {
  const cut = await openCellosaurus(write('cellosaurus.txt', HEADER + HELA + HEK293T.slice(0, 40)));
  await assert.rejects(async () => {
    for await (const item of cut.items) void item;
  }, TruncatedSourceError);
  const broken = await openCellosaurus(
    write('cellosaurus.txt', `${HEADER}ID   No accession\nSY   x\n//\n${HELA.replace('//\n', '')}${HEK293T}`),
  );
  const problems = [];
  for await (const item of broken.items) problems.push(item.problem);
  assert.deepEqual(problems, ['entry without an accession (AC)', 'entry not ended by "//"', null]);
  await assert.rejects(openCellosaurus(write('other.txt', 'hello\nworld\n')), /not a Cellosaurus flat file/);
});

test('an Antibody Registry export: cut last record and unclosed quote refused; NUL kept as U+FFFD; lines counted; not an export refused', async () => {
  const read = async (content: string) => {
    const items = [];
    for await (const batch of readAntibodyRegistry(write('antibodies.csv', content), 2)) items.push(...batch);
    return items;
  };
  const head = 'abId,abName,vendorName,catalogNum\n';
  const items = await read(`${head}2107436,"Anti-GFP\nrabbit",Abcam,ab290\n3000001,Anti-\u0000actin,Sigma,A1978\n`);
  assert.deepEqual(
    items.map((i) => [i.line, i.record?.identifier, i.record?.name]),
    [
      [2, 'AB_2107436', 'Anti-GFP\nrabbit'],
      [4, 'AB_3000001', 'Anti-\uFFFDactin'],
    ],
  );
  await assert.rejects(read(`${head}2107436,Anti-GFP,Abcam,ab290\n3000001,Anti-actin`), TruncatedSourceError);
  await assert.rejects(read(`${head}2107436,Anti-GFP,Abcam,ab290\n3000001,"Anti-actin,Sigma,A1978\n`), TruncatedSourceError);
  await assert.rejects(read('name,vendor\nx,y\n'), /not an Antibody Registry export/);
});

test('the kind of registry file is told by its content; Antibody Registry headers of both known forms are read', () => {
  assert.equal(registryKindOf(write('a.txt', HEADER + HELA)), 'cellosaurus');
  assert.equal(registryKindOf(write('b.csv', ANTIBODIES_LEGACY)), 'antibody-registry');
  assert.equal(registryKindOf(write('c.csv', ANTIBODIES_API)), 'antibody-registry');
  assert.throws(() => registryKindOf(write('d.csv', 'doi,title\n10.1/x,y\n')), /neither Cellosaurus/);
  assert.equal(antibodyColumns(['abId', 'abName', 'catalogNum', 'vendorName']).problem, null);
  assert.match(antibodyColumns(['name', 'vendor']).problem ?? '', /no identifier column/);
});

test('validation without any registry: a well-formed identifier one paper writes is unverified, two papers make it valid', () => {
  const kb = new RridKnowledgeBase();
  const row = (id: string) =>
    makeRow({
      'RESOURCE TYPE': 'Antibody',
      'RESOURCE NAME': 'UCHT1 (BUV496) [Human anti-CD3]',
      SOURCE: 'BD Biosciences',
      IDENTIFIER: `Cat#612941; RRID:${id}`,
    });
  kb.addPaper('10.1101/one', [row('AB_287022')], 'jats-table');
  const one = validateRrid(kb, 'RRID:AB_287022');
  assert.deepEqual([one.status, one.is_valid, one.papers], ['unverified', false, 1]);
  assert.match(one.recommendations[0], /One paper alone does not attest/);
  kb.addPaper('10.1101/two', [row('AB_287022')], 'jats-table');
  assert.equal(validateRrid(kb, 'RRID:AB_287022').status, 'valid');
});

describeEachDatabase(
  'krt registries: import, lookup and validation',
  (t) => {
    let dataDir: string;
    const context = (env: Record<string, string> = {}): ServiceContext =>
      testContext(krtService, t.db, { dataDir, env: { ...process.env, PDI_IMPORT_MAX_SHRINK: '', PDI_IMPORT_MAX_UNREADABLE: '', ...env } });
    const run = (file: string, options: Record<string, unknown> = {}) => krtService.importers.registry.run(context(), file, options);
    const db = () => t.db.kysely.withTables<KrtTables>();
    const count = async (registry: string) =>
      Number(
        (
          await db()
            .selectFrom('krt_registry_entries')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('registry', '=', registry)
            .executeTakeFirstOrThrow()
        ).n,
      );
    let app: ServiceApp;

    before(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'krt-registry-data-'));
      temp.push(dataDir);
      app = await buildTestApp(krtService, context());
    });
    after(async () => app?.close());

    it('imports Cellosaurus once; the same file again changes nothing', async () => {
      const file = write('cellosaurus.txt', HEADER + HELA + HEK293T + filler(40));
      const [first] = await run(file);
      assert.deepEqual([first.dataset, first.rows_read, first.inserted, first.skipped], ['cellosaurus', 42, 42, 0]);
      const [second] = await run(file);
      assert.deepEqual([second.inserted, second.updated, second.unchanged, second.deleted], [0, 0, 42, 0]);
      const hela = await db()
        .selectFrom('krt_registry_entries')
        .selectAll()
        .where('identifier', '=', 'CVCL_0030')
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        [hela.registry, hela.resource_type, hela.name, hela.vendor, hela.catalog, hela.species, hela.release],
        ['cellosaurus', 'Experimental model: Cell line', 'HeLa', 'ATCC', 'CCL-2', 'Homo sapiens (Human)', '49.0'],
      );
    });

    it('refuses a cut file, more than 5% unreadable entries and a shrink of more than 10%, keeping what was stored', async () => {
      await assert.rejects(
        run(write('cellosaurus.txt', HEADER + HELA + HEK293T + filler(40) + 'ID   Cut\nAC   CVCL_Z999\n')),
        TruncatedSourceError,
      );
      const unreadable = filler(40).replace(/AC {3}CVCL_Z00[0-2]\n/g, 'AC   not-an-accession\n');
      await assert.rejects(run(write('cellosaurus.txt', HEADER + HELA + HEK293T + unreadable)), /could not be read/);
      await assert.rejects(run(write('cellosaurus.txt', HEADER + HELA + HEK293T + filler(30))), ImportRefusedError);
      assert.equal(await count('cellosaurus'), 42);
      // One unreadable entry in 42 is under the limit: imported, counted, the rest kept.
      const [one] = await run(write('cellosaurus.txt', HEADER + HELA + HEK293T + filler(40).replace('AC   CVCL_Z000\n', '')));
      assert.deepEqual([one.unreadable, one.skip_reasons, one.deleted], [1, { 'entry without an accession (AC)': 1 }, 1]);
      // A new release with the same entries: every entry says which release it is from.
      const [next] = await run(write('cellosaurus.txt', (HEADER + HELA + HEK293T + filler(40)).replace('49.0', '50.0')));
      assert.deepEqual([next.inserted, next.updated], [1, 0]);
      const releases = await db()
        .selectFrom('krt_registry_entries')
        .select('release')
        .distinct()
        .where('registry', '=', 'cellosaurus')
        .execute();
      assert.deepEqual(
        releases.map((r) => r.release),
        ['50.0'],
      );
    });

    it('imports the Antibody Registry beside Cellosaurus without touching it, from either known header', async () => {
      const [legacy] = await run(write('antibodies.csv', ANTIBODIES_LEGACY));
      assert.deepEqual([legacy.dataset, legacy.inserted], ['antibody-registry', 3]);
      assert.equal(await count('cellosaurus'), 42);
      // The API's field names, two of the three antibodies: a third of the registry gone is refused …
      await assert.rejects(run(write('antibodies.csv', ANTIBODIES_API)), /refused: the import would delete 1 of the 3/);
      // … unless intended; the same antibodies read from other columns are updated, none inserted.
      const [api] = await run(write('antibodies.csv', ANTIBODIES_API), { allowShrink: true });
      assert.deepEqual([api.inserted, api.updated, api.deleted], [0, 2, 1]);
      const tubulin = await db()
        .selectFrom('krt_registry_entries')
        .selectAll()
        .where('identifier', '=', 'AB_2210370')
        .executeTakeFirstOrThrow();
      assert.deepEqual([tubulin.vendor, tubulin.catalog, tubulin.species], ['MilliporeSigma', 'T9026', 'human, mouse']);
      await run(write('antibodies.csv', ANTIBODIES_LEGACY));
      assert.equal(await count('antibody-registry'), 3);
      assert.equal(await count('cellosaurus'), 42);
      await assert.rejects(run(write('antibodies.csv', ANTIBODIES_LEGACY.slice(0, -25))), TruncatedSourceError);
      assert.equal(await count('antibody-registry'), 3);
    });

    it('looks entries up by identifier, former accession, name or synonym, and catalog number', async () => {
      const knowledge = new RegistryKnowledge(db());
      assert.equal((await knowledge.byIdentifier('CVCL_0030'))?.entry.name, 'HeLa');
      assert.deepEqual(
        [(await knowledge.byIdentifier('CVCL_X001'))?.entry.identifier, (await knowledge.byIdentifier('CVCL_X001'))?.secondary],
        ['CVCL_0030', true],
      );
      assert.equal(await knowledge.byIdentifier('CVCL_9999'), null);
      for (const name of ['HEK293T', 'hek-293t', 'HEK 293T', '293T'])
        assert.deepEqual(
          (await knowledge.byName(name)).map((e) => e.identifier),
          ['CVCL_0063'],
          name,
        );
      assert.deepEqual((await knowledge.byName('Fiji')).length, 0);
      assert.deepEqual(
        (await knowledge.byCatalog('CRL 3216')).map((e) => e.identifier),
        ['CVCL_0063'],
      );
      assert.deepEqual(
        (await knowledge.byCatalog('612941', { vendor: 'BD Biosciences' })).map((e) => [e.identifier, e.registryTitle]),
        [['AB_2870222', 'Antibody Registry']],
      );
      const releases = await knowledge.releases();
      assert.deepEqual(releases.map((r) => [r.registry, r.release]).sort(), [
        ['antibody-registry', `export of ${new Date().toISOString().slice(0, 10)}`],
        ['cellosaurus', '50.0'],
      ]);
    });

    it('validation with the registries: listed is valid, unlisted is unverified, a listing the papers contradict is unverified', async () => {
      const knowledge = new RegistryKnowledge(db());
      const kb = new RridKnowledgeBase();
      const row = (name: string, source: string, identifier: string) =>
        makeRow({ 'RESOURCE TYPE': 'Antibody', 'RESOURCE NAME': name, SOURCE: source, IDENTIFIER: identifier });
      // Two papers write AB_287022 beside BD Biosciences 612941: the registry lists AB_287022 for another product.
      kb.addPaper('10.1101/a', [row('UCHT1 (BUV496) [Human anti-CD3]', 'BD Biosciences', 'Cat#612941; RRID:AB_287022')], 'jats-table');
      kb.addPaper('10.1101/b', [row('anti-CD3 BUV496', 'BD Biosciences', 'Cat#612941; RRID:AB_287022')], 'jats-table');
      const check = async (rrid: string) => validateRrid(kb, rrid, new Date(), await knowledge.evidenceFor(rrid));
      const cut = await check('RRID:AB_287022');
      assert.deepEqual([cut.status, cut.is_valid, cut.papers], ['unverified', false, 2]);
      assert.match(
        cut.recommendations[0],
        /listed in Antibody Registry .* as "Rabbit anti-GFAP, polyclonal", Example Vendor EV-100, but the papers/,
      );
      // Without the registry, two papers would have made it valid: the registry is what tells.
      assert.equal(validateRrid(kb, 'RRID:AB_287022').status, 'valid');
      const listed = await check('RRID:AB_2870222');
      assert.deepEqual([listed.status, listed.is_valid, listed.papers], ['valid', true, 0]);
      assert.match(
        listed.recommendations[0],
        /listed in Antibody Registry \(release export of .*\) as "BUV496 Mouse Anti-Human CD3, clone UCHT1", BD Biosciences 612941/,
      );
      const unlisted = await check('RRID:AB_9999999');
      assert.deepEqual([unlisted.status, unlisted.is_valid], ['unverified', false]);
      assert.match(unlisted.recommendations[0], /not listed in Antibody Registry/);
      const former = await check('RRID:CVCL_X001');
      assert.deepEqual([former.status, former.confidence_score], ['valid', 0.75]);
      assert.match(former.recommendations[0], /former accession .* merged into RRID:CVCL_0030/);
      // A registry not imported here (SciCrunch for SCR_) gives no evidence: the papers decide.
      assert.deepEqual(await knowledge.evidenceFor('RRID:SCR_002285'), { release: null, entry: null, secondary: false });
    });

    it('pdi sync krt: downloads cellosaurus.txt, imports it with the registry importer, then asks again conditionally', async () => {
      assert.equal(SYNC_SOURCES.krt, krtSync);
      const server = await startSourceServer();
      try {
        const download = { retries: 1, baseDelayMs: 5, maxDelayMs: 10, random: new Random(3) };
        const body = Buffer.from((HEADER + HELA + HEK293T + filler(40)).replace('49.0', '50.0'));
        server.put('/databases/cellosaurus/cellosaurus.txt', { body, contentType: 'text/plain' });
        const ctx = context({ PDI_SYNC_URL_KRT: '' });
        const source = server.url('/databases/cellosaurus/cellosaurus.txt');
        const first = await runSync(ctx, krtService, krtSync, { source, download, force: true });
        assert.deepEqual(
          first.files.map((f) => [f.name, f.result, f.reports.map((r) => [r.importer, r.dataset, r.unchanged])]),
          [['cellosaurus', 'imported', [['registry', 'cellosaurus', 42]]]],
        );
        const second = await runSync(ctx, krtService, krtSync, { source, download });
        assert.notEqual(second.files[0].result, 'imported');
        // A cut download is refused by the importer and the stored entries stay.
        server.put('/databases/cellosaurus/cellosaurus.txt', { body: body.subarray(0, body.length - 40), contentType: 'text/plain' });
        const cut = await runSync(ctx, krtService, krtSync, { source, download, force: true });
        assert.equal(cut.files[0].result, 'refused');
        assert.equal(await count('cellosaurus'), 42);
      } finally {
        await server.close();
      }
    });

    it('POST /api/ai/validate-rrid/ answers from the registries, and a new import is not hidden by the cache', async () => {
      const validate = async (rrid: string) =>
        (await app.inject({ method: 'POST', url: '/api/ai/validate-rrid/', payload: { rrid } })).json() as Validate;
      const hela = await validate('RRID:CVCL_0030');
      assert.deepEqual([hela.validation.status, hela.validation.is_valid, hela.validation.registry], ['valid', true, 'Cellosaurus']);
      assert.match(
        hela.validation.recommendations[0],
        /listed in Cellosaurus \(release 50\.0\) as "HeLa", ATCC CCL-2, Homo sapiens \(Human\)/,
      );
      const absent = await validate('RRID:CVCL_Z900');
      assert.equal(absent.validation.status, 'unverified');
      assert.equal((await validate('RRID:CVCL_Z900')).validation.source, 'cache');
      await run(write('cellosaurus.txt', (HEADER + HELA + HEK293T + filler(40)).replace('50.0', '51.0') + filler(1, 900)));
      const added = await validate('RRID:CVCL_Z900');
      assert.deepEqual([added.validation.status, added.validation.source], ['valid', 'fresh']);
    });
  },
  { migrations: krtService.migrations },
);
