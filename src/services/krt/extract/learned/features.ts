// What the classifier knows about a candidate resource: where its mentions came from, whether it has a vendor or
// an identifier, what the gazetteer says of its name (how many papers list it; how often a paper that mentions it
// lists it), its likely type, the sections and words around its mentions, and the shape of its name. And how a
// candidate becomes a KRT row (name, type, source, identifier as written, the sentence it came from).

import { typeByContent, typeNamedBy } from '../classify.ts';
import { formatIdentifier, parseIdentifierText } from '../identifier.ts';
import { makeRow, RESOURCE_TYPES, type KrtRow, type ResourceType } from '../krt-row.ts';
import type { Candidate, CandidateMention } from './candidates.ts';
import { vendorOf } from './candidates.ts';
import type { Gazetteer, GazetteerStats, PaperContribution } from './gazetteer.ts';
import type { ArticleText } from './sentences.ts';

const bucket = (n: number, edges: readonly number[]) => {
  let i = 0;
  while (i < edges.length && n >= edges[i]) i++;
  return i;
};

const METHODS =
  /method|material|procedure|experimental|reagent|protocol|statist|animal|culture|antibod|plasmid|construct|clon|imaging|microscop|sequenc|western|immuno|pcr|transfect|software|analys|quantif|staining|isolation|preparation|purification|assay|strain|mice|mouse|fly|flies|zebrafish|surgery|injection|virus|vector/i;
const RESULTS = /^(?:results?|introduction|background|discussion|conclusions?|abstract|summary|significance)\b/i;

const CUES: readonly [string, RegExp][] = [
  ['purchased', /\b(?:purchased|obtained|bought|ordered|acquired|supplied|provided)\b/i],
  ['gift', /\b(?:gift|kindly|generously|courtesy)\b/i],
  ['from', /\bfrom\b/i],
  ['using', /\b(?:using|used|with)\b/i],
  ['version', /\b(?:version|v\d|software|package|script|code)\b/i],
  ['kit', /\bkits?\b/i],
  ['antibody', /\bantibod|\bdilut|\b1\s?:\s?\d{2,}/i],
  ['cells', /\bcells?\b|\bcell line/i],
  ['animals', /\bmice\b|\bmouse\b|\brats?\b|\bflies\b|\bzebrafish\b|\bstrain/i],
  ['plasmid', /\bplasmid|\bvector|\bconstruct|\bcloned\b/i],
  ['primer', /\bprimer|\bsirna|\bsgrna|\bshrna|\bguide|\boligo/i],
  ['treated', /\b(?:treated|incubated|supplemented|added|stained|labelled|labeled|blocked|fixed|mounted)\b/i],
  ['deposited', /\b(?:deposited|available|accession|repository)\b/i],
  ['cite', /\bet al\.|\(\d{4}\)|\b(?:19|20)\d\d\b/],
  ['result', /\b(?:significant|increased|decreased|reduced|showed|revealed|observed|expression|levels?)\b/i],
];

function representative(c: Candidate): CandidateMention {
  const rank = (m: CandidateMention) =>
    (m.row && m.row.IDENTIFIER ? 8 : 0) +
    (m.origin.startsWith('rule') || m.origin === 'table' ? 4 : m.origin.startsWith('pattern') ? 2 : 1);
  let best = c.mentions[0];
  for (const m of c.mentions) if (rank(m) > rank(best)) best = m;
  return best;
}

function bestGazetteer(
  c: Candidate,
  gazetteer: Gazetteer | null,
  without?: PaperContribution,
): { key: string; stats: GazetteerStats } | null {
  if (!gazetteer) return null;
  let best: { key: string; stats: GazetteerStats } | null = null;
  for (const m of c.mentions) {
    if (!m.gazetteerKey) continue;
    const stats = gazetteer.get(m.gazetteerKey, without);
    if (stats && stats.listed > 0 && (!best || stats.listed > best.stats.listed)) best = { key: m.gazetteerKey, stats };
  }
  return best;
}

function majorityType(types: Partial<Record<ResourceType, number>>): ResourceType | null {
  let best: ResourceType | null = null;
  let n = 0;
  for (const type of RESOURCE_TYPES) if ((types[type] ?? 0) > n) [best, n] = [type, types[type]!];
  return best;
}

export interface Described {
  features: string[];
  row: KrtRow;
  /** The sentence the row came from ('' for a generic table row). */
  sentence: string;
}

