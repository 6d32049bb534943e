// Reading a chat message: which intent, and which resource details (type, name, antibody host and target,
// vendor, catalog number, RRID, clone, new/reuse, a row reference, a field to change).

import { typeByContent } from '../extract/classify.ts';
import { parseIdentifierText } from '../extract/identifier.ts';
import type { ResourceType } from '../extract/krt-row.ts';
import { resourceTypeFromText } from '../extract/classify.ts';
import { findVendor } from '../extract/vendors.ts';
import { parseRrid } from '../rrid/registry.ts';
import { antibodyAttributes } from '../rrid/similarity.ts';

export type ChatIntent =
  'add_resource' | 'remove_resource' | 'modify_resource' | 'list_resources' | 'export' | 'help' | 'clarification_answer';

type EditableField = 'name' | 'type' | 'vendor' | 'catalog' | 'rrid' | 'newReuse' | 'additional' | 'clone';

export interface ChatEntities {
  type?: ResourceType;
  name?: string;
  host?: string;
  target?: string;
  vendor?: string;
  catalogNumber?: string;
  /** Canonical RRID (without "RRID:"), corrected when the intent was obvious. */
  rrid?: string;
  /** An RRID as typed when it was malformed (for the response). */
  rridProblem?: string;
  clone?: string;
  newReuse?: 'new' | 'reuse';
  additional?: string;
  /** A row the message points at: 0-based index, or 'last'. */
  rowRef?: number | 'last' | 'all';
  /** For modify: the field named and its new value as written. */
  field?: EditableField;
  value?: string;
  exportFormat?: 'csv' | 'excel' | 'json';
}

