import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { makeRow } from '../extract/krt-row.ts';
import { RridKnowledgeBase } from '../rrid/knowledge-base.ts';
import { chat, newChatState, type ChatState, type ChatTurn } from './engine.ts';
import { classifyIntent, parseEntities } from './parse.ts';

function knowledgeBase(): RridKnowledgeBase {
  const kb = new RridKnowledgeBase();
  const gfp = makeRow({
    'RESOURCE TYPE': 'Antibody',
    'RESOURCE NAME': 'Rabbit anti-GFP',
    SOURCE: 'Abcam',
    IDENTIFIER: 'Cat# ab290; RRID:AB_303395',
  });
  kb.addPaper('10.1101/a', [gfp]);
  kb.addPaper('10.1101/b', [gfp]);
  return kb;
}

/** Runs messages in order, passing the state along as a client of the service would (through JSON). */
function conversation(messages: string[], kb: RridKnowledgeBase | null = null): ChatTurn[] {
  let state: ChatState | null = null;
  return messages.map((message) => {
    const turn = chat(state, message, { kb });
    state = JSON.parse(JSON.stringify(turn.state)) as ChatState;
    return turn;
  });
}

test('the contract example: one Antibody row, SOURCE Abcam, IDENTIFIER Cat# ab290 (plus the RRID the base knows)', () => {
  const [withoutBase] = conversation(['Add rabbit anti-GFP antibody from Abcam, catalog ab290']);
  assert.equal(withoutBase.intent, 'add_resource');
  assert.equal(withoutBase.needs_clarification, false);
  assert.deepEqual(withoutBase.krt_entries, [
    {
      'RESOURCE TYPE': 'Antibody',
      'RESOURCE NAME': 'Rabbit anti-GFP antibody',
      SOURCE: 'Abcam',
      IDENTIFIER: 'Cat# ab290',
      'NEW/REUSE': 'reuse',
      'ADDITIONAL INFORMATION': '',
    },
  ]);
  assert.deepEqual(
    [withoutBase.entities.host, withoutBase.entities.target, withoutBase.entities.vendor, withoutBase.entities.catalogNumber],
    ['rabbit', 'gfp', 'Abcam', 'ab290'],
  );
  const [withBase] = conversation(['Add rabbit anti-GFP antibody from Abcam, catalog ab290'], knowledgeBase());
  assert.equal(withBase.krt_entries[0].IDENTIFIER, 'Cat# ab290; RRID:AB_303395');
  assert.match(withBase.response, /2 papers list Abcam ab290/);
  // A catalog number the base does not know gets no RRID: none is invented.
  const [unknown] = conversation(['Add rabbit anti-GFP antibody from Abcam, catalog ab6556'], knowledgeBase());
  assert.equal(unknown.krt_entries[0].IDENTIFIER, 'Cat# ab6556');
});

