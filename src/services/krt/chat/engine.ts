// A conversation that builds a key resources table. Storage-agnostic: chat(previous state, message) returns the
// new state and the reply; the caller keeps the state wherever it keeps sessions. The state is plain JSON.
//
// Essentials per resource: a name and a type; a source (vendor, repository, or "this study") and an identifier
// (catalog number or RRID) unless the resource is new, software, data or a protocol. A resource with a name and
// a type is added at once and the missing details are asked for; the next message can answer them. RRIDs come
// only from the user or from the knowledge base when it has papers linking that vendor's catalog number to one.

import { formatIdentifier, parseIdentifierText, type IdentifierPart } from '../extract/identifier.ts';
import { isNewSource, makeRow, type KrtRow, type ResourceType } from '../extract/krt-row.ts';
import { resourceTypeFromText } from '../extract/classify.ts';
import type { RridKnowledgeBase } from '../rrid/knowledge-base.ts';
import { parseRrid } from '../rrid/registry.ts';
import { nameTokens } from '../rrid/similarity.ts';
import { bareIdentifier, classifyIntent, parseEntities, resourcePhrase, type ChatEntities, type ChatIntent } from './parse.ts';

type MissingField = 'name' | 'type' | 'vendor' | 'identifier' | 'row' | 'change';

interface Draft {
  type?: ResourceType;
  name?: string;
  vendor?: string;
  catalogNumber?: string;
  rrid?: string;
  clone?: string;
  newReuse?: 'new' | 'reuse';
  additional?: string;
}

interface PendingQuestion {
  /** add: not added yet (no name or type); complete: row `index` lacks details; modify/remove: which row / what. */
  action: 'add' | 'complete' | 'modify' | 'remove';
  index: number | null;
  draft: Draft;
  missing: MissingField[];
  /** For modify: the change waiting for its row. */
  change?: ChatEntities;
}

export interface ChatState {
  version: 1;
  entries: KrtRow[];
  pending: PendingQuestion | null;
  turns: number;
}

export interface ChatTurn {
  state: ChatState;
  response: string;
  intent: ChatIntent;
  krt_entries: KrtRow[];
  needs_clarification: boolean;
  clarifications: string[];
  entities: ChatEntities;
  /** Set for the export intent: the caller produces the file. */
  export: { format: 'csv' | 'excel' | 'json' } | null;
}

export interface ChatOptions {
  kb?: RridKnowledgeBase | null;
}

export function newChatState(): ChatState {
  return { version: 1, entries: [], pending: null, turns: 0 };
}

const NO_SUPPLIER_NEEDED: ReadonlySet<ResourceType> = new Set(['Software/code', 'Dataset', 'Protocol', 'Biological sample']);
const NO_IDENTIFIER_NEEDED: ReadonlySet<ResourceType> = new Set([
  'Software/code',
  'Dataset',
  'Protocol',
  'Biological sample',
  'Oligonucleotide',
  'Other',
]);

function missingOf(d: Draft): MissingField[] {
  const missing: MissingField[] = [];
  if (!d.name) missing.push('name');
  if (!d.type) missing.push('type');
  const fresh = d.newReuse === 'new';
  if (!d.vendor && !fresh && !(d.type && NO_SUPPLIER_NEEDED.has(d.type))) missing.push('vendor');
  if (!d.catalogNumber && !d.rrid && !fresh && !(d.type && NO_IDENTIFIER_NEEDED.has(d.type))) missing.push('identifier');
  return missing;
}

function question(field: MissingField, d: Draft): string {
  const what = d.name ? `the ${d.name}` : 'it';
  switch (field) {
    case 'name':
      return d.type
        ? `Which ${d.type.toLowerCase()} is it (its name, e.g. "rabbit anti-GFP")?`
        : 'Which resource should I add (e.g. "rabbit anti-GFP antibody from Abcam, catalog ab290")?';
    case 'type':
      return `What type of resource is ${what} (antibody, cell line, organism/strain, plasmid, chemical, kit, software, oligonucleotide, …)?`;
    case 'vendor':
      return `Who supplies ${what}: a vendor or repository, or "this study" if you made it?`;
    case 'identifier':
      return `What is the catalog number or RRID of ${what}?`;
    case 'row':
      return 'Which row do you mean (its number, or its name)?';
    case 'change':
      return 'What should I change: the name, type, vendor, catalog number, RRID, or new/reuse?';
  }
}

