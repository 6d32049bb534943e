// Text rules shared by the oral-health parsers: recommendation titles, keywords and references. Each rule
// derives from the source text only; nothing here adds a fact the source does not state.

import type { ReferenceInput } from './types.ts';

export const TITLE_MAX_LENGTH = 120;

/** The first sentence of a text, ending at ".", "!" or "?" (before a space, a bullet, an upper-case letter or
 * the end; so "2.26%" does not end it) or at the first "•" bullet; and the text after it. */
function firstSegment(text: string): { segment: string; rest: string } {
  const clean = text.replace(/^[\s•·\-–*]+/, '');
  let end = clean.length;
  const bullet = clean.indexOf('•');
  if (bullet > 0) end = bullet;
  const sentence = /[.!?](?=\s|$|•|\p{Lu})/u.exec(clean.slice(0, end));
  if (sentence) end = Math.min(end, sentence.index + 1);
  return { segment: clean.slice(0, end).trim(), rest: clean.slice(end).trim() };
}

/**
 * A recommendation's title, derived from its text: its first sentence (see firstSegment) without final
 * punctuation; when that sentence is a lead-in to a bulleted list ("For patients with diabetes: • explain
 * risk …"), the first item is joined to it ("For patients with diabetes: explain risk …"). The first letter
 * is capitalised, and a title longer than TITLE_MAX_LENGTH characters is cut at a word boundary with "…".
 */
export function deriveTitle(text: string, maxLength = TITLE_MAX_LENGTH): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean === '') return '';
  const { segment, rest } = firstSegment(clean);
  let title = segment.replace(/[\s.:;,!?]+$/u, '');
  let truncated = false;
  if (segment.endsWith(':') && rest.startsWith('•')) {
    const item = firstSegment(rest).segment.replace(/[\s.:;,!?]+$/u, '');
    // An item cut at the next bullet can end in a dangling "and"/"or"; drop it and mark the cut.
    const dangling = /\s+(?:and|or)$/i.exec(item);
    if (item !== '') title = `${title}: ${dangling ? item.slice(0, dangling.index) : item}`;
    truncated = dangling !== null;
  }
  if (title === '') title = clean;
  if (title.length > maxLength) {
    const cut = title.slice(0, maxLength);
    const lastSpace = cut.lastIndexOf(' ');
    title = lastSpace > maxLength / 2 ? cut.slice(0, lastSpace) : cut;
    // Do not leave a parenthesis open: cut before it instead ("… rinse (0.05%…" → "… rinse…").
    const open = title.lastIndexOf('(');
    if (open > maxLength / 2 && title.indexOf(')', open) === -1) title = title.slice(0, open);
    title = title.replace(/[\s.:;,(–-]+$/u, '');
    truncated = true;
  }
  if (truncated) title += '…';
  return title.charAt(0).toUpperCase() + title.slice(1);
}

// Keyword lexicon: a canonical term and the patterns that show it in a text. A text gets the terms whose
// pattern it contains; synonyms map onto one term ("tooth decay" → caries) so a search for the term finds it.
const KEYWORD_LEXICON: readonly (readonly [string, RegExp])[] = [
  ['caries', /\bcaries\b|\b(?:tooth|dental) decay\b/i],
  ['fluoride', /\bfluorid|\bNaF\b|\bppm ?F\b/i],
  ['fluoride varnish', /\bvarnish/i],
  ['toothpaste', /\btoothpastes?\b|\bdentifrice/i],
  ['toothbrushing', /\btooth ?brush|\bbrush(?:ed|ing)?\b[^.]{0,30}\bteeth\b/i],
  ['mouth rinse', /\bmouth ?(?:rinse|wash)|\bmouthrinse/i],
  ['fissure sealant', /\bseal(?:ant|ants|ing)\b/i],
  ['sugar', /\bsugar|\bsugary\b/i],
  ['diet', /\bdiet(?:ary)?\b|\bfoods?\b|\beatwell\b|\bnutrition/i],
  ['breastfeeding', /\bbreast ?(?:fe(?:e|d)|milk)/i],
  ['bottle feeding', /\bbottle/i],
  ['medication', /\bmedicat|\bmedicines?\b/i],
  ['recall interval', /\brecall\b/i],
  ['plaque', /\bplaque\b/i],
  ['interdental cleaning', /\binterdental|\bfloss|\bbetween (?:the )?teeth\b/i],
  ['gum health', /\bgingiv|\bperiodont|\bgums?\b/i],
  ['dental implants', /\bimplants?\b/i],
  ['dentures', /\bdentures?\b/i],
  ['orthodontics', /\borthodontic/i],
  ['diabetes', /\bdiabet/i],
  ['smoking', /\bsmok|\bcigarette|\btobacco|\bvarenicline\b/i],
  ['alcohol', /\balcohol|\bAUDIT[- ]C\b/i],
  ['oral cancer', /\b(?:oral|mouth|oral cavity) cancer|\bmalignan/i],
  ['dry mouth', /\bdry mouth|\bxerostomia|\bsaliva/i],
  ['tooth wear', /\btooth wear\b|\berosi(?:on|ve)\b/i],
  ['behaviour change', /\bbehaviou?r(?:al)? (?:change|support)/i],
  ['referral', /\brefer(?:red|ral)?\b/i],
  ['risk', /\brisks?\b/i],
  ['children', /\bchild|\bbab(?:y|ies)\b|\binfants?\b|\btoddlers?\b|\byoung people\b/i],
  ['pregnancy', /\bpregnan/i],
  ['older adults', /\bolder (?:adults|people)\b/i],
  ['dental trauma', /\btrauma|\binjur(?:y|ies)\b|\bmouthguard/i],
];

/** Keywords of a text: the lexicon terms it contains, in lexicon order (documented rule, see above). */
export function deriveKeywords(text: string): string[] {
  return KEYWORD_LEXICON.filter(([, pattern]) => pattern.test(text)).map(([term]) => term);
}

/**
 * Splits a reference list joined with "; " into single references. A reference ends with a full stop, so
 * the separator is ";" after "." ("…London: PHE; 2017.; Department of Health. …"); the ";" inside a
 * citation ("2019;47(3)", "WHO; 2017") is not preceded by a full stop and stays.
 */
export function splitReferences(joined: string | null | undefined): ReferenceInput[] {
  if (!joined) return [];
  return joined
    .split(/(?<=\.)\s*;\s+/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map(parseReference);
}

const TRAILING_PUNCTUATION = /[.,;:)\]]+$/;

/** One reference with the identifiers its text contains; an identifier not in the text stays null. */
export function parseReference(text: string): ReferenceInput {
  const urlMatch = /\bhttps?:\/\/[^\s<>"]+/i.exec(text);
  const url = urlMatch ? urlMatch[0].replace(TRAILING_PUNCTUATION, '') : null;
  const doiMatch = /\b(10\.\d{4,9}\/[^\s"<>]+)/.exec(text);
  const doi = doiMatch ? doiMatch[1].replace(TRAILING_PUNCTUATION, '') : null;
  const pmidMatch = /\bPMID:?\s*(\d{1,9})\b/i.exec(text);
  return { text, url, doi, pmid: pmidMatch ? pmidMatch[1] : null };
}
