// Rows from text that are not resources are dropped, fragments cut, duplicates merged, the type from the RRID.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanRowName, cleanRows, isNotAResource } from './clean-rows.ts';
import { makeRow, type ResourceType } from './krt-row.ts';

const item = (type: ResourceType, name: string, source = '', identifier = '') => ({
  row: makeRow({ 'RESOURCE TYPE': type, 'RESOURCE NAME': name, SOURCE: source, IDENTIFIER: identifier }),
});

test('figure-legend pointers, dilutions and function words are cut from names', () => {
  assert.equal(cleanRowName('TEPP-46 (bottom)'), 'TEPP-46');
  assert.equal(cleanRowName('Verteporfin (right)'), 'Verteporfin');
  assert.equal(cleanRowName('PKM2-IN-1 (top left)'), 'PKM2-IN-1');
  assert.equal(cleanRowName('anti-bovine 1:250'), 'anti-bovine');
  assert.equal(cleanRowName('either anti-human IgG'), 'anti-human IgG');
  assert.equal(cleanRowName('SDS-PAGE gel using a'), 'SDS-PAGE gel');
  assert.equal(cleanRowName('dilution of NBT/BCIP'), 'NBT/BCIP');
  assert.equal(cleanRowName('monastrol diluted'), 'monastrol');
  // Parentheses that are part of a name stay.
  assert.equal(cleanRowName('ammonium persulfate (APS)'), 'ammonium persulfate (APS)');
  // A closing parenthesis left over from the sentence.
  assert.equal(cleanRowName('pIRES2-eGFP)'), 'pIRES2-eGFP');
});

test('phenotypes, versions and generic headings are not resources', () => {
  for (const name of [
    'GFP-positive',
    'high-GFP',
    'RFP-labelled',
    'GFP-expressing',
    'Species-specific',
    'Analysis Software',
    'version 10.6.1',
    'antibody',
    'Normal goat serum',
    'Alexa Fluor',
    'final concentration EDTA',
    'digitonin solution described above',
    '30 min',
    'Postnatal day 40-60',
    'PBS',
    '1X PBS',
    'NaCl',
    'Tris-HCl',
    'paraformaldehyde',
    'SARS-CoV-2-positive',
    'EP300-interacting',
    'CO2 until analysis',
    '1E-6 dilution',
    'GraphPad Software',
    'MathWorks Inc.',
    '633 nm',
    '800 MHz',
  ])
    assert.equal(isNotAResource(name), true, name);
  for (const name of [
    'HCC1806',
    'GraphPad Prism',
    'MDA-MB-231',
    'Fiji',
    'anti-GFP',
    'EGFP-N1 plasmid',
    'Alexa Fluor 488 goat anti-rabbit IgG (H+L)',
    'Nuclease-free water',
    'Lipofectamine 3000',
    'DMEM',
    'SARS-CoV-2',
    'Tgfb2 flox',
    'K18-hACE2',
    'Alb-Cre+/-',
    'DNase I treatment',
    'Zeiss ZEN',
    'Agilent Bioanalyzer',
    'HEK 293',
  ])
    assert.equal(isNotAResource(name), false, name);
});

test('cleanRows: drops non-resources, merges duplicates with their identifiers, types by the RRID registry', () => {
  const { rows, merged } = cleanRows([
    item('Chemical, peptide, or recombinant protein', 'TEPP-46', 'MedChemExpress', 'Cat# HY-18657'),
    item('Experimental model: Organism/strain', 'GFP-positive'),
    item('Other', 'TEPP-46 (bottom)'),
    item('Software/code', 'Analysis Software'),
    item('Software/code', 'GraphPad Prism v8'),
    item('Software/code', 'GraphPad Prism 9', 'GraphPad'),
    item('Other', 'HEK-293T', '', 'RRID:CVCL_0063'),
    item('Experimental model: Cell line', 'HEK293T', 'ATCC', 'ATCC: CRL-3216'),
    item('Critical commercial assay', 'polyHEMA-coated', 'Sigma-Aldrich', 'Cat# P3932'),
    item('Software/code', 'Prism software', 'GraphPad'),
    item('Software/code', 'Zeiss Zen 3.1 Blue software', 'Zeiss'),
    item('Software/code', 'Zen blue', ''),
    item('Software/code', 'Zen black', ''),
  ]);
  assert.deepEqual(
    rows.map((r) => [r.row['RESOURCE TYPE'], r.row['RESOURCE NAME'], r.row.SOURCE, r.row.IDENTIFIER]),
    [
      ['Chemical, peptide, or recombinant protein', 'TEPP-46', 'MedChemExpress', 'Cat# HY-18657'],
      ['Software/code', 'GraphPad Prism v8', 'GraphPad', ''],
      ['Experimental model: Cell line', 'HEK-293T', 'ATCC', 'ATCC: CRL-3216; RRID:CVCL_0063'],
      // A phenotype-like name with a catalog number is a product.
      ['Critical commercial assay', 'polyHEMA-coated', 'Sigma-Aldrich', 'Cat# P3932'],
      // One row per tool, whatever its maker's name, version or the word "software" around it.
      ['Software/code', 'Zeiss Zen 3.1 Blue software', 'Zeiss', ''],
      ['Software/code', 'Zen black', '', ''],
    ],
  );
  assert.equal(merged.get(rows[1])!.length, 2, 'GraphPad Prism 9 and Prism software join GraphPad Prism v8');
  assert.equal(merged.get(rows[4])!.length, 1);
  assert.equal(merged.get(rows[0])!.length, 1);
  assert.equal(merged.get(rows[2])!.length, 1);
});