function rowOf(d: Draft): KrtRow {
  const source = d.vendor ?? (d.newReuse === 'new' ? 'This study' : '');
  const parts: IdentifierPart[] = [];
  if (d.catalogNumber) parts.push({ kind: 'catalog', value: d.catalogNumber, label: '' });
  if (d.rrid) parts.push({ kind: 'rrid', value: d.rrid, label: '' });
  return makeRow({
    'RESOURCE TYPE': d.type ?? 'Other',
    'RESOURCE NAME': d.name ?? '',
    SOURCE: source,
    IDENTIFIER: formatIdentifier(parts),
    'NEW/REUSE': d.newReuse ?? (isNewSource(source) ? 'new' : 'reuse'),
    'ADDITIONAL INFORMATION': [d.clone ? `clone ${d.clone}` : '', d.additional ?? ''].filter(Boolean).join('; '),
  });
}

function draftOf(row: KrtRow): Draft {
  const parts = parseIdentifierText(row.IDENTIFIER);
  const clone = /\bclone\s+(\S+)/.exec(row['ADDITIONAL INFORMATION'])?.[1];
  return {
    type: row['RESOURCE TYPE'],
    name: row['RESOURCE NAME'] || undefined,
    vendor: row.SOURCE && !isNewSource(row.SOURCE) ? row.SOURCE : undefined,
    catalogNumber: parts.find((p) => p.kind === 'catalog')?.value,
    rrid: parts.find((p) => p.kind === 'rrid')?.value,
    clone,
    newReuse: row['NEW/REUSE'],
    additional: row['ADDITIONAL INFORMATION'].replace(/(^|;\s*)clone\s+\S+/, '').replace(/^;\s*/, '') || undefined,
  };
}

function merge(d: Draft, e: ChatEntities): Draft {
  return {
    ...d,
    type: e.type ?? d.type,
    name: e.name ?? d.name,
    vendor: e.vendor ?? d.vendor,
    catalogNumber: e.catalogNumber ?? d.catalogNumber,
    rrid: e.rrid ?? d.rrid,
    clone: e.clone ?? d.clone,
    newReuse: e.newReuse ?? d.newReuse,
    additional: e.additional ?? d.additional,
  };
}

/** The knowledge base's RRID for a vendor's catalog number, with the evidence, or null. Never a guess. */
function knownRrid(kb: RridKnowledgeBase | null | undefined, d: Draft): { rrid: string; note: string } | null {
  if (!kb || d.rrid || !d.catalogNumber || !d.vendor) return null;
  const hits = kb.rridsForCatalog(d.catalogNumber, d.vendor);
  if (hits.length === 0) return null;
  const best = hits[0];
  const others = hits.length > 1 ? ` (${hits.length - 1} other RRID${hits.length > 2 ? 's' : ''} with fewer papers)` : '';
  return {
    rrid: best.rrid,
    note: `RRID:${best.rrid} from the knowledge base: ${best.papers} paper${best.papers === 1 ? '' : 's'} list ${d.vendor} ${d.catalogNumber} with it${others}`,
  };
}

function describe(row: KrtRow, index?: number): string {
  const details = [row.SOURCE, row.IDENTIFIER].filter(Boolean).join('; ');
  return `${index !== undefined ? `${index + 1}. ` : ''}${row['RESOURCE TYPE']}: ${row['RESOURCE NAME']}${details ? ` (${details})` : ''} [${row['NEW/REUSE']}]`;
}

function tableSize(entries: readonly KrtRow[]): string {
  return `The table has ${entries.length} resource${entries.length === 1 ? '' : 's'}.`;
}

