// The error analysis of B's benchmark (bench/_krt-cv-errors.ts): each wrong or missed identifier of a small table gets
// the cause its row's situation says. No data access: the analysis reads tables in memory.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { MISSED_CAUSES, WRONG_CAUSES, missedIdentifierCauses, wrongIdentifierCauses, type ErrorPaper } from '../bench/_krt-cv-errors.ts';
import { makeRow, type KrtRow } from '../src/services/krt/extract/krt-row.ts';

const antibody = (name: string, source: string, identifier: string): KrtRow =>
  makeRow({ 'RESOURCE TYPE': 'Antibody', 'RESOURCE NAME': name, SOURCE: source, IDENTIFIER: identifier });
const chemical = (name: string, source: string, identifier: string): KrtRow =>
  makeRow({ 'RESOURCE TYPE': 'Chemical, peptide, or recombinant protein', 'RESOURCE NAME': name, SOURCE: source, IDENTIFIER: identifier });

const gold = [
  antibody('Rabbit anti-GFP', 'Abcam', 'Cat# ab290; RRID:AB_303395'),
  antibody('Mouse anti-FLAG M2', 'Sigma-Aldrich', 'Cat# F1804'),
  antibody('Goat anti-ACE2', 'R&D Systems', 'Cat# AF933'),
  antibody('Rabbit anti-NDC80', 'Sigma-Aldrich', 'Cat# HPA066330'),
  antibody('Mouse anti-tubulin', 'Sigma-Aldrich', 'Cat# T6199'),
  antibody('Rat anti-HA', 'Roche', 'Cat# 11867423001'),
];

function paper(rows: KrtRow[], inTable: boolean[], candidates: ErrorPaper['candidates'] = []): ErrorPaper {
  const goldIds = new Set(['AB303395', 'AB290', 'F1804', 'AF933', 'HPA066330', 'T6199', '11867423001']);
  return { paper: 'p', krtLayout: true, rows, inTable, gold, goldIds, ceilingIds: goldIds, candidates };
}

it('gives each wrong identifier of the table served its cause', () => {
  const p = paper(
    [
      antibody('rabbit anti-GFP', 'Thermo Fisher Scientific', 'Cat# A-11122'), // the authors' row, another supplier
      antibody('mouse anti-FLAG M2', 'Sigma-Aldrich', 'Cat# F3165'), // the authors' row, another number
      chemical('EDTA', 'Thermo Fisher Scientific', 'Cat# AM9260G'), // a kind the authors do not list
      antibody('goat anti-rabbit IgG', 'Cell Signaling Technology', 'Cat# 7074'), // their kind, not their row
      antibody('anti-NDC80', 'Sigma-Aldrich', 'Cat# HPA066330-100uL'), // the number with a pack size
      chemical('DAPI', 'Thermo Fisher Scientific', 'Cat# D1306'), // a further mention: not in the table served
      antibody('goat anti-ACE2', 'R&D Systems', 'RRID:AB_355722'), // the authors' row, which gives its catalog number only
    ],
    [true, true, true, true, true, false, true],
  );
  assert.deepEqual(wrongIdentifierCauses(p), [
    { key: 'A11122', cause: WRONG_CAUSES[4] },
    { key: 'F3165', cause: WRONG_CAUSES[5] },
    { key: 'AM9260G', cause: WRONG_CAUSES[1] },
    { key: '7074', cause: WRONG_CAUSES[6] },
    { key: 'HPA066330100UL', cause: WRONG_CAUSES[0] },
    { key: 'AB355722', cause: WRONG_CAUSES[3] },
  ]);
});

it('gives each identifier the table served misses inside the ceiling its cause', () => {
  const p = paper(
    [
      antibody('rabbit anti-GFP', 'Abcam', 'Cat# ab290; RRID:AB_303395'), // found: not missed
      antibody('mouse anti-FLAG M2', 'Sigma-Aldrich', 'Cat# F1804'), // with its number, but a further mention
      antibody('goat anti-ACE2', 'R&D Systems', ''), // a further mention without its number
      antibody('rabbit anti-NDC80', 'Sigma-Aldrich', ''), // in the table, its number only a candidate
      antibody('mouse anti-tubulin', 'Sigma-Aldrich', ''), // in the table, nothing proposed
    ],
    [true, false, false, true, true],
    [{ row: 3, value: 'HPA066330' }],
  );
  assert.deepEqual(
    missedIdentifierCauses(p).sort((a, b) => a.key.localeCompare(b.key)),
    [
      { key: '11867423001', cause: MISSED_CAUSES[0] },
      { key: 'AF933', cause: MISSED_CAUSES[2] },
      { key: 'F1804', cause: MISSED_CAUSES[1] },
      { key: 'HPA066330', cause: MISSED_CAUSES[5] },
      { key: 'T6199', cause: MISSED_CAUSES[3] },
    ],
  );
});