/** Features of a candidate and the row it would be. */
export function describe(c: Candidate, text: ArticleText, gazetteer: Gazetteer | null, without?: PaperContribution): Described {
  const rep = representative(c);
  const f = new Set<string>();
  for (const m of c.mentions) f.add(`o:${m.origin}`);
  f.add(`n:${bucket(c.mentions.length, [2, 3, 5, 9])}`);
  if (c.identifiers.size) f.add('id');
  for (const k of c.identifiers) f.add(`id:${k.split(':')[0]}`);
  const vendor = vendorOf(c, text);
  if (vendor) f.add('vendor');
  const gaz = bestGazetteer(c, gazetteer, without);
  const gl = gaz ? bucket(gaz.stats.listed, [1, 2, 4, 8, 16]) : 0;
  f.add(`g:l${gl}`);
  if (gaz) {
    const rate = (gaz.stats.mentionedListed + 1) / (gaz.stats.mentioned + 2);
    f.add(`g:r${Math.min(4, Math.floor(rate * 5))}`);
    f.add(gaz.key === c.key ? 'g:exact' : 'g:inside');
  }
  // The type feature: a rule's type, else the gazetteer's majority (the kind other papers list the name as, which says
  // how likely a table is to list it), else from the name's content. The row's type puts what the name's head says
  // (an antibody, a kit) before the gazetteer's: that type is of a name other papers listed, often a part of this one
  // ("SARS-CoV-2" in "anti-SARS-CoV-2 antibody", "IgG" in "anti-human IgG") and sometimes typed once by one table.
  const ruleType = c.mentions.find((m) => m.row && m.row['RESOURCE TYPE'] !== 'Other')?.row?.['RESOURCE TYPE'] ?? null;
  const identifiers = formatIdentifier(c.mentions.flatMap((m) => (m.row ? parseIdentifierText(m.row.IDENTIFIER) : [])));
  const gazetteerType = gaz ? majorityType(gaz.stats.types) : null;
  const type: ResourceType = ruleType ?? gazetteerType ?? typeByContent(rep.surface, vendor, identifiers);
  const rowType: ResourceType = ruleType ?? typeNamedBy(rep.surface) ?? type;
  f.add(`t:${type}`);
  // Sections and sentences.
  let methods = false;
  let results = false;
  for (const m of c.mentions) {
    if (m.sentence < 0) {
      f.add('s:table');
      continue;
    }
    const s = text.sentences[m.sentence];
    const sections = s.sections.join(' / ');
    if (!sections) f.add('s:none');
    if (METHODS.test(sections)) methods = true;
    if (s.sections.some((t) => RESULTS.test(t.trim()))) results = true;
    for (const [name, re] of CUES) if (re.test(s.text)) f.add(`c:${name}`);
  }
  if (methods) f.add('s:methods');
  if (results) f.add('s:results');
  if (results && !methods) f.add('s:results-only');
  // Shape of the name.
  const surface = rep.surface;
  const words = surface.split(/\s+/).length;
  f.add(`sh:w${Math.min(words, 5)}`);
  f.add(`sh:len${bucket(surface.length, [4, 8, 16, 32, 64])}`);
  if (/\d/.test(surface)) f.add('sh:digit');
  if (/[a-z][A-Z]/.test(surface)) f.add('sh:camel');
  if ((surface.match(/[A-Z]/g) ?? []).length >= 2) f.add('sh:caps');
  if (surface === surface.toLowerCase()) f.add('sh:lower');
  if (/[α-ωΑ-Ω]/.test(surface)) f.add('sh:greek');
  if (/[®™]/.test(surface)) f.add('sh:trademark');
  for (const m of c.mentions) if (m.sentence >= 0 && /^\s*\(/.test(text.sentences[m.sentence].text.slice(m.end))) f.add('paren-after');
  // Crosses the linear model cannot make itself.
  f.add(`t:${type}|g:l${gl}`);
  if (c.identifiers.size) f.add(`t:${type}|id`);
  if (vendor) f.add(`t:${type}|vendor`);
  for (const m of c.mentions) f.add(`${m.origin}|${methods ? 'methods' : 'other'}`);
  const ruleRow = c.mentions.find((m) => m.row)?.row;
  const row = makeRow({
    'RESOURCE TYPE': rowType,
    'RESOURCE NAME': surface,
    SOURCE: vendor,
    IDENTIFIER: identifiers,
    'NEW/REUSE': c.mentions.some((m) => m.row?.['NEW/REUSE'] === 'new') ? 'new' : 'reuse',
    'ADDITIONAL INFORMATION': ruleRow?.['ADDITIONAL INFORMATION'] ?? '',
  });
  return { features: [...f], row, sentence: rep.sentence >= 0 ? text.sentences[rep.sentence].text : '' };
}