/** Finds the row a message points at: by number, "last", or by name. null = none; 'ambiguous' = several. */
function resolveRow(entries: readonly KrtRow[], e: ChatEntities, message: string): number | null | 'ambiguous' {
  if (typeof e.rowRef === 'number') return e.rowRef >= 0 && e.rowRef < entries.length ? e.rowRef : null;
  if (e.rowRef === 'last') return entries.length ? entries.length - 1 : null;
  const wanted = nameTokens([e.name, e.target, message].filter(Boolean).join(' '));
  const generic = new Set([
    'antibody',
    'row',
    'entry',
    'resource',
    'remove',
    'delete',
    'change',
    'set',
    'update',
    'modify',
    'vendor',
    'catalog',
    'rrid',
    'name',
    'type',
    'number',
    'source',
    'supplier',
    'new',
    'reuse',
    'mark',
    'as',
    'it',
  ]);
  const useful = wanted.filter((t) => !generic.has(t));
  if (useful.length === 0) return entries.length === 1 ? 0 : null;
  let best = 0;
  let hits: number[] = [];
  entries.forEach((row, i) => {
    const tokens = new Set(nameTokens(`${row['RESOURCE NAME']} ${row.SOURCE} ${row.IDENTIFIER}`));
    const score = useful.filter((t) => tokens.has(t)).length;
    if (score > best) {
      best = score;
      hits = [i];
    } else if (score === best && score > 0) hits.push(i);
  });
  if (best === 0) return null;
  return hits.length === 1 ? hits[0] : 'ambiguous';
}

const HELP = [
  'I build a key resources table with you. For example:',
  '• "Add rabbit anti-GFP antibody from Abcam, catalog ab290" (add a resource)',
  '• "Add C57BL/6J mice from The Jackson Laboratory, stock 000664"',
  '• "Change the vendor of row 1 to Thermo Fisher" / "Set the RRID of the GFP antibody to AB_303395" (modify)',
  '• "Remove row 2" / "Delete the GFP antibody" (remove)',
  '• "Show the table" (list) / "Export as CSV" (csv, excel or json)',
].join('\n');

/** One turn of the conversation. */
export function chat(previous: ChatState | null | undefined, message: string, options: ChatOptions = {}): ChatTurn {
  const state: ChatState = previous ? structuredClone(previous) : newChatState();
  state.turns++;
  const text = (message ?? '').trim();
  const intent = classifyIntent(text, state.pending !== null);
  const entities = parseEntities(text);
  const reply = (response: string, clarifications: string[] = [], exportFormat: ChatTurn['export'] = null): ChatTurn => ({
    state,
    response,
    intent,
    krt_entries: state.entries.map((r) => ({ ...r })),
    needs_clarification: clarifications.length > 0,
    clarifications,
    entities,
    export: exportFormat,
  });
  if (intent !== 'clarification_answer') state.pending = null;

  switch (intent) {
    case 'help':
      return reply(HELP);

    case 'list_resources':
      return reply(
        state.entries.length === 0
          ? 'The table is empty. Add a resource, e.g. "Add rabbit anti-GFP antibody from Abcam, catalog ab290".'
          : `${state.entries.map((r, i) => describe(r, i)).join('\n')}\n${tableSize(state.entries)}`,
      );

    case 'export': {
      const format = entities.exportFormat ?? 'csv';
      if (state.entries.length === 0) return reply('The table is empty, so there is nothing to export yet.');
      return reply(
        `Your table of ${state.entries.length} resource${state.entries.length === 1 ? '' : 's'} is ready to export as ${format.toUpperCase()}.`,
        [],
        { format },
      );
    }

    case 'add_resource':
      return addResource(state, {}, entities, options, reply);

    case 'clarification_answer':
      return answer(state, text, entities, options, reply);

    case 'remove_resource': {
      if (state.entries.length === 0) return reply('The table is empty; there is nothing to remove.');
      if (entities.rowRef === 'all') {
        const n = state.entries.length;
        state.entries = [];
        return reply(`Removed all ${n} resources. The table is empty.`);
      }
      const index = resolveRow(state.entries, entities, text);
      if (index === null || index === 'ambiguous') {
        state.pending = { action: 'remove', index: null, draft: {}, missing: ['row'] };
        const list = state.entries.map((r, i) => describe(r, i)).join('\n');
        return reply(`${index === 'ambiguous' ? 'Several rows match.' : 'I could not tell which row to remove.'}\n${list}`, [
          question('row', {}),
        ]);
      }
      const [removed] = state.entries.splice(index, 1);
      return reply(`Removed ${describe(removed)}. ${tableSize(state.entries)}`);
    }

    case 'modify_resource': {
      if (state.entries.length === 0) return reply('The table is empty; add a resource first.');
      const index = resolveRow(state.entries, entities, text);
      if (index === null || index === 'ambiguous') {
        state.pending = { action: 'modify', index: null, draft: {}, missing: ['row'], change: entities };
        return reply(index === 'ambiguous' ? 'Several rows match.' : 'I could not tell which row to change.', [question('row', {})]);
      }
      return modify(state, index, entities, options, reply);
    }
  }
}

