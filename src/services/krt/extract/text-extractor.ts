// The text extractor: key resources from the methods text of a paper that has no author table. It reads
// paragraphs, captions and generic reagent tables and recognises
//   - vendor/catalog parentheticals: "rabbit anti-GFP (Abcam, ab290, 1:1000)", "(Sigma cat. no. E1510)";
//   - RRIDs of every registry, with or without parentheses;
//   - labelled catalog numbers, stock numbers (JAX, BDSC, VDRC), Addgene plasmids, ATCC cell lines;
//   - software with versions ("RELION v3.1", "GraphPad Prism 9"), known cell lines and strain backgrounds;
//   - oligonucleotide sequences, data accessions (GEO, SRA, PRIDE, PDB, EMDB, EMPIAR, Zenodo …), protocols.io.
// Every row carries only what the text says: no identifier is ever completed or guessed.

import { isElement, textOf, type XmlElement } from '../jats/tree.ts';
import { findAccessions } from './accessions.ts';
import { genericTableRows } from './author-table.ts';
import { typeByContent, typeOfCategory } from './classify.ts';
import { formatIdentifier, identifierKeys, parseIdentifierText, splitOutsideBrackets, type IdentifierPart } from './identifier.ts';
import { makeRow, type KrtRow, type ResourceType } from './krt-row.ts';
import { CELL_LINE, SOFTWARE, STRAIN_BACKGROUND } from './lexicon.ts';
import { findVendor, vendorKey } from './vendors.ts';

export const TEXT_EXTRACTOR_MODEL = 'krt-text-1';

export interface TextUnit {
  text: string;
  /** Titles of the enclosing sections, innermost last. */
  sections: string[];
}

// Parts of an article that never describe the resources used (or describe them in someone else's paper).
const SKIP_ELEMENTS = new Set([
  'front',
  'ref-list',
  'ack',
  'fn-group',
  'author-notes',
  'funding-group',
  'glossary',
  'contrib-group',
  'permissions',
  'history',
  'notes',
  'bio',
  'table-wrap-foot',
]);
const SKIP_SECTIONS =
  /acknowledg|funding|author contributions?|competing interests?|conflicts? of interest|declaration of interests?|references|abbreviations|supplementary (figure|table) legends?|ethics declarations?/i;

/** Paragraph-like units of text plus the generic reagent tables of an article. */
export function collectUnits(article: XmlElement, skipTables: ReadonlySet<XmlElement>): { units: TextUnit[]; tables: XmlElement[] } {
  const units: TextUnit[] = [];
  const tables: XmlElement[] = [];
  const visit = (el: XmlElement, sections: string[]) => {
    let here = sections;
    for (const child of el.children) {
      if (!isElement(child) || SKIP_ELEMENTS.has(child.name)) continue;
      if (child.name === 'title' && (el.name === 'sec' || el.name === 'app')) {
        here = [...sections, textOf(child)];
        continue;
      }
      if (
        (child.name === 'sec' || child.name === 'app') &&
        SKIP_SECTIONS.test(textOf(child.children.find((c) => isElement(c) && c.name === 'title')))
      )
        continue;
      if (child.name === 'table-wrap') {
        if (!skipTables.has(child)) tables.push(child);
        continue;
      }
      if (child.name === 'p' || child.name === 'list-item' || child.name === 'def' || child.name === 'term') {
        const text = textOf(child, { skip: new Set(['table-wrap', 'fig', 'list']) });
        if (text) units.push({ text, sections: here });
      }
      visit(child, here);
    }
  };
  visit(article, []);
  return { units, tables };
}

// ---------------------------------------------------------------------------------------------------------
// Small text helpers

// The space after a stop word is not consumed, so that stop words in a row ("we used", "was used", "incubated with")
// each end the clause before the name.
const STOP_BEFORE =
  /\s(?:and|or|with|using|against|by|from|in|on|into|onto|to|for|at|via|per|as|were|was|is|are|be|been|being|used|purchased|obtained|incubated|stained|treated|cultured|transfected|transduced|infected|diluted|added|containing|including|such as|e\.g\.|i\.e\.|then|after|before|following|under|over|through|between|within|where|which|that|this|these|those|each|all|both|either|of the|we|our|they|their)(?=\s)/i;

/** The noun phrase a resource mention ends with, just before `index` ("… stained with rabbit anti-GFP" → "rabbit anti-GFP"). */
function nameBefore(text: string, index: number): string {
  let window = text.slice(Math.max(0, index - 200), index);
  // "horseradish peroxidase (HRP) (A0168, Sigma)": look past parentheticals that end right here.
  for (let guard = 0; guard < 3; guard++) {
    const trimmed = window.replace(/\s+$/, '');
    if (!trimmed.endsWith(')')) break;
    let depth = 0;
    let i = trimmed.length - 1;
    for (; i >= 0; i--) {
      if (trimmed[i] === ')') depth++;
      else if (trimmed[i] === '(' && --depth === 0) break;
    }
    if (i <= 0) break;
    window = trimmed.slice(0, i);
  }
  let clause = ` ${window.split(/[.;:!?](?:\s|$)|,\s|\(|\)|\[|\]/).pop() ?? ''}`;
  const pieces = clause.split(STOP_BEFORE);
  let name = pieces.pop() ?? '';
  // "antibody to Keap1", "antibodies against GFP": the stop word belongs to the name.
  const lastStop = clause
    .slice(0, clause.length - name.length)
    .match(/((?:[\w-]+\s+){0,3}(?:antibod(?:y|ies)|antiserum|antisera|nanobod(?:y|ies))\s+(?:to|against)\s?)$/i);
  if (lastStop) name = lastStop[1] + name;
  clause = name
    .trim()
    .replace(
      /^(?:(?:the|a|an|some|each|all|fresh|final|we|first|then|[vw]\/[vw]|\d+(?:[.,]\d+)?\s*(?:%|[µμunpm]?[gGlLM]|U|units?|x|×|ml|mL|µl|μl|mg|µg|μg|ng|mM|µM|μM|nM|pM|mol|mmol|kDa|v\/v|w\/v)(?:\/\w+)?|\d+:\d+(?:,\d+)?)\s+)+/gi,
      '',
    )
    .trim();
  const words = clause.split(/\s+/).filter(Boolean);
  const kept = words
    .slice(-8)
    .join(' ')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N})\]+]+$/gu, '');
  if (/^(?:table|tables|fig|figs|figure|figures|supplementary|suppl|extended data|data|refs?|reference)\b/i.test(kept)) return '';
  return /\p{L}/u.test(kept) ? kept : '';
}

/**
 * Parenthetical groups "( … )" with their position, outer ones first; with `nested`, inner ones too. `brackets`
 * "[" "]" reads square-bracketed groups instead ("1 mg/mL yeast tRNA [Thermo 15401029]").
 */
