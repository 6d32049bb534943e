import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deriveKeywords, deriveTitle, parseReference, splitReferences, TITLE_MAX_LENGTH } from './text.ts';

test('title: the first sentence, without its full stop; decimals do not end it', () => {
  assert.equal(deriveTitle('Use sugar-free versions of medicines if possible.'), 'Use sugar-free versions of medicines if possible');
  assert.equal(
    deriveTitle('Apply fluoride varnish (2.26% NaF) to teeth 2 times a year. Repeat as needed.'),
    'Apply fluoride varnish (2.26% NaF) to teeth 2 times a year',
  );
  assert.equal(
    deriveTitle('Maintain standard oral hygiene practices.Brush teeth at least twice daily'),
    'Maintain standard oral hygiene practices',
  );
  assert.equal(deriveTitle('• daily, effective plaque removal is critical'), 'Daily, effective plaque removal is critical');
  assert.equal(deriveTitle('Professional intervention - Very Brief Advice (VBA)'), 'Professional intervention - Very Brief Advice (VBA)');
});

test('title: a lead-in to a bulleted list takes its first item', () => {
  assert.equal(
    deriveTitle('For patients with diabetes: • explain risk related to diabetes• assess and discuss clinical management.'),
    'For patients with diabetes: explain risk related to diabetes',
  );
  assert.equal(
    deriveTitle('Keep control as they are: • at greater risk of periodontitis and• less likely to benefit'),
    'Keep control as they are: at greater risk of periodontitis…',
  );
});

test('title: long text is cut at a word boundary with an ellipsis, never mid-parenthesis', () => {
  const text =
    'Consider recommending daily fluoride mouth rinse for those with active caries and a history of ' +
    'restorations in the last two years (0.05% NaF; 230 ppm F) at a different time to toothbrushing';
  const title = deriveTitle(text);
  assert.ok(title.length <= TITLE_MAX_LENGTH + 1, title);
  assert.ok(title.endsWith('…'));
  assert.ok(text.startsWith(title.slice(0, -1)), 'the title is a prefix of the text');
  assert.ok(!title.includes('('), title);
});

test('keywords: lexicon terms found in the text, synonyms folded', () => {
  assert.deepEqual(deriveKeywords('Breastfed babies experience less tooth decay'), ['caries', 'breastfeeding', 'children']);
  assert.deepEqual(deriveKeywords('Apply resin sealant to permanent teeth on eruption.'), ['fissure sealant']);
  assert.deepEqual(deriveKeywords('Professional intervention - Very Brief Advice (VBA)'), []);
  assert.ok(deriveKeywords('Use toothpaste containing 1,450 ppm fluoride').includes('fluoride'));
});

test('references: split on ";" after a full stop only', () => {
  const refs = splitReferences(
    'World Health Organization. Guideline. Geneva: WHO; 2017.; Public Health England. Health matters. London: PHE; 2017.; ' +
      'Moynihan P, et al. Systematic review. Community Dent Oral Epidemiol. 2019;47(3):217-225.',
  );
  assert.deepEqual(
    refs.map((r) => r.text),
    [
      'World Health Organization. Guideline. Geneva: WHO; 2017.',
      'Public Health England. Health matters. London: PHE; 2017.',
      'Moynihan P, et al. Systematic review. Community Dent Oral Epidemiol. 2019;47(3):217-225.',
    ],
  );
  assert.deepEqual(splitReferences(''), []);
  assert.deepEqual(splitReferences(null), []);
});

test('reference identifiers come only from the text', () => {
  assert.deepEqual(parseReference('Marinho VC. Fluoride toothpastes. Cochrane Database Syst Rev. 2003;(1):CD002278.'), {
    text: 'Marinho VC. Fluoride toothpastes. Cochrane Database Syst Rev. 2003;(1):CD002278.',
    url: null,
    doi: null,
    pmid: null,
  });
  const withIds = parseReference('Smith J. Title. J Dent. 2020. doi:10.1000/xyz.123. PMID: 12345678. https://example.org/a.');
  assert.equal(withIds.doi, '10.1000/xyz.123');
  assert.equal(withIds.pmid, '12345678');
  assert.equal(withIds.url, 'https://example.org/a');
  assert.equal(parseReference('See https://doi.org/10.1002/14651858.CD000978.pub5').doi, '10.1002/14651858.CD000978.pub5');
});