type Reply = (response: string, clarifications?: string[], exportFormat?: ChatTurn['export']) => ChatTurn;

function addResource(state: ChatState, base: Draft, e: ChatEntities, options: ChatOptions, reply: Reply): ChatTurn {
  let draft = merge(base, e);
  const notes: string[] = [];
  if (e.rridProblem)
    notes.push(e.rrid ? `I corrected the RRID: ${e.rridProblem}.` : `That RRID is not valid: ${e.rridProblem}; I left it out.`);
  const known = knownRrid(options.kb, draft);
  if (known) {
    draft = { ...draft, rrid: known.rrid };
    notes.push(`${known.note}.`);
  }
  const missing = missingOf(draft);
  if (missing.includes('name') || missing.includes('type')) {
    state.pending = { action: 'add', index: null, draft, missing };
    return reply(
      ['I need a little more before adding it.', ...notes].join(' '),
      missing.map((m) => question(m, draft)),
    );
  }
  const row = rowOf(draft);
  state.entries.push(row);
  const index = state.entries.length - 1;
  if (missing.length) state.pending = { action: 'complete', index, draft, missing };
  const text = [`Added ${describe(row)}.`, ...notes, tableSize(state.entries)].join(' ');
  return reply(
    text,
    missing.map((m) => question(m, draft)),
  );
}

