// The type a row's name says by its head word, and how much it weighs against the words of its target or its parts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { typeByContent, typeNamedBy } from './classify.ts';

test("a name's head says its type: an antibody whatever its target, a kit whatever it extracts", () => {
  for (const name of [
    'mouse anti-beta-actin antibody',
    'anti-SARS-CoV-2 antibodies',
    'rabbit anti-SARS-CoV-2 nucleocapsid',
    'Goat anti-Rat IgG (H+L) Cross-Adsorbed Secondary Antibody, Alexa Fluor 647',
    'anti-human IgG',
    'anti-VSV-G antibody',
    'Normal rabbit IgG',
    'mouse IgG2a isotype control',
    'anti-spike IgGs',
  ]) {
    assert.equal(typeNamedBy(name), 'Antibody', name);
    assert.equal(typeByContent(name, '', ''), 'Antibody', name);
  }
  for (const name of [
    'QIAamp Viral RNA Mini Kit',
    'High-Capacity cDNA Reverse Transcription Kit',
    'anti-TOM22 mitochondria isolation kit',
  ]) {
    assert.equal(typeNamedBy(name), 'Critical commercial assay', name);
    assert.equal(typeByContent(name, '', ''), 'Critical commercial assay', name);
  }
  // Another kind's head, or an adjective written with "anti", is not an antibody's name.
  for (const name of [
    'antibody diluent',
    'anti-CD4 MicroBeads',
    'anti-viral activity',
    'Antibiotic-antimycotic (anti-anti)',
    'Antigen',
    'Antimycin A',
    'IgAN',
  ])
    assert.equal(typeNamedBy(name), null, name);
  assert.notEqual(typeByContent('antibody diluent', '', ''), 'Antibody');
  // An RRID's registry still outweighs the name.
  assert.equal(typeByContent('anti-GFP nanobody plasmid', 'Addgene', 'RRID:Addgene_49172'), 'Recombinant DNA');
});