test('missing essentials are asked for, and the answers complete the row', () => {
  const turns = conversation(['add an antibody', 'mouse anti-FLAG M2', 'Sigma-Aldrich', 'F1804', 'show the table']);
  assert.equal(turns[0].needs_clarification, true);
  assert.equal(turns[0].krt_entries.length, 0);
  assert.equal(turns[0].clarifications.length, 3);
  assert.match(turns[0].clarifications[0], /Which antibody/);
  assert.equal(turns[1].intent, 'clarification_answer');
  assert.equal(turns[1].krt_entries.length, 1);
  assert.deepEqual(turns[1].clarifications.length, 2);
  assert.equal(turns[2].krt_entries[0].SOURCE, 'Sigma-Aldrich');
  assert.equal(turns[3].needs_clarification, false);
  assert.deepEqual(turns[3].krt_entries[0], {
    'RESOURCE TYPE': 'Antibody',
    'RESOURCE NAME': 'Mouse anti-FLAG M2',
    SOURCE: 'Sigma-Aldrich',
    IDENTIFIER: 'Cat# F1804',
    'NEW/REUSE': 'reuse',
    'ADDITIONAL INFORMATION': '',
  });
  assert.equal(turns[4].intent, 'list_resources');
  assert.match(turns[4].response, /1\. Antibody: Mouse anti-FLAG M2 \(Sigma-Aldrich; Cat# F1804\)/);
});

test('modify, remove and list keep the table across messages', () => {
  const turns = conversation([
    'Add rabbit anti-GFP antibody from Abcam, catalog ab290',
    'Add HEK293T cells from ATCC, catalog CRL-3216',
    'Add C57BL/6J mice from The Jackson Laboratory, stock 000664',
    'Change the vendor of row 2 to Thermo Fisher',
    'Set the RRID of the GFP antibody to AB-303395',
    'Mark row 3 as new',
    'remove the HEK293T cells',
    'list resources',
    'export as excel',
    'delete row 9',
    '1',
    'clear everything',
  ]);
  assert.deepEqual(
    turns.map((t) => t.intent),
    [
      'add_resource',
      'add_resource',
      'add_resource',
      'modify_resource',
      'modify_resource',
      'modify_resource',
      'remove_resource',
      'list_resources',
      'export',
      'remove_resource',
      'clarification_answer',
      'remove_resource',
    ],
  );
  assert.equal(turns[2].krt_entries.length, 3);
  assert.equal(turns[2].krt_entries[2]['RESOURCE TYPE'], 'Experimental model: Organism/strain');
  assert.equal(turns[3].krt_entries[1].SOURCE, 'Thermo Fisher Scientific');
  assert.equal(turns[4].krt_entries[0].IDENTIFIER, 'Cat# ab290; RRID:AB_303395');
  assert.match(turns[4].response, /corrected to RRID:AB_303395/);
  assert.equal(turns[5].krt_entries[2]['NEW/REUSE'], 'new');
  assert.deepEqual(
    turns[6].krt_entries.map((r) => r['RESOURCE NAME']),
    ['Rabbit anti-GFP antibody', 'C57BL/6J mice'],
  );
  assert.match(turns[7].response, /2\. Experimental model: Organism\/strain: C57BL\/6J mice/);
  assert.deepEqual(turns[8].export, { format: 'excel' });
  assert.equal(turns[9].needs_clarification, true);
  assert.equal(turns[10].krt_entries.length, 1);
  assert.equal(turns[10].krt_entries[0]['RESOURCE NAME'], 'C57BL/6J mice');
  assert.equal(turns[11].krt_entries.length, 0);
});

test('new resources need no vendor or catalog; invalid RRIDs are refused, not stored', () => {
  const turns = conversation([
    'Add pX330-sgFOXP1 plasmid, we made it in this study',
    'add Fiji software RRID:SCR_002285',
    'set the RRID of row 2 to XYZ-1',
  ]);
  assert.equal(turns[0].needs_clarification, false);
  assert.deepEqual(
    [
      turns[0].krt_entries[0]['RESOURCE TYPE'],
      turns[0].krt_entries[0]['RESOURCE NAME'],
      turns[0].krt_entries[0].SOURCE,
      turns[0].krt_entries[0]['NEW/REUSE'],
    ],
    ['Recombinant DNA', 'pX330-sgFOXP1 plasmid', 'This study', 'new'],
  );
  assert.deepEqual([turns[1].krt_entries[1]['RESOURCE TYPE'], turns[1].krt_entries[1].IDENTIFIER], ['Software/code', 'RRID:SCR_002285']);
  assert.equal(turns[1].needs_clarification, false);
  assert.match(turns[2].response, /not a valid RRID/);
  assert.equal(turns[2].krt_entries[1].IDENTIFIER, 'RRID:SCR_002285');
});

test('intents and entities', () => {
  assert.equal(classifyIntent('help', false), 'help');
  assert.equal(classifyIntent('what do we have so far?', false), 'list_resources');
  assert.equal(classifyIntent('download the table as csv', false), 'export');
  assert.equal(classifyIntent('ab290', true), 'clarification_answer');
  assert.equal(classifyIntent('rabbit anti-GFP from Abcam ab290', false), 'add_resource');
  const e = parseEntities('Add mouse monoclonal anti-CD3 antibody, clone OKT3, from BioLegend cat# 317302, RRID: AB 571927, 1:200');
  assert.deepEqual(
    [e.type, e.host, e.target, e.clone, e.vendor, e.catalogNumber, e.rrid, e.additional],
    ['Antibody', 'mouse', 'cd3', 'OKT3', 'BioLegend', '317302', 'AB_571927', 'dilution 1:200'],
  );
  assert.equal(chat(null, 'hello there').intent, 'help');
  assert.deepEqual(newChatState().entries, []);
});

test('any conversation: no exception, well-formed rows and question, and no RRID that neither the user nor the knowledge base gave', () => {
  const fragments = [
    'Add',
    'add a',
    'rabbit anti-GFP antibody',
    'mouse monoclonal anti-actin',
    'HeLa cell line',
    'ImageJ software',
    'plasmid pX330',
    'from Abcam',
    'from Thermo Fisher',
    'vendor Sigma',
    'catalog ab290',
    'cat# A1978',
    'RRID:AB_303395',
    'RRID: AB 12345',
    'RRID:SCR_003070',
    'AB303395',
    'RRID:CVCL_0030',
    'RRID:XYZ_1',
    'clone 9E10',
    'new',
    'reuse',
    'this study',
    'remove',
    'delete row',
    'row 1',
    'row 2',
    'row 0',
    'row -1',
    'row 99999999999999999999',
    'the GFP antibody',
    'change the vendor of',
    'set the RRID of',
    'to',
    'Bio-Rad',
    'list',
    'show the table',
    'export as csv',
    'export excel',
    'help',
    'yes',
    'no',
    'it',
    'type antibody',
    'name',
    '',
    '   ',
    '!!!',
    '🌲',
    'é',
    '"',
    "'",
    '\\',
    'x'.repeat(300),
  ];
  const message = fc.array(fc.constantFrom(...fragments), { minLength: 0, maxLength: 8 }).map((parts) => parts.join(' '));
  const alnum = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const kb = knowledgeBase();
  const known = alnum('AB_303395'); // the only RRID the base holds
  fc.assert(
    fc.property(fc.array(message, { minLength: 1, maxLength: 12 }), fc.boolean(), (messages, withBase) => {
      const turns = conversation(messages, withBase ? kb : null);
      const said = alnum(messages.join(' '));
      for (const turn of turns) {
        assert.equal(typeof turn.response, 'string');
        assert.ok(turn.response.length > 0);
        for (const row of turn.krt_entries) {
          assert.deepEqual(Object.keys(row), [
            'RESOURCE TYPE',
            'RESOURCE NAME',
            'SOURCE',
            'IDENTIFIER',
            'NEW/REUSE',
            'ADDITIONAL INFORMATION',
          ]);
          for (const value of Object.values(row)) assert.equal(typeof value, 'string');
          assert.ok(row['RESOURCE NAME'].trim() !== '', 'a row has a name');
          for (const [, rrid] of row.IDENTIFIER.matchAll(/RRID:\s*([A-Za-z][\w:.-]*)/g)) {
            const canonical = alnum(rrid);
            assert.ok(
              said.includes(canonical) || (withBase && canonical === known),
              `RRID:${rrid} came from nowhere (${JSON.stringify(messages)})`,
            );
          }
        }
        const pending = turn.state.pending;
        if (pending) {
          assert.ok(['add', 'complete', 'modify', 'remove'].includes(pending.action));
          assert.ok(
            pending.index === null || (Number.isInteger(pending.index) && pending.index >= 0 && pending.index < turn.state.entries.length),
            `pending row ${pending.index} of ${turn.state.entries.length}`,
          );
        }
      }
    }),
    { seed: 20261121, numRuns: 400 },
  );
});