function answer(state: ChatState, text: string, e: ChatEntities, options: ChatOptions, reply: Reply): ChatTurn {
  const pending = state.pending!;
  state.pending = null;
  if (pending.action === 'remove' || pending.action === 'modify') {
    const bareNumber = /^\s*(?:row\s*|#)?(\d{1,3})\s*[.!]?\s*$/i.exec(text);
    const index = resolveRow(state.entries, bareNumber ? { ...e, rowRef: Number(bareNumber[1]) - 1 } : e, text);
    if (index === null || index === 'ambiguous') {
      state.pending = pending;
      return reply('I still cannot tell which row you mean.', [question('row', {})]);
    }
    if (pending.action === 'remove') {
      const [removed] = state.entries.splice(index, 1);
      return reply(`Removed ${describe(removed)}. ${tableSize(state.entries)}`);
    }
    return modify(state, index, pending.change ?? {}, options, reply);
  }
  // Filling in details of an addition: a bare answer ("ab290", "Abcam", "this study", "antibody") counts.
  const fill: ChatEntities = { ...e };
  const bare = bareIdentifier(text);
  if (pending.missing.includes('identifier')) {
    fill.catalogNumber ??= bare.catalogNumber;
    fill.rrid ??= bare.rrid;
  }
  if (pending.missing.includes('type') && !fill.type) fill.type = resourceTypeFromText(text) ?? undefined;
  const answersName = pending.missing.includes('name') && (fill.name || resourcePhrase(text));
  if (pending.missing.includes('vendor') && !answersName && !fill.vendor && fill.newReuse !== 'new' && !fill.catalogNumber && !fill.rrid) {
    const candidate = text
      .replace(/^(it'?s|from|by|the vendor is|vendor:?)\s+/i, '')
      .replace(/[.!]+$/, '')
      .trim();
    if (candidate && candidate.split(/\s+/).length <= 6 && /\p{L}/u.test(candidate)) fill.vendor = candidate;
  }
  if (pending.missing.includes('name') && !fill.name) fill.name = resourcePhrase(text) || undefined;
  // Only the details asked for, plus anything explicit, change the draft; a new name is not taken silently.
  if (!pending.missing.includes('name') && pending.draft.name) fill.name = undefined;
  if (pending.action === 'add') return addResource(state, pending.draft, fill, options, reply);
  // Completing a row already in the table.
  const index = pending.index!;
  let draft = merge(pending.draft, fill);
  const notes: string[] = [];
  if (fill.rridProblem)
    notes.push(fill.rrid ? `I corrected the RRID: ${fill.rridProblem}.` : `That RRID is not valid: ${fill.rridProblem}.`);
  const known = knownRrid(options.kb, draft);
  if (known) {
    draft = { ...draft, rrid: known.rrid };
    notes.push(`${known.note}.`);
  }
  state.entries[index] = rowOf(draft);
  const missing = missingOf(draft);
  if (missing.length) state.pending = { action: 'complete', index, draft, missing };
  return reply(
    [`Updated ${describe(state.entries[index], index)}.`, ...notes].join(' '),
    missing.map((m) => question(m, draft)),
  );
}

function modify(state: ChatState, index: number, e: ChatEntities, options: ChatOptions, reply: Reply): ChatTurn {
  const before = state.entries[index];
  let draft = draftOf(before);
  const changes: string[] = [];
  const value = e.value?.trim();
  const set = (what: string, apply: () => void) => {
    apply();
    changes.push(what);
  };
  switch (e.field) {
    case 'vendor':
      if (value || e.vendor)
        set('vendor', () => {
          draft.vendor = e.vendor ?? value;
        });
      break;
    case 'catalog':
      if (value || e.catalogNumber)
        set('catalog number', () => {
          draft.catalogNumber = (e.catalogNumber ?? bareIdentifier(value ?? '').catalogNumber ?? value)?.replace(/^#/, '');
          draft.rrid = draft.rrid;
        });
      break;
    case 'rrid': {
      const raw = value ?? e.rrid;
      if (raw) {
        const parsed = parseRrid(raw);
        const rrid = parsed.normalized ?? parsed.corrected;
        if (rrid)
          set(`RRID${parsed.corrected ? ` (corrected to RRID:${rrid})` : ''}`, () => {
            draft.rrid = rrid;
          });
        else return reply(`"${raw}" is not a valid RRID (${parsed.problem}); nothing changed.`);
      }
      break;
    }
    case 'name':
      if (value)
        set('name', () => {
          draft.name = value;
        });
      break;
    case 'type': {
      const type = value ? resourceTypeFromText(value) : e.type;
      if (type)
        set('type', () => {
          draft.type = type;
        });
      break;
    }
    case 'newReuse':
      if (e.newReuse)
        set('new/reuse', () => {
          draft.newReuse = e.newReuse;
        });
      break;
    case 'clone':
      if (value || e.clone)
        set('clone', () => {
          draft.clone = e.clone ?? value;
        });
      break;
    case 'additional':
      if (value)
        set('additional information', () => {
          draft.additional = value;
        });
      break;
    default:
      break;
  }
  if (changes.length === 0) {
    // No field named: take whatever details the message carries.
    if (e.vendor)
      set('vendor', () => {
        draft.vendor = e.vendor;
      });
    if (e.catalogNumber)
      set('catalog number', () => {
        draft.catalogNumber = e.catalogNumber;
      });
    if (e.rrid)
      set('RRID', () => {
        draft.rrid = e.rrid;
      });
    if (e.newReuse)
      set('new/reuse', () => {
        draft.newReuse = e.newReuse;
        if (e.newReuse === 'new' && !draft.vendor) draft.vendor = undefined;
      });
    if (e.clone)
      set('clone', () => {
        draft.clone = e.clone;
      });
  }
  if (changes.length === 0) {
    state.pending = { action: 'complete', index, draft, missing: missingOf(draft) };
    return reply(`What should I change in ${describe(before, index)}?`, [question('change', draft)]);
  }
  const notes: string[] = [];
  if (changes.includes('catalog number') || changes.includes('vendor')) {
    // A new catalog number or vendor may make the old RRID wrong: keep it only if the user gave it now.
    if (!changes.some((c) => c.startsWith('RRID'))) draft = { ...draft, rrid: undefined };
    const known = knownRrid(options.kb, draft);
    if (known) {
      draft = { ...draft, rrid: known.rrid };
      notes.push(`${known.note}.`);
    }
  }
  state.entries[index] = rowOf(draft);
  return reply([`Changed the ${changes.join(', ')} of row ${index + 1}: ${describe(state.entries[index])}.`, ...notes].join(' '));
}