function parentheticals(text: string, nested = false, brackets = '()'): { start: number; end: number; content: string }[] {
  const out: { start: number; end: number; content: string }[] = [];
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === brackets[0]) open.push(i);
    else if (c === brackets[1] && open.length > 0) {
      const start = open.pop()!;
      if (nested || open.length === 0) out.push({ start, end: i + 1, content: text.slice(start + 1, i) });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

function splitTop(text: string): string[] {
  // "1:10,000" and "1,000" keep their comma.
  const parts = splitOutsideBrackets(
    text,
    (i, part) => text[i] === ';' || (text[i] === ',' && !(/\d/.test(part.slice(-1)) && /\d/.test(text[i + 1] ?? ''))),
  );
  return parts.map((p) => p.trim()).filter(Boolean);
}

const NOT_A_CODE =
  /^(?:\d+\s*[x×]|\d+\s*:\s*\d+|1\/\d+|\d+(?:\.\d+)?\s*(?:%|[µμu]?[gmlL]|mg|µg|μg|ng|ml|mL|µl|μl|mM|µM|μM|nM|pM|kDa|h|min|s|sec|°C|rpm|x\s?g|×\s?g|U|IU)\b.*|(?:19|20)\d\d[a-z]?|p\s*[<=>]\s*.*|n\s*=\s*.*|(?:fig|figure|table|supplementary|suppl|ref|eq)\.?\s.*|v?\d+(?:\.\d+){1,3}[a-z]?)$/i;
const LOCATION =
  /^(?:USA|U\.S\.A\.|UK|U\.K\.|United States|United Kingdom|Germany|France|Japan|China|Canada|Switzerland|Netherlands|The Netherlands|Denmark|Sweden|Belgium|Italy|Spain|Austria|Australia|Israel|Korea|South Korea|Singapore|India|Ireland|Norway|Finland|[A-Z]{2}|[A-Z][a-z]+(?:\s[A-Z][a-z]+)?,?\s?[A-Z]{2}|St\.?\s+Louis|Carlsbad|Waltham|Burlington|Darmstadt|Cambridge|San Diego|Danvers|Hercules|Madison|Rockford|Eugene|Mannheim|Basel|Hilden|Ipswich|Foster City|Mountain View|Redwood City|Santa Clara|Tokyo|Shanghai|Beijing)$/;
const CLONE_LABEL = /^clone\s|^clone:/i;

// Written in a supplier's parenthetical without being its catalog number: a fluorophore conjugate ("PE/Cy7",
// "PerCP/Cy5.5", "BV605"; the brilliant and Horizon dyes "BUV395", "BB515", "BYG584", "SB600", "V450", misspelt
// ones such as "BVC421", but not Fisher's "BP231"; Alexa Fluor and DyLight by wavelength, "AF647", "DL650", but not
// R&D's "AF644") or a KEGG pathway ("mmu04050").
const CONJUGATE_OR_PATHWAY =
  /^(?:(?:PE|APC|PerCP|FITC|BV|BUV|BB)(?:[\/-]?(?:Cy|Fire|eFluor|Vio|Dazzle|CF)?\d{1,3}(?:\.\d)?)+|(?:BV[A-Z]?|BUV|BB|BYG|RB|RY|SB|V|eF|eFluor|Cy)\d{1,3}(?:\.\d)?|(?:AF|A|DL|DyLight)[\/-]?(?:350|405|430|488|514|532|546|555|568|594|610|633|647|650|660|680|700|750|755|790|800)|(?:hsa|mmu|rno|dre|dme|cel|sce|ath|eco|ko|map)\d{4,5})$/;

// An antibody's clone written in its supplier's parenthetical without the word "clone": digits, letters, digits
// ("25B6", "9E10", "12CA5") or Santa Cruz's letter–number clones ("B-9", "M-6"). The Developmental Studies
// Hybridoma Bank's catalog numbers are its clones' names ("1D4, DSHB"): there the clone is the catalog number.
const CLONE_SHAPE = /^(?:\d{1,3}[A-Z]{1,3}\d{1,3}(?:\.\d{1,2})?|[A-Z]{1,2}-\d{1,2})$/;
// Beside an antibody, two letters, a hyphen and three digits are a clone too ("anti-CD138 antibody (DL-101,
// BioLegend)"): antibody suppliers' catalog numbers of that shape have four digits or more ("BA-1000", "A-11008").
const ANTIBODY_CLONE_SHAPE = /^[A-Z]{1,2}-\d{3}$/;
const ANTIBODY_NAME = /\banti-?|α-|\bantibod|\bIg[GMAEY]\b/i;
// A plasmid's name ("pX458", "pcDNA3.1", "pNC1136"): a lower-case p, letters, then digits.
const HYBRIDOMA_BANK = /DSHB|Hybridoma Bank/i;
const PLASMID_NAME = /^p[A-Za-z]{1,10}[-_.]?\d[\w.-]*$/;
const CELL_LINE_ALONE = new RegExp(`^(?:${CELL_LINE.source})$`);
const STRAIN_ALONE = new RegExp(`^(?:${STRAIN_BACKGROUND.source})$`, 'i');
// A parenthesis of three or more items after a plural of named things, with no known supplier in or just before it,
// lists their names ("three healthy cell lines (BJ-siPS, 1016A, KOLFC1)"; but "Rabbit ESCs (RIKEN BRC, AES0174)").
const NAMES_LISTED = /\b(?:lines|clones|strains|plasmids|constructs|vectors|mutants|alleles|genes|isolates|hiPSCs|iPSCs|hESCs|ESCs)$/i;

/**
 * Tokens the paper writes as the name of a gene, protein, cell line or plasmid: "anti-ALDH1A3", "ALDH1A3+",
 * "ALDH1A3-positive", "ALDH1A3 expression", "KOLFC1 hiPSCs", "px458 plasmid". Such a token read bare in a
 * supplier's parenthetical ("(ALDH1A3, 1:300, Abcam)") is the antibody's target or the resource's name, not its
 * catalog number; written after a cue ("Cat# …") it still is one.
 */
export function namesWrittenIn(texts: readonly string[]): Set<string> {
  const names = new Set<string>();
  const token = String.raw`([A-Za-z][A-Za-z0-9]*\d(?:[A-Za-z0-9.]*[A-Za-z0-9])?)`;
  const target = new RegExp(String.raw`(?:\banti|α)[- ]?${token}(?![\w-])`, 'g');
  const named = new RegExp(
    String.raw`(?<![\w-])${token}(?:\+|-positive|-negative|\s+(?:cells?|hiPSCs?|iPSCs?|hESCs?|ESCs?|lines?|cell lines?|mice|plasmids?|vectors?|constructs?|genes?|mRNAs?|proteins?|expression|knock(?:down|out)|promoters?|locus|levels?|transcripts?|positive|negative|staining|signal))(?![\w-])`,
    'g',
  );
  // A compound named by its code: "treated with NU7441, a DNA-PKcs inhibitor", "the ATM inhibitor KU55933",
  // "10 µM Y27632".
  const compound = new RegExp(
    String.raw`(?<![\w-])${token},?\s+(?:an?|the)\s+(?:[\w/-]+\s+){0,3}(?:inhibitor|agonist|antagonist|activator|blocker)s?\b|\b(?:inhibitor|agonist|antagonist|activator|blocker|ATMi|ATRi)\s+${token}(?![\w-])|\b\d+(?:\.\d+)?\s?[nµμm]M\s+${token}(?![\w-])`,
    'g',
  );
  for (const text of texts) {
    for (const re of [target, named]) for (const m of text.matchAll(re)) names.add(m[1]);
    for (const m of text.matchAll(compound)) names.add(m[1] ?? m[2] ?? m[3]);
  }
  return names;
}

// Cell Signaling Technology's numbers end in a capital S, L or P ("9706S", "5425S"): not seconds or litres.
const CST_CODE = /^\d{4,5}[SLP]$/;
// Written beside a supplier without being its catalog number: an antibody's target ("ANTI-RAD51"), a CAS registry
// number ("9036-19-5", the substance, not the product), an absorbance ("A280nm", "OD600"), a MATLAB release ("R2015b").
const NOT_A_PRODUCT = /^(?:anti-.*|\d{2,7}-\d{2}-\d|A\d{3}\s?nm|OD\d{3}(?:\s?nm)?|R20\d\d[ab])$/i;

function looksLikeCatalog(token: string): boolean {
  const t = token.trim();
  if (t.length < 3 || t.length > 28 || /\s/.test(t)) return false;
  if (!/\d/.test(t)) return false;
  if (!/^[#]?[A-Za-z0-9][A-Za-z0-9._\/+-]*[A-Za-z0-9]$/.test(t)) return false;
  if (NOT_A_PRODUCT.test(t)) return false;
  return CST_CODE.test(t) || (!NOT_A_CODE.test(t) && !CONJUGATE_OR_PATHWAY.test(t));
}

// An instrument's code beside its maker is its model ("confocal microscope (Zeiss, LSM780)"), not a catalog number.
const INSTRUMENT =
  /\b(?:microscopes?|cameras?|objectives?|vibratomes?|(?:flow )?cytometers?|sequencers?|photomultipliers?|scanners?|plate readers?|centrifuges?|rotors?|amplifiers?|digitizers?|converters?|vibrometers?|lasers?|detectors?|spectrometers?|spectrophotometers?|thermocyclers?|collimators?|ultramicrotomes?|micromanipulators?|sCMOS|EMCCD)\b/i;

export type MentionRule = 'parenthetical' | 'labelled-identifier' | 'stock-number' | 'software' | 'model' | 'oligo' | 'accession';

export interface Mention {
  /** Where the mention's identifier or name is in the unit's text (the name ends before it). */
  index: number;
  /** Which finder made it. */
  rule?: MentionRule;
  name: string;
  source: string;
  parts: IdentifierPart[];
  additional: string[];
  type?: ResourceType;
  fresh?: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// Finders

// A catalog number that is unmistakable even without a label: letters and digits mixed ("ab290", "sc-5989",
// "11558-1-AP", "A-21244", "9706S"), not a cell line or gene symbol ("HEK293", "CD45") — those have a short
// letter prefix glued to at most three digits or sit in a list of names.
// Sino Biological's numbers join digits to a letter–digit suffix ("40591-V49H", "40634-V08B").
const STRONG_CODE =
  /^(?:[A-Za-z]{1,4}-?\d{4,}[A-Za-z0-9-]*|\d{3,}-\d+(?:-[A-Za-z0-9]+)*|\d{4,}[A-Za-z]{1,4}|[A-Za-z]{2,4}-\d{3,}[A-Za-z0-9-]*|\d{4,}-[A-Z]{1,3}\d{2,}[A-Z]*\d?|\d{2,}-\d{3,}-\d{2,}|\d{5,}(?:-[A-Z]{1,3}\d?)?)$/;
// Catalog number formats specific to one supplier (Abcam ab…, Santa Cruz sc-…, Atlas HPA/CAB…, Proteintech
// …-AP, Thermo MA/PA…-…, Alexa secondaries A-…, Jackson ImmunoResearch NNN-NNN-NNN, R&D AF/MAB…, Novus NB…).
const VENDOR_FORMAT =
  /^(?:ab\d{3,7}|sc-\d{3,7}(?:-[A-Z]+)?|HPA\d{6}|CAB\d{6}|\d{4,6}-\d-(?:AP|Ig)|(?:MA|PA)\d-\d{3,6}|A-?\d{5}|\d{3}-\d{3}-\d{3}|AF\d{3,5}|MAB\d{3,6}|NBP?\d-\d{4,6})$/i;

// An organisation written in a parenthetical without being in the vendor list ("Swant", "Frontier Institute").
const ORGANISATION =
  /^(?:[A-Z][\w&.'’-]*)(?:\s+(?:[A-Z][\w&.'’-]*|of|and|for|&))*(?:\s+(?:Inc|Ltd|LLC|GmbH|Co|Corp|AG|SA|BV|Institute|Laboratories|Labs?|Company|Biotech|Bio|Scientific|Biosciences|Biotechnology|Technologies))?\.?$/;
const NOT_ORGANISATION =
  /^(?:Fig|Figure|Table|Supplementary|Suppl|Extended|Data|See|Ref|Refs|Eq|Methods|Materials|Results|Discussion|Reviewed|Unpublished|Personal|Data not shown|Gift|Kind gift|Courtesy|Mouse|Rabbit|Rat|Goat|Donkey|Chicken|Sheep|Guinea pig|Human|Monoclonal|Polyclonal|IgG\w*|Clone|Lot|Batch|Mean|SD|SEM|Median|Total|Wild type|WT|Control)\b/i;

/** Vendor/catalog/RRID parentheticals: "(Abcam, ab290, RRID:AB_303395, 1:1000)", "(25B6, ab18465, Abcam)". */
function fromParentheticals(unit: TextUnit, found: Mention[], names: ReadonlySet<string>): void {
  const text = unit.text;
  // A bare code that is a name the paper writes, a cell line's or a plasmid's, is no catalog number.
  const isName = (code: string) => names.has(code) || PLASMID_NAME.test(code) || CELL_LINE_ALONE.test(code) || STRAIN_ALONE.test(code);
  // Square brackets hold citations as well ("Sigma [23]"): one counts only with its supplier inside.
  const groups = [
    ...parentheticals(text, true).map((group) => ({ ...group, square: false })),
    ...parentheticals(text, true, '[]').map((group) => ({ ...group, square: true })),
  ];
  for (const group of groups) {
    if (group.content.length > 400) continue;
    const segments = splitTop(group.content).flatMap((segment) => segment.split(/\s+(?:and|&)\s+(?=[A-Za-z]{0,4}[-#]?\d)/));
    const parts: IdentifierPart[] = [];
    const additional: string[] = [];
    // 1. The vendor: a known one anywhere in the group, else one written just before the parenthesis
    //    ("purchased from Abcam (ab290)"), else an organisation-like segment next to an unmistakable code.
    let vendorText = '';
    let vendorSegment = -1;
    segments.forEach((segment, i) => {
      const vendor = findVendor(segment);
      if (vendor && !vendorText && vendor.index <= 2) {
        vendorText = vendor.vendor.name;
        vendorSegment = i;
      }
    });
    let segmentVendor = '';
    // Codes read beside a supplier without a cue (their index in parts).
    const unlabelled = new Set<number>();
    let antibody: boolean | undefined;
    const isAntibodyClone = (segment: string) =>
      ANTIBODY_CLONE_SHAPE.test(segment) && (antibody ??= ANTIBODY_NAME.test(nameBefore(text, group.start)));
    const justBefore = text.slice(Math.max(0, group.start - 40), group.start);
    const vendorBefore = findVendor(justBefore);
    const adjacentVendor =
      vendorBefore && !justBefore.slice(vendorBefore.index + vendorBefore.length).trim() ? vendorBefore.vendor.name : '';
    // 2. Identifiers.
    const codeSegments: string[] = [];
    segments.forEach((segment, i) => {
      const labelled = parseIdentifierText(segment, { bareCodesAreCatalog: false }).filter(
        (p) => p.kind !== 'other' && p.kind !== 'none' && p.kind !== 'url',
      );
      if (i === vendorSegment) {
        // "Sigma cat. no. E1510", "Invitrogen A11008": a code after the vendor in the same segment.
        const vendor = findVendor(segment)!;
        const rest = segment
          .slice(vendor.index + vendor.length)
          .trim()
          .replace(/^#\s*/, '');
        if (labelled.length) parts.push(...labelled);
        else if (looksLikeCatalog(rest) && !isName(rest)) parts.push({ kind: 'catalog', value: rest, label: '' });
        return;
      }
      if (labelled.length) {
        parts.push(...labelled);
        return;
      }
      if (CLONE_LABEL.test(segment) || /^\d+\s*:\s*\d+/.test(segment) || /dilution|\blot\b/i.test(segment)) {
        additional.push(segment);
        return;
      }
      if ((CLONE_SHAPE.test(segment) || isAntibodyClone(segment)) && !HYBRIDOMA_BANK.test(vendorText || adjacentVendor)) {
        additional.push(`clone ${segment}`);
        return;
      }
      // "Alexa Fluor 488 #A-11008": a '#' before a code is a catalog number's cue wherever it stands in the segment.
      const cued = NOT_A_SUPPLIER.test(segment) ? null : CUED_CODE.exec(segment);
      if (cued && looksLikeCatalog(cued[1])) {
        parts.push({ kind: 'catalog', value: cued[1], label: '' });
        return;
      }
      // "Santa Cruz sc-136156; Invitrogen F8800", "Sakura 25608-930", "K3468 Dako": a supplier and its code in one segment.
      const written = supplierAndCode(segment);
      if (written && !isName(written.code)) {
        unlabelled.add(parts.push({ kind: 'catalog', value: written.code, label: '' }) - 1);
        segmentVendor ||= written.vendor;
        return;
      }
      codeSegments.push(segment.replace(/^(?:#\s*|ID(?::\s*|\s+))/, ''));
    });
    // "olaparib (AZD2281 Selleckchem, catalog no. S1060)": beside a cued catalog number, a bare code is the compound's
    // or the product's other name.
    if (unlabelled.size && parts.some((p, i) => p.kind === 'catalog' && !unlabelled.has(i)) && /\bcat|#/i.test(group.content))
      for (const i of [...unlabelled].sort((a, b) => b - a)) parts.splice(i, 1);
    let vendor = vendorText || segmentVendor || (group.square ? '' : adjacentVendor);
    if (group.square && !vendor) continue;
    // A parenthesis glued to a word names an allele or a variant ("hlh-30(tm1978)") or cites ("PXS-5505(26)"),
    // unless it names its supplier, labels its number ("SPCS1(#L-020577-00-0005)", "bamΔ86(BDSC5427)") or holds a
    // long plain number ("BV711 anti-CD137(309832)").
    const glued = group.start > 0 && /[\p{L}\p{N}]/u.test(text[group.start - 1]);
    if (glued && !vendorText && !segmentVendor && parts.length === 0 && !codeSegments.some((seg) => /^\d{5,}$/.test(seg))) continue;
    // "stained with BioLegend antibodies FITC anti-CD27 (356404), PE anti-CCR7 (353204)", "SARS-CoV-1 spike
    // (40634-V08B), … proteins were purchased from Sino Biological": the supplier named earlier in the sentence, or
    // as the source later in it, the parenthesis holding only an unmistakable code.
    if (!vendor && !group.square && codeSegments.length === 1 && parts.length === 0 && STRONG_CODE.test(codeSegments[0]))
      vendor = vendorEarlierInSentence(text, group.start) || vendorLaterInSentence(text, group.end);
    if (!vendor) {
      const organisation = codeSegments.find(isOrganisation);
      // "(Hospira, Cat# 61703-0339)": an organisation beside an unmistakable or a labelled catalog number.
      if (organisation && (codeSegments.some((seg) => STRONG_CODE.test(seg)) || parts.some((p) => p.kind === 'catalog')))
        vendor = organisation;
    }
    const listsNames = !vendorText && !adjacentVendor && codeSegments.length >= 3 && NAMES_LISTED.test(nameBefore(text, group.start));
    for (const seg of codeSegments) {
      if (seg === vendor || isName(seg) || listsNames) continue;
      // Two codes written with a slash ("31460/31430, Invitrogen") are two catalog numbers, each as written.
      const pieces = seg.split('/');
      const codes = pieces.length > 1 && pieces.every((piece) => STRONG_CODE.test(piece)) ? pieces : [seg];
      // Without a vendor, only codes in a supplier's distinctive format count ("ab14715", "sc-5989"); the
      // supplier itself is not filled in from the format.
      // A stock centre's number keeps the centre's label ("Bloomington 2017 and 701": BDSC 701).
      for (const code of codes)
        if (vendor ? looksLikeCatalog(code) : VENDOR_FORMAT.test(code))
          parts.push({ kind: 'catalog', value: code, label: (vendor && parseIdentifierText(code, { source: vendor })[0]?.label) || '' });
    }
    if (!vendor && parts.length === 0) continue;
    if (!vendor && parts.every((p) => p.kind === 'accession')) continue; // left to the accession finder
    const name = subjectOfSupplier(text, group.start) || nameBefore(text, group.start);
    if (!name) continue;
    const instrument = INSTRUMENT.test(name);
    if (instrument || QUANTITY.test(name))
      // Beside a quantity only a short code is a system's name ("633 nm (SP5, Leica)"); a part number such as a
      // filter's ("550 nm (Thorlabs FELH0550)") is what the supplier sells.
      for (let i = parts.length - 1; i >= 0; i--)
        if (parts[i].kind === 'catalog' && !parts[i].label && (instrument || /^[A-Za-z]{1,3}\d{1,4}$/.test(parts[i].value)))
          additional.unshift(`model ${parts.splice(i, 1)[0].value}`);
    found.push({ index: group.start, name, source: vendor, parts, additional });
  }
}

// Words that number something other than a product: a figure, a table, an approval or licence, a database record,
// a sample ("Figures S4F-G", "IRB 58461", "PPL PP4882546", "REACTOME #M27620", "Isolate B.1.351", "donor #12").
const NOT_A_SUPPLIER =
  /^(?:figs?\.?|figures?|tables?|stables?|supp\w*\.?|appendix|extended|movies?|videos?|panels?|files?|datasets?|ESI|chapters?|sections?|pages?|eqs?\.?|equations?|IRB|PPL|REC|HREC|IRAS|IACUC|APAFIS|A?NADA|authori[sz]ations?|committees?|licen[cs]es?|projects?|protocols?|approvals?|permits?|ethics|no\.?|nos\.?|numbers?|ID|refs?\.?|GenBank|RefSeq|UniProt\w*|PDB|GEO|SRA|ENA|Ensembl|MIM|OMIM|Reactome|KEGG|GO|NCBI|EPI_ISL|genes?|temporary|acc\.?|accessions?|isolates?|strains?|lineages?|clades?|VOC|variants?|models?|lots?|batch(?:es)?|clones?|patients?|donors?|samples?|subjects?|animals?|mice|mouse|embryos?|experiments?|passages?|lines?)\b/i;

// A '#' after a name ("Alexa Fluor 568 #A-11011"): not after a number ("2011 #342", a reference manager's mark).
const CUED_CODE = /^(?=.*\p{L}.*\s#).*\S\s+#\s?([A-Za-z0-9][\w.\/-]*\d[\w.\/-]*)$/iu;

function isOrganisation(segment: string): boolean {
  return (
    ORGANISATION.test(segment) &&
    !/\d/.test(segment) &&
    !NOT_ORGANISATION.test(segment) &&
    !NOT_A_SUPPLIER.test(segment) &&
    !LOCATION.test(segment) &&
    !INSTRUMENT.test(segment) &&
    segment.length <= 40
  );
}

/**
 * A segment written as a supplier and its code, in either order ("Alfa Aesar A15735-36", "Cell Signaling #5425S",
 * "K3468 Dako"): the code and the supplier (a known one by its usual name). A supplier the vendor list does not know
 * counts only before an unmistakable code ("Bioptechs 40-1313-03193"), never a word that numbers something else.
 */
function supplierAndCode(segment: string): { vendor: string; code: string } | null {
  const code = String.raw`#?\s*([A-Za-z0-9][\w.\/-]*\d[\w.\/-]*)`;
  const forms = [new RegExp(String.raw`^(\D.*?)\s+${code}$`), new RegExp(String.raw`^${code}\s+(\D.*)$`)];
  for (const [k, re] of forms.entries()) {
    const m = re.exec(segment.trim());
    if (!m) continue;
    const [who, value] = k === 0 ? [m[1], m[2]] : [m[2], m[1]];
    if (!looksLikeCatalog(value)) continue;
    const known = findVendor(who);
    if (known && known.index === 0 && known.length >= who.length - 1) return { vendor: known.vendor.name, code: value };
    // Not a range ("DBD-TRAIP 307-333", residues 307 to 333).
    const unmistakable = STRONG_CODE.test(value) && !/^\d{1,4}-\d{1,4}$/.test(value);
    if (k === 0 && unmistakable && who.split(/\s+/).length <= 4 && isOrganisation(who)) return { vendor: who, code: value };
  }
  return null;
}

// A physical quantity where a name would be ("… laser emitting at 633 nm (SP5, Leica)", "digitized at 800 MHz
// (National Instruments, NI5772)"): the code beside it is an instrument's model.
const QUANTITY = /^\d[\d.,]*\s*(?:nm|[kMG]?Hz|m?W|kV|V)$/;

const GENERIC_SUBJECT = /^(?:the\s+)?(?:cells?|mice|animals|antibod(?:y|ies)|reagents?|plasmids?|it|they|all|these|those|both)$/i;

/**
 * "SARS-CoV-2 nucleocapsid was purchased from GenScript (Z03480)": where the parenthesis follows its supplier, the
 * resource is the subject of the sentence, not the supplier ('' when the sentence is not of that shape).
 */
function subjectOfSupplier(text: string, index: number): string {
  const before = text.slice(Math.max(0, index - 160), index);
  const m =
    /\s(?:was|were|is|are)\s+(?:\w+\s+)?(?:purchased|obtained|bought|ordered|acquired|supplied|provided|sourced)\s+(?:from|by)\s+(?:the\s+)?([^.;:()]{2,60}?)\s*$/i.exec(
      before,
    );
  if (!m) return '';
  const supplier = m[1].trim();
  const known = findVendor(supplier);
  if (!(known && known.index === 0 && known.length >= supplier.length - 1) && !isOrganisation(supplier)) return '';
  const subject = nameBefore(text, index - before.length + m.index);
  return GENERIC_SUBJECT.test(subject) ? '' : subject;
}

/** The supplier a sentence names as the source after `index` ("… were purchased from Sino Biological"), or ''. */
function vendorLaterInSentence(text: string, index: number): string {
  const rest = text.slice(index, index + 400);
  const end = rest.search(/[.;](?:\s|$)/);
  const sentence = end < 0 ? rest : rest.slice(0, end);
  const cue = /^\s*from\s+|\b(?:purchased|obtained|bought|ordered|acquired|supplied|provided)\s+(?:from|by)\s+(?:the\s+)?/i.exec(sentence);
  if (!cue) return '';
  const found = findVendor(sentence.slice(cue.index + cue[0].length));
  return found && found.index === 0 ? found.vendor.name : '';
}

/** A known supplier written earlier in the sentence that ends at `index`, with no parenthesis after it ('' if none). */
function vendorEarlierInSentence(text: string, index: number): string {
  const before = text.slice(0, index);
  const start = Math.max(before.lastIndexOf('. ') + 1, before.lastIndexOf('; ') + 1, 0);
  const sentence = before.slice(start);
  const found = findVendor(sentence);
  if (!found) return '';
  // A supplier inside a parenthesis, or followed by one that holds more than a code, belongs to that one.
  const after = sentence.slice(found.index);
  if (after.split('(').length !== after.split(')').length) return '';
  const groups = [...after.matchAll(/\(([^()]*)\)/g)].map((g) => g[1].trim());
  return groups.every((content) => STRONG_CODE.test(content)) ? found.vendor.name : '';
}

/** RRIDs and labelled catalog numbers anywhere (those not inside a parenthetical seen above). */
function fromLabelledIdentifiers(unit: TextUnit, found: Mention[]): void {
  const text = unit.text;
  const re =
    /\bRRID\s*[:#]?\s*[A-Za-z][\w:.-]*(?:\s\d+)?|\b(?:cat(?:alog(?:ue)?)?\.?\s*(?:#|no\.?|nr\.?|number)|product\s+(?:no\.?|number|code))\s*[:#.]?\s*[A-Za-z0-9][\w.\/-]*\d[\w.\/-]*|(?<=\b(?:[Kk]it|[Rr]eagent|[Bb]uffer|[Mm]edium|[Aa]ntibody)\s)#\s?\d{4,7}\b/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const parts = parseIdentifierText(m[0], { bareCodesAreCatalog: false }).filter((p) => p.kind === 'rrid' || p.kind === 'catalog');
    if (!parts.length) continue;
    const nameAt = text.lastIndexOf('(', m.index) > text.lastIndexOf(')', m.index) ? text.lastIndexOf('(', m.index) : m.index;
    const name = nameBefore(text, nameAt);
    if (!name) continue;
    const vendor = findVendor(text.slice(Math.max(0, m.index - 60), m.index));
    found.push({ index: m.index, name, source: vendor?.vendor.name ?? '', parts, additional: [] });
  }
}

/** Repository stock numbers: JAX, BDSC, VDRC, Addgene, ATCC. */
function fromStockNumbers(unit: TextUnit, found: Mention[]): void {
  const text = unit.text;
  const patterns: { re: RegExp; label: string; source: string; type: ResourceType }[] = [
    {
      re: /\b(?:JAX|Jackson\s+Lab(?:oratory|oratories|s)?)\b[^.;)]{0,40}?(?:stock|strain|cat(?:alog)?)\.?\s*(?:#|no\.?|number)?\s*:?\s*(\d{6})\b/gi,
      label: 'JAX',
      source: 'The Jackson Laboratory',
      type: 'Experimental model: Organism/strain',
    },
    {
      re: /\bJAX\s*(?:#|no\.?|:)?\s*(\d{6})\b/g,
      label: 'JAX',
      source: 'The Jackson Laboratory',
      type: 'Experimental model: Organism/strain',
    },
    {
      re: /\b(?:BDSC|Bloomington(?:\s+Drosophila)?(?:\s+Stock\s+Cent(?:er|re))?)\b\s*(?:stock\s*)?(?:#|no\.?|number|ID)?\s*[:#]?\s*(\d{2,6})\b/gi,
      label: 'BDSC',
      source: 'Bloomington Drosophila Stock Center',
      type: 'Experimental model: Organism/strain',
    },
    {
      re: /\bVDRC\s*(?:stock\s*)?(?:#|no\.?|ID)?\s*[:#]?\s*(v?\d{4,6})\b/g,
      label: 'VDRC',
      source: 'Vienna Drosophila Resource Center',
      type: 'Experimental model: Organism/strain',
    },
    {
      re: /\b(?:Kyoto(?:\s+(?:Drosophila|DGGR))?(?:\s+Stock\s+Cent(?:er|re))?|DGGR)\s*(?:stock\s*)?(?:#|no\.?|ID)?\s*[:#]?\s*(\d{5,6})\b/g,
      label: 'DGGR',
      source: 'Kyoto Stock Center',
      type: 'Experimental model: Organism/strain',
    },
    {
      re: /\bFlyORF\s*(?:#|no\.?|ID)?\s*[:#]?\s*(F\d{6})\b/g,
      label: 'FlyORF',
      source: 'FlyORF',
      type: 'Experimental model: Organism/strain',
    },
    {
      re: /\bAddgene\b[^.;)]{0,20}?(?:plasmid\s*)?(?:#|no\.?|ID)\s*:?\s*(\d{4,6})\b/gi,
      label: 'Addgene',
      source: 'Addgene',
      type: 'Recombinant DNA',
    },
    {
      re: /\bATCC\b[\s:#,]*((?:CRL|CCL|HTB|PTA|TIB|BAA|VR)[-\s]?\d{2,5}(?:\.\d)?)\b/g,
      label: 'ATCC',
      source: 'ATCC',
      type: 'Experimental model: Cell line',
    },
  ];
  for (const { re, label, source, type } of patterns) {
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const open = text.lastIndexOf('(', m.index);
      const nameAt = open > text.lastIndexOf(')', m.index) && m.index - open < 80 ? open : m.index;
      const name = nameBefore(text, nameAt) || genotypeInBracesBefore(text, nameAt);
      if (!name) continue;
      const resolvedType = label === 'Addgene' && /\b(aav|lentivir|virus)/i.test(name) ? 'Viral vector' : type;
      const parts: IdentifierPart[] = [{ kind: 'catalog', value: m[1].replace(/\s+/, '-'), label }];
      // "Bloomington 3954 and 7017": the stock centre written once before a list of its numbers.
      const list = STOCK_LIST.exec(text.slice(m.index + m[0].length));
      if (list && label !== 'ATCC')
        for (const more of list[0].matchAll(/v?\d{3,6}/g)) parts.push({ kind: 'catalog', value: more[0], label });
      found.push({ index: m.index, name, source, parts, additional: [], type: resolvedType });
    }
  }
}

const STOCK_LIST = /^(?:\s*(?:,|,?\s*and|&|or)\s*(?:#\s*)?v?\d{3,6}\b(?![.,:]?\d))+/;

/** A fly genotype written in braces just before `index` ("{y,w; sp/Cyo, Bacc-GFP; Dr/TM6C}, (BDSC: 36349)"). */
function genotypeInBracesBefore(text: string, index: number): string {
  const before = text.slice(Math.max(0, index - 200), index).replace(/[\s,]+$/, '');
  if (!before.endsWith('}')) return '';
  const open = before.lastIndexOf('{');
  return open < 0 ? '' : before.slice(open + 1, -1).trim();
}

const VERSION_AFTER =
  /^\s*(?:\(\s*|,\s*)?(?:(?:version|ver\.|v\.?)\s*(\d+(?:\.\d+){0,3}[a-z]?)|(R20\d\d[ab])|(\d+(?:\.\d+){1,3}[a-z]?)|(\d{1,2})(?=\s*(?:\)|software|,|;|\.\s|$)|\s+(?:and|or|for|to|with|was|were|is|in|\()\b))/i;

/** Software by name, with its version when one is written right after. */
const SOFTWARE_GLOBAL = SOFTWARE.map((entry) => ({
  entry,
  re: new RegExp(entry.pattern.source, `${entry.pattern.flags.replace('g', '')}g`),
}));

function fromSoftware(unit: TextUnit, found: Mention[]): void {
  const text = unit.text;
  const lower = text.toLowerCase();
  for (const { entry, re } of SOFTWARE_GLOBAL) {
    if (!entry.needles.some((needle) => lower.includes(needle))) continue;
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const after = text.slice(m.index + m[0].length, m.index + m[0].length + 40);
      const v = VERSION_AFTER.exec(after);
      const version = v ? (v[1] ?? v[2] ?? v[3] ?? v[4]) : '';
      // Names that are also words (R, STAR, Prism …) count only with a version or "software" next to them.
      const ambiguous =
        /^(R|STAR|Salmon|Harmony|STRING|Galaxy|SAS|Julia|Rosetta|AMBER|Coot|MEGA|BEAST|pandas|Pangolin|Excel|ZEN|JMP|MUSCLE|HOMER|DAVID|NEURON|FSL|AFNI|SPM|VMD|Fiji)$/.test(
          entry.name,
        );
      if (ambiguous && !version && !/^\s*(software|package|program|\(RRID)/i.test(after)) continue;
      const paren = parentheticals(text.slice(m.index + m[0].length, m.index + m[0].length + 200))[0];
      const parts =
        paren && paren.start < 3
          ? parseIdentifierText(paren.content, { bareCodesAreCatalog: false }).filter((p) => p.kind === 'rrid' || p.kind === 'url')
          : [];
      const vendor = paren && paren.start < 3 ? findVendor(paren.content) : null;
      found.push({
        index: m.index,
        name: version ? `${entry.name} ${/^\d/.test(version) ? 'v' : ''}${version}` : entry.name,
        source: vendor?.vendor.name ?? '',
        parts,
        additional: [],
        type: 'Software/code',
      });
    }
  }
  fromGenericSoftware(text, found);
}

function fromGenericSoftware(text: string, found: Mention[]): void {
  // Unlisted tools written with a version: "Snippy v4.6", "OriginPro 2024b", "Nextflow (version 22.10)".
  const generic = /\b([A-Z][A-Za-z0-9_+-]{2,30})\s*\(?\s*(?:version|v\.?)\s*(\d+(?:\.\d+){1,3}[a-z]?)\b/g;
  for (let m = generic.exec(text); m; m = generic.exec(text)) {
    if (/^(Figure|Fig|Table|Supplementary|Version|Release|Model|Phase|Type|Class|Group|Step|Day|Panel)$/i.test(m[1])) continue;
    found.push({ index: m.index, name: `${m[1]} v${m[2]}`, source: '', parts: [], additional: [], type: 'Software/code' });
  }
}

// A cell line the lexicon does not list, written as such: letters and three or four digits before "cells"
// ("HCC1806 cells", "SUM159 cells"); not a cluster of differentiation, an interleukin or a brain region ("CD133",
// "IL-17", "CA1"), nor a gene written before "cells" ("Lgr5").
const CELL_LINE_SHAPE = /(?<![\w-])(?!CD|IL|CA|TH|GFP|RFP|YFP)([A-Z]{2,5}-?\d{3,4}[A-Z]?)(?![\w-])/;

/** Known cell lines ("HEK293T cells", "HeLa (ATCC CCL-2)") and strain backgrounds ("C57BL/6J mice"). */
function fromModels(unit: TextUnit, found: Mention[]): void {
  const text = unit.text;
  const cellRe = new RegExp(`${CELL_LINE.source}|${CELL_LINE_SHAPE.source}`, 'g');
  for (let m = cellRe.exec(text); m; m = cellRe.exec(text)) {
    let after = text.slice(m.index + m[0].length, m.index + m[0].length + 60);
    // A named subline ("HeLa Kyoto cells", "HeLa MZ cells") is the resource; a genotype word is not part of it.
    const subline = /^\s(?!(?:WT|KO|Control|Parental|Cells?)\b)([A-Z][a-z]{2,}|[A-Z]{2}|[A-Z]\d)(?=\s+(?:cells?|cell line)\b)/.exec(after);
    const name = subline ? `${m[0]} ${subline[1]}` : m[0];
    if (subline) after = after.slice(subline[0].length);
    const lexicon = m[1] !== undefined;
    if (!(lexicon ? /^\s*(?:-\w+\s+)?(?:cells?|cell line|line|\()/i : /^\s+(?:cells?|cell lines?)\b/).test(after)) continue;
    const paren = parentheticals(after)[0];
    const parts =
      paren && paren.start < 3
        ? parseIdentifierText(paren.content, { bareCodesAreCatalog: false }).filter((p) => p.kind !== 'other' && p.kind !== 'none')
        : [];
    const atcc = /ATCC[\s:#,]*((?:CRL|CCL|HTB|ACS)[-\s]?\d{2,5})/.exec(after);
    if (atcc && !parts.length) parts.push({ kind: 'catalog', value: atcc[1].replace(/\s+/, '-'), label: 'ATCC' });
    const vendor = paren && paren.start < 3 ? findVendor(paren.content) : null;
    found.push({
      index: m.index,
      name,
      source: vendor?.vendor.name ?? (atcc ? 'ATCC' : ''),
      parts,
      additional: [],
      type: 'Experimental model: Cell line',
    });
  }
  const strainRe = new RegExp(STRAIN_BACKGROUND.source, 'gi');
  for (let m = strainRe.exec(text); m; m = strainRe.exec(text)) {
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 40);
    const organism =
      /^\s*(?:\(\w+\)\s*)?(?:background\s+)?(mice|mouse|rats?|flies|fly|zebrafish|fish|worms?|strains?|plants|yeast)\b/i.exec(after);
    if (!organism || (/^(AB|TU|Lewis|ICR|yw|Ler)$/i.test(m[0]) && !/strain|fish|flies/i.test(organism[1]))) continue;
    const vendor = findVendor(text.slice(m.index, m.index + 120));
    found.push({
      index: m.index,
      name: `${m[0]} ${organism[1]}`,
      source: vendor?.vendor.name ?? '',
      parts: [],
      additional: [],
      type: 'Experimental model: Organism/strain',
    });
  }
}

/** Oligonucleotide sequences "5′-ACGT…-3′" with the name written before them. */
function fromOligos(unit: TextUnit, found: Mention[]): void {
  const re = /5\s?['′’]\s?[-–]?\s?([ACGTUNacgtun\s]{12,80}?)\s?[-–]?\s?3\s?['′’]/g;
  for (let m = re.exec(unit.text); m; m = re.exec(unit.text)) {
    const name = nameBefore(unit.text, m.index) || 'Oligonucleotide';
    found.push({ index: m.index, name, source: '', parts: [], additional: [m[1].replace(/\s+/g, '')], type: 'Oligonucleotide' });
  }
}

const DEPOSITED =
  /\b(deposited|have been (?:submitted|uploaded|made available)|are (?:publicly )?available (?:at|in|from|under|via|through)|(?:generated|produced|reported) (?:in|by) this (?:study|work|paper)|this study|accession (?:code|number)s? (?:for|of) the (?:data|sequencing|structure)|data availability|will be (?:made )?(?:publicly )?available)\b/i;
const REUSED =
  /\b(previously (?:published|described|reported|deposited)|publicly available|downloaded|obtained from|retrieved from|were (?:re)?analy[sz]ed|from (?:the )?(?:GEO|SRA|PDB|EMDB|ArrayExpress)|published (?:data|dataset)|reference (?:genome|structure))\b/i;

/** Data and protocol accessions. */
function fromAccessions(unit: TextUnit, found: Mention[]): void {
  const text = unit.text;
  for (const acc of findAccessions(text)) {
    const sentenceStart = Math.max(text.lastIndexOf('. ', acc.index) + 1, 0);
    const sentenceEnd = text.indexOf('. ', acc.index);
    const sentence = text.slice(sentenceStart, sentenceEnd < 0 ? text.length : sentenceEnd);
    const named = nameBefore(text, text.lastIndexOf('(', acc.index) > sentenceStart ? text.lastIndexOf('(', acc.index) : acc.index);
    const name =
      named &&
      /data|seq|structure|map|model|coordinates|reads|proteom|genom|transcriptom|sequence|atlas|protocol|spectra|images?/i.test(named)
        ? named
        : `${acc.repository} ${acc.kind === 'protocol' ? 'protocol' : 'record'} ${acc.accession}`;
    const fresh = DEPOSITED.test(sentence) && !REUSED.test(sentence);
    found.push({
      index: acc.index,
      name,
      source: fresh ? 'This study' : acc.repository,
      parts: [{ kind: 'accession', value: acc.accession, label: acc.repository }],
      additional: [],
      type: acc.kind === 'protocol' ? 'Protocol' : 'Dataset',
      fresh,
    });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Assembly

const EQUIPMENT =
  /\b(microscopes?|spectrophotometer|centrifuges?|cytometers?|sequencers?|cameras?|objectives?|lens|plate reader|reader|incubators?|scanners?|instruments?|machines?|nanodrop|qubit|thermocyclers?|cyclers?|pumps?|amplifiers?|electrodes?|lasers?|detectors?|robots?|vitrobot|orbitrap|mass spectrometer|hplc|uplc|columns?|sonicator|homogenizer|bioanalyzer|tapestation|luminometer|fluorometer|imager|chambers?|slides?|plates?|dishes?|tubes?|filters?|membranes?|grids?)\b/i;

function typeOf(m: Mention, unit: TextUnit): ResourceType {
  if (m.type) return m.type;
  const identifier = formatIdentifier(m.parts);
  const byContent = typeByContent(m.name, m.source, identifier);
  if (byContent !== 'Other') return byContent;
  if (EQUIPMENT.test(m.name)) return 'Other';
  // A section named like a category ("Antibodies", "Cell lines and plasmids").
  for (let i = unit.sections.length - 1; i >= 0; i--) {
    if (unit.sections[i].split(/\s+/).length > 4) continue;
    const fromSection = typeOfCategory(unit.sections[i]);
    if (fromSection?.type) return fromSection.type;
  }
  if (m.parts.some((p) => p.kind === 'catalog')) return 'Chemical, peptide, or recombinant protein';
  return 'Other';
}

export function mentionRow(m: Mention, unit: TextUnit): KrtRow {
  return makeRow({
    'RESOURCE TYPE': typeOf(m, unit),
    'RESOURCE NAME': m.name,
    SOURCE: m.source,
    IDENTIFIER: formatIdentifier(m.parts),
    'NEW/REUSE': m.fresh ? 'new' : 'reuse',
    'ADDITIONAL INFORMATION': m.additional.join('; '),
  });
}

/** Name folded for de-duplication: case, a version, and a trailing "cells"/"mice"/"antibody" do not matter. */
function nameKey(row: KrtRow): string {
  let name = row['RESOURCE NAME'].toLowerCase();
  if (row['RESOURCE TYPE'] === 'Software/code') name = name.replace(/\s+v?\d+(\.\d+)*[a-z]?$/, '');
  return name.replace(/\s+(cells?|cell line|mice|mouse|antibody|antibodies)$/, '').replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Merges rows that share an identifier, or (without identifiers) the same type, name and vendor. */
function mergeRows(rows: readonly KrtRow[]): KrtRow[] {
  const out: KrtRow[] = [];
  const byKey = new Map<string, number>();
  for (const row of rows) {
    const keys = [...identifierKeys(row.IDENTIFIER)];
    const fallback = `${row['RESOURCE TYPE']}|${nameKey(row)}|${vendorKey(row.SOURCE)}`;
    const lookup = keys.length ? keys : [fallback];
    const hit = lookup.map((k) => byKey.get(k)).find((i) => i !== undefined);
    if (hit === undefined) {
      out.push({ ...row });
      for (const k of lookup) byKey.set(k, out.length - 1);
      continue;
    }
    const kept = out[hit];
    if (!kept.SOURCE && row.SOURCE) kept.SOURCE = row.SOURCE;
    // Keep the more specific name ("DESeq2 v1.26.0" over "DESeq2").
    if (
      row['RESOURCE NAME'].length > kept['RESOURCE NAME'].length &&
      row['RESOURCE NAME'].toLowerCase().startsWith(kept['RESOURCE NAME'].toLowerCase())
    ) {
      kept['RESOURCE NAME'] = row['RESOURCE NAME'];
    }
    const mergedParts = parseIdentifierText(`${kept.IDENTIFIER}; ${row.IDENTIFIER}`);
    kept.IDENTIFIER = formatIdentifier(mergedParts);
    if (row['NEW/REUSE'] === 'new') kept['NEW/REUSE'] = 'new';
    if (!kept['ADDITIONAL INFORMATION'] && row['ADDITIONAL INFORMATION']) kept['ADDITIONAL INFORMATION'] = row['ADDITIONAL INFORMATION'];
    if (kept['RESOURCE TYPE'] === 'Other' && row['RESOURCE TYPE'] !== 'Other') kept['RESOURCE TYPE'] = row['RESOURCE TYPE'];
    for (const k of lookup) byKey.set(k, hit);
  }
  return out;
}

/** Every rule's mentions in one unit of text, in order of position. */
export function mentionsOfUnit(unit: TextUnit, names: ReadonlySet<string> = new Set()): Mention[] {
  const mentions: Mention[] = [];
  const run = (finder: (unit: TextUnit, found: Mention[], names: ReadonlySet<string>) => void, rule: MentionRule) => {
    const before = mentions.length;
    finder(unit, mentions, names);
    for (let i = before; i < mentions.length; i++) mentions[i].rule = rule;
  };
  run(fromParentheticals, 'parenthetical');
  run(fromLabelledIdentifiers, 'labelled-identifier');
  run(fromStockNumbers, 'stock-number');
  run(fromSoftware, 'software');
  run(fromModels, 'model');
  run(fromOligos, 'oligo');
  run(fromAccessions, 'accession');
  return mentions.sort((a, b) => a.index - b.index);
}

export interface TextExtractionOptions {
  /** Table-wraps to leave out (an author table already parsed, or one removed for evaluation). */
  skipTables?: ReadonlySet<XmlElement>;
}

/** Resources found in an article's text (and its generic reagent tables). */
export function extractFromText(article: XmlElement, options: TextExtractionOptions = {}): KrtRow[] {
  const { units, tables } = collectUnits(article, options.skipTables ?? new Set());
  const rows: KrtRow[] = [];
  const names = namesWrittenIn(units.map((u) => u.text));
  for (const unit of units) for (const m of mentionsOfUnit(unit, names)) rows.push(mentionRow(m, unit));
  for (const table of tables) rows.push(...genericTableRows(table));
  return mergeRows(rows.filter((r) => r['RESOURCE NAME'].length <= 200));
}