const VERBS = {
  help: /^\s*(help|\?|what can you do|how does this work|how do i|commands?|usage)\b/i,
  list: /\b(list|show|display|view|see|print)\b.*\b(table|resources?|entries|rows?|krt|everything|all)\b|^\s*(list|show( me)?( the)?( table)?|what do (i|we) have( so far)?|what'?s in (the|my) table)\s*[?.!]*\s*$/i,
  export: /\b(export|download|save (it |the table )?as|give me (a |the )?(csv|excel|xlsx|json))\b/i,
  remove: /\b(remove|delete|drop|discard|take out|get rid of|clear)\b/i,
  modify: /\b(change|modify|update|edit|set|replace|correct|rename|fix|mark)\b/i,
  add: /\b(add|include|insert|append|put|register|record|log|we used|i used|used an?|also used)\b/i,
};

/** Intent of a message; `clarification_answer` when a question is pending and the message is not a new command. */
export function classifyIntent(message: string, pendingQuestion: boolean): ChatIntent {
  const m = message.trim();
  if (VERBS.help.test(m)) return 'help';
  if (VERBS.export.test(m)) return 'export';
  if (VERBS.remove.test(m)) return 'remove_resource';
  if (VERBS.add.test(m) && !/^\s*(change|modify|update|edit|set|replace|correct|rename|fix)\b/i.test(m)) return 'add_resource';
  if (VERBS.modify.test(m)) return 'modify_resource';
  if (VERBS.list.test(m)) return 'list_resources';
  if (pendingQuestion) return 'clarification_answer';
  // A bare resource description ("rabbit anti-GFP from Abcam ab290") is an addition.
  const e = parseEntities(m);
  if (e.catalogNumber || e.rrid || e.vendor) return 'add_resource';
  return 'help';
}

const TYPE_WORDS: readonly [RegExp, ResourceType][] = [
  [/\b(antibod(y|ies)|antiserum|nanobod(y|ies)|igg|mab)\b|\banti-\w/i, 'Antibody'],
  [/\bcell[\s-]?lines?\b|\b\w+\s+cells\b/i, 'Experimental model: Cell line'],
  [
    /\b(mouse|mice|rat|rats|fly|flies|zebrafish|worms?|strain|line of mice|knock-?out mice|transgenic)\b/i,
    'Experimental model: Organism/strain',
  ],
  [/\b(aav|lentivir\w*|retrovir\w*|adenovir\w*|viral vector|virus)\b/i, 'Viral vector'],
  [/\b(bacterial strain|e\.?\s?coli|bacteri\w*)\b/i, 'Bacterial strain'],
  [/\b(plasmids?|constructs?|vectors?|cdna clone)\b/i, 'Recombinant DNA'],
  [/\b(primers?|sirnas?|shrnas?|sgrnas?|grnas?|oligo(nucleotide)?s?|probes?|morpholinos?)\b/i, 'Oligonucleotide'],
  [/\b(kits?|assays?)\b/i, 'Critical commercial assay'],
  [/\b(software|package|program|tool|script|algorithm|code)\b/i, 'Software/code'],
  [/\b(data ?sets?|deposited data|accession|geo|sra)\b/i, 'Dataset'],
  [/\b(protocols?)\b/i, 'Protocol'],
  [/\b(samples?|tissues?|biops(y|ies)|specimens?|serum|plasma)\b/i, 'Biological sample'],
  [
    /\b(chemicals?|compounds?|drugs?|inhibitors?|reagents?|peptides?|proteins?|enzymes?|dyes?|media|medium)\b/i,
    'Chemical, peptide, or recombinant protein',
  ],
];

const CATALOG =
  /\b(?:cat(?:alog(?:ue)?)?\.?\s*(?:#|no\.?|nr\.?|number)?|product(?:\s+(?:#|no\.?|number|code))?|item|stock(?:\s+(?:#|no\.?|number))?)\s*[:#]?\s*([A-Za-z0-9][\w.\/-]*\d[\w.\/-]*|\d[\w.\/-]*)/i;
const FROM_VENDOR =
  /\b(?:from|by|supplied by|purchased from|bought from|ordered from|obtained from|made by|vendor(?: is)?|supplier(?: is)?|source(?: is)?)\s+([A-Z][\w&.'-]*(?:\s+(?:[A-Z][\w&.'-]*|&|and|of))*)/;

/** Resource details written in a message. */
export function parseEntities(message: string): ChatEntities {
  const text = message.trim();
  const e: ChatEntities = {};

  // RRID (validated; an obvious correction is taken, a malformed one reported).
  const rridMatch =
    /\bRRID\s*[:#]?\s*([A-Za-z][\w:.-]*(?:\s\d+)?)/i.exec(text) ??
    /\b((?:AB|SCR|CVCL|Addgene|BDSC|IMSR_JAX|MGI|MMRRC|ZFIN|RGD)[_:-]\S+)/i.exec(text);
  if (rridMatch) {
    const parsed = parseRrid(rridMatch[1]);
    if (parsed.normalized) e.rrid = parsed.normalized;
    else if (parsed.corrected) {
      e.rrid = parsed.corrected;
      e.rridProblem = `${rridMatch[1]} → RRID:${parsed.corrected}`;
    } else e.rridProblem = `${rridMatch[1]} (${parsed.problem})`;
  }
  const catalog = CATALOG.exec(text);
  if (catalog) e.catalogNumber = catalog[1].replace(/[.,;:]+$/, '');
  else {
    const hash = /(?:^|\s)#\s?([A-Za-z]*\d[\w.-]*)/.exec(text);
    if (hash) e.catalogNumber = hash[1];
  }
  const clone = /\bclone\s*[:#]?\s*([A-Za-z0-9][\w./-]*)/i.exec(text);
  if (clone) e.clone = clone[1];
  const dilution = /\b1\s*:\s*\d[\d,]*\b/.exec(text);
  if (dilution) e.additional = `dilution ${dilution[0].replace(/\s+/g, '')}`;

  // Vendor: a known supplier anywhere, else "from <Capitalised Name>".
  const known = findVendor(text);
  const fromVendor = FROM_VENDOR.exec(text);
  if (known && !/\bthis (study|paper|work)\b/i.test(text.slice(Math.max(0, known.index - 12), known.index + known.length + 12)))
    e.vendor = known.vendor.name;
  else if (fromVendor && !/^(This|The|Our|My|We|Row|Entry)\b/.test(fromVendor[1]))
    e.vendor = fromVendor[1].replace(/\s+(and|of|&)$/, '').trim();

  if (
    /\b(this (study|paper|work)|we (made|generated|created|produced|cloned|designed)|(generated|made|created) (here|by us|in[- ]house|in this)|new(ly)? (made|generated|created)|(mark|set)\b.*\bnew\b|\bas new\b|is new\b)/i.test(
      text,
    )
  )
    e.newReuse = 'new';
  else if (/\b(reuse|reused|commercial|purchased|bought|ordered|(mark|set)\b.*\breuse\b)/i.test(text)) e.newReuse = 'reuse';

  // Row reference.
  const rowNumber =
    /\b(?:row|entry|item|resource|line|number|#)\s*(\d{1,3})\b/i.exec(text) ??
    /\b(\d{1,3})(?:st|nd|rd|th)\s+(?:row|entry|item|resource|one)\b/i.exec(text);
  if (rowNumber) e.rowRef = Number(rowNumber[1]) - 1;
  else if (/\b(last|latest|previous|that one|it)\b/i.test(text) && !/\blast name\b/i.test(text)) e.rowRef = 'last';
  if (/\b(all|everything|every (row|entry|resource))\b/i.test(text) && /\b(remove|delete|clear|drop)\b/i.test(text)) e.rowRef = 'all';

  // Field and new value for modifications: "change the vendor of row 1 to Sigma", "set catalog to ab1234".
  const fieldMatch =
    /\b(name|type|vendor|supplier|source|catalog(?:ue)?(?:\s+number)?|cat(?:\.|alog)?\s*(?:#|no\.?)|identifier|rrid|clone|dilution|note|additional information|new\/reuse|status)\b/i.exec(
      text,
    );
  if (fieldMatch) {
    const f = fieldMatch[1].toLowerCase();
    e.field = /vendor|supplier|source/.test(f)
      ? 'vendor'
      : /cat|identifier/.test(f)
        ? 'catalog'
        : f === 'rrid'
          ? 'rrid'
          : f === 'name'
            ? 'name'
            : f === 'type'
              ? 'type'
              : f === 'clone'
                ? 'clone'
                : /new|status/.test(f)
                  ? 'newReuse'
                  : 'additional';
  }
  const toValue = /\b(?:to|as|=|:)\s+["“]?([^"”]+?)["”]?\s*[.!]?\s*$/i.exec(text);
  if (toValue) e.value = toValue[1].trim();

  const format = /\b(csv|excel|xlsx|json)\b/i.exec(text)?.[1].toLowerCase();
  if (format) e.exportFormat = format === 'xlsx' ? 'excel' : (format as 'csv' | 'excel' | 'json');

  // Type and name.
  const typeWord = TYPE_WORDS.find(([re]) => re.test(text));
  const phrase = resourcePhrase(text);
  if (phrase) e.name = phrase;
  if (typeWord) e.type = typeWord[1];
  else if (phrase) {
    const guessed = typeByContent(phrase, e.vendor ?? '', e.rrid ? `RRID:${e.rrid}` : '');
    if (guessed !== 'Other') e.type = guessed;
  }
  if (e.rrid && !e.type) {
    const fromRegistry = resourceTypeFromText(
      e.rrid.startsWith('AB_') ? 'antibody' : e.rrid.startsWith('SCR_') ? 'software' : e.rrid.startsWith('CVCL_') ? 'cell line' : '',
    );
    if (fromRegistry) e.type = fromRegistry;
  }
  if (e.type === 'Antibody' && e.name) {
    const attrs = antibodyAttributes(e.name);
    if (attrs.host) e.host = attrs.host;
    if (attrs.target) e.target = attrs.target;
  }
  return e;
}

/**
 * The words naming the resource: after the verb, before the vendor/catalog/RRID details.
 * "Add rabbit anti-GFP antibody from Abcam, catalog ab290" → "rabbit anti-GFP antibody".
 */
export function resourcePhrase(message: string): string {
  let t = message.trim().replace(/[.!?]+$/, '');
  t = t.replace(
    /^(please\s+)?(can you\s+|could you\s+)?(add|include|insert|append|put|register|record|log|we used|i used|also used|used)\s+/i,
    '',
  );
  t = t.replace(/^(an?|the|one|another|new|some)\s+/i, '');
  // Cut at the first detail.
  const cut = t.search(
    /\s*(?:,|;|\(|\bfrom\b|\bby\b|\bsupplied\b|\bpurchased\b|\bbought\b|\bordered\b|\bobtained\b|\bmade by\b|\bcat(?:alog(?:ue)?)?\b|\bproduct\b|\bRRID\b|\bclone\b|#|\b1\s*:\s*\d|\bto the table\b|\bto my table\b|\bwith\b|\bat\b|\bdiluted\b|\bused (for|at|in)\b)/i,
  );
  if (cut >= 0) t = t.slice(0, cut);
  t = t.replace(/\s+(to (the|my) (table|list|krt))$/i, '').trim();
  if (!/\p{L}/u.test(t) || t.split(/\s+/).length > 14) return '';
  // A bare type word is not a name ("an antibody", "a plasmid").
  if (
    /^(antibod(y|ies)|cell lines?|plasmids?|kits?|software|reagents?|resources?|chemicals?|strains?|mice|primers?|oligos?|viruses?|samples?|datasets?|protocols?)$/i.test(
      t,
    )
  )
    return '';
  // "rabbit anti-GFP" → "Rabbit anti-GFP"; "pX330", "mCherry", "siRNA" keep their case.
  return /^[a-z]+\b/.test(t) && !/^[a-z]+[A-Z0-9]/.test(t) ? t.charAt(0).toUpperCase() + t.slice(1) : t;
}

/** Catalog numbers or RRIDs alone ("ab290", "RRID:AB_303395") answering "what is the catalog number?". */
export function bareIdentifier(message: string): { catalogNumber?: string; rrid?: string } {
  const t = message.trim().replace(/[.!]+$/, '');
  const parts = parseIdentifierText(t);
  const out: { catalogNumber?: string; rrid?: string } = {};
  for (const p of parts) {
    if (p.kind === 'rrid' && !out.rrid) out.rrid = p.value;
    if (p.kind === 'catalog' && !out.catalogNumber) out.catalogNumber = p.value;
  }
  return out;
}
