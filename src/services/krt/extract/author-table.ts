// Author-made key resources tables in JATS: STAR Methods (REAGENT or RESOURCE | SOURCE | IDENTIFIER with
// category rows), eLife (reagent type (species) or resource | designation | source or reference | identifiers |
// additional information), and their relatives (EMBO "Reagents and Tools", typed 5-column tables, a STAR table
// split over several consecutive tables). Found wherever they sit: body, back, floats-group, appendices.

import { firstChild, isElement, textOf, type XmlElement } from '../jats/tree.ts';
import { typeByContent, typeOfCategory, type CategoryType } from './classify.ts';
import { normalizeIdentifier, parseIdentifierText } from './identifier.ts';
import { isNewSource, makeRow, type KrtRow, type ResourceType } from './krt-row.ts';
import { filledCells, tableGrid, type GridRow } from './table-grid.ts';
import { findVendor } from './vendors.ts';

/** star, elife, typed (a type column): key resources tables; resource: a table of one kind of resource whose header
 * names resource, source and identifier columns in any order ("Antibody | Host | Supplier | Catalogue no. | Dilution"). */
export type TableLayout = 'star' | 'elife' | 'typed' | 'resource';

/** Why a table of the `resource` layout was taken (tables the STAR/eLife rules take have other reasons). */
const RESOURCE_COLUMNS_REASON = 'resource, source and identifier columns';
type Role = 'type' | 'name' | 'source' | 'identifier' | 'additional';

interface TableWrapInfo {
  /** Position among all table-wraps of the article (0-based, document order). */
  index: number;
  id: string;
  label: string;
  caption: string;
  /** Where the table sits: body, back, floats-group, … */
  location: string;
  /** Nearest heading before the table. */
  heading: string;
  /** Paragraphs (or figures) between the previous table-wrap and this one. */
  gapBefore: number;
  /** Paragraphs (or figures) between the heading and this table. */
  headingGap: number;
  element: XmlElement;
}

interface AuthorTablePart {
  table: TableWrapInfo;
  layout: TableLayout;
  /** Column roles, one per grid column. */
  roles: Role[];
  /** Why the table was taken as a key resources table. */
  reason: string;
  rows: KrtRow[];
  /** Grid row numbers (0-based) that produced the rows, same order. */
  sourceRows: number[];
}

export interface AuthorTableResult {
  parts: AuthorTablePart[];
  rows: KrtRow[];
}

// ---------------------------------------------------------------------------------------------------------
// Finding table-wraps with their context

/** Every table-wrap of the article in document order, with heading and gap context. */
function listTableWraps(article: XmlElement): TableWrapInfo[] {
  const out: TableWrapInfo[] = [];
  let heading = '';
  let gap = 0;
  let headingGap = 0;
  const visit = (el: XmlElement, location: string) => {
    for (const child of el.children) {
      if (!isElement(child)) continue;
      const loc = location || (['body', 'back', 'floats-group', 'front'].includes(child.name) ? child.name : '');
      if (child.name === 'table-wrap') {
        out.push({
          index: out.length,
          id: child.attrs.id ?? '',
          label: textOf(firstChild(child, 'label')),
          caption: textOf(firstChild(child, 'caption')),
          location: loc || 'other',
          heading,
          gapBefore: gap,
          headingGap,
          element: child,
        });
        gap = 0;
        continue;
      }
      if (child.name === 'title' && !['table-wrap', 'fig'].includes(el.name)) {
        heading = textOf(child);
        headingGap = 0;
        continue;
      }
      if (child.name === 'fig' || child.name === 'ref-list' || child.name === 'fn-group') {
        gap++;
        headingGap++;
        continue;
      }
      if (child.name === 'p' || child.name === 'list') {
        const own = textOf(child, { skip: new Set(['table-wrap', 'fig']) });
        if (own) {
          gap++;
          headingGap++;
        }
      }
      visit(child, loc);
    }
  };
  visit(article, '');
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Header and table recognition

const KRT_TITLE =
  /key\s+resources?(\s+table)?|\bresources?\s+table|reagents?\s+and\s+(tools|resources)|key\s+reagents|table\s+of\s+(key\s+)?(reagents|resources)/i;
const KRT_NAME_HEADER =
  /reagent\s*(or|of|\/|and)\s*resource|reagent\s+or\s+tool|reagent\s+type|resource\s+type|^designation$|^resources?$/i;

// STAR Methods category vocabulary (Cell Press "STAR Methods" KRT template), and common variants.
const STAR_CATEGORY =
  /^(antibodies|bacterial and virus strains|biological samples|chemicals, peptides,? and recombinant proteins|critical commercial assays|deposited data|experimental models?:?\s*(cell lines|organisms\/strains|organisms?|strains)|oligonucleotides|recombinant dna|software and algorithms|other|cell lines|viruses|virus strains|bacterial strains|plasmids|primers|software)$/i;

const IDENTIFIER_HEADER = /identifier|catalog|catalogue|cat\.? ?(#|no)|product (number|no|code)|^rrid|accession|^ref(\.|erence)? ?(#|no)/;

function roleOfHeader(text: string, column: number, taken: Set<Role>, identifierColumnExists: boolean): Role | null {
  const h = text.toLowerCase().replace(/\s+/g, ' ').trim();
  if (!h) return null;
  if (/reagent type|resource type|^type$|^category$/.test(h)) return 'type';
  // "Reference" is the identifier column of some STAR tables, and a literature source next to an RRID column.
  if (/^references?$/.test(h))
    return identifierColumnExists || taken.has('identifier') ? (taken.has('source') ? 'additional' : 'source') : 'identifier';
  if (IDENTIFIER_HEADER.test(h)) return 'identifier';
  if (/\bsources?\b|supplier|company|vendor|manufacturer|provider|^origin|obtained from/.test(h)) return 'source';
  if (/additional|notes?\b|comments?|information|dilution|application|details|description|remarks/.test(h)) return 'additional';
  if (/^resources?$/.test(h) && taken.has('name')) return 'source';
  if (KRT_NAME_HEADER.test(h) || /^(reagents?|names?|resources?|materials?|items?)$/.test(h)) return 'name';
  if (typeOfCategory(h) && column === 0) return 'name'; // "Antibody | Source | Identifier", "Fly | Source | …"
  return null;
}

interface HeaderMatch {
  roles: Role[];
  headerRows: number;
  /** The header cells' texts, and a one-cell title row above them ("Primary antibodies"), if any. */
  texts: string[];
  titleRow: string;
  krtVocabulary: boolean;
  starColumns: boolean;
  categoryHeader: string;
}

/** Finds the header row among the first rows (after a title row such as "Key Resources Table"). */
function matchHeader(grid: GridRow[]): HeaderMatch | null {
  const width = grid[0]?.cells.length ?? 0;
  let titleRow = '';
  for (let r = 0; r < Math.min(3, grid.length); r++) {
    const filled = filledCells(grid[r]);
    if (filled.length === 1) titleRow ||= filled[0].text;
    if (filled.length === 1 && KRT_TITLE.test(filled[0].text)) continue; // title row
    const texts = grid[r].cells.map((c) => (c.copiedBy === 'col' ? '' : c.text));
    const taken = new Set<Role>();
    const identifierColumnExists = texts.some((t) => IDENTIFIER_HEADER.test(t.toLowerCase().trim()));
    const roles: (Role | null)[] = texts.map((t, i) => {
      const role = roleOfHeader(t, i, taken, identifierColumnExists);
      if (role) taken.add(role);
      return role;
    });
    const recognised = roles.filter((x) => x !== null).length;
    if (recognised < 2 || !(taken.has('source') || taken.has('identifier'))) {
      if (filled.length > 1) return null; // a data row: no header
      continue;
    }
    // Unlabelled first column in a STAR table ("  | SOURCE | IDENTIFIER").
    const finalRoles: Role[] = roles.map(
      (role, i) => role ?? (i === roles.findIndex((x) => x === null) && !taken.has('name') ? 'name' : 'additional'),
    );
    if (!finalRoles.includes('name')) {
      const firstFree = finalRoles.findIndex((x) => x === 'type') === 0 ? 1 : 0;
      finalRoles[firstFree] = 'name';
    }
    const krtVocabulary = texts.some((t) => KRT_NAME_HEADER.test(t.trim()));
    const starColumns = width >= 3 && /^sources?$/i.test(texts[1]?.trim() ?? '') && /^identifiers?$/i.test(texts[2]?.trim() ?? '');
    const categoryHeader = typeOfCategory(texts[0] ?? '') && !KRT_NAME_HEADER.test(texts[0] ?? '') ? texts[0] : '';
    return { roles: finalRoles, headerRows: r + 1, texts, titleRow, krtVocabulary, starColumns, categoryHeader };
  }
  return null;
}

/** A row that names a category: one written cell (usually spanning), short, not a resource itself. */
function categoryOfRow(row: GridRow, roles: Role[]): string | null {
  const filled = filledCells(row);
  if (filled.length === 0) return null;
  if (filled.length === 1) {
    const cell = filled[0];
    const label = (cell.lead || cell.text).replace(/[:\s]+$/, '').trim();
    const spans = cell.colspan >= Math.max(2, roles.length - 1);
    if (spans || cell.header || STAR_CATEGORY.test(label) || /:$/.test(cell.text.trim())) return label;
    // A lone cell reads as a category when it is a short type word ("Plasmids", "Mice"), not a resource ("C57BL/6J").
    if (typeOfCategory(label) && !/\d/.test(label) && label.split(/\s+/).length <= 6) return label;
    return null;
  }
  // A repeated header inside the table ("Chemical | Source | Identifier").
  const texts = row.cells.map((c) => c.text.trim().toLowerCase());
  const sourceCol = roles.indexOf('source');
  const idCol = roles.indexOf('identifier');
  if (sourceCol >= 0 && /^sources?$/.test(texts[sourceCol] ?? '') && (idCol < 0 || /^identifiers?$/.test(texts[idCol] ?? ''))) {
    return row.cells[roles.indexOf('name')]?.text.trim() ?? '';
  }
  return null;
}

const DEFAULT_STAR_ROLES: Role[] = ['name', 'source', 'identifier'];

interface Candidate {
  info: TableWrapInfo;
  grid: GridRow[];
  layout: TableLayout;
  roles: Role[];
  headerRows: number;
  reason: string;
  initialCategory: string;
  /**
   * Strong: a key resources table on its own (KRT header vocabulary, SOURCE | IDENTIFIER columns, eLife
   * layout, a KRT title, or several STAR category rows). Weak: only as part of a run of consecutive tables
   * that together make one (a STAR table split by category, as some authors lay it out).
   */
  strong: boolean;
}

/** Columns that hold text somewhere (authors leave empty spacer columns). */
function usedWidth(grid: GridRow[]): number {
  const width = grid[0]?.cells.length ?? 0;
  let used = 0;
  for (let c = 0; c < width; c++) if (grid.some((row) => row.cells[c]?.text)) used++;
  return used;
}

function distinctStarCategories(grid: GridRow[], roles: Role[]): number {
  const seen = new Set<string>();
  for (const row of grid) {
    const label = categoryOfRow(row, roles);
    if (label && STAR_CATEGORY.test(label)) seen.add(label.toLowerCase());
  }
  return seen.size;
}

const CATALOG_HEADER = /catalog|catalogue|cat\.?\s*(#|no)|product|order|rrid|research resource identifier/i;
const LIST_CAPTION =
  /\bused\b|\blist of\b|\bantibod|\breagents?\b|\bplasmids?\b|\bstrains?\b|\bstocks?\b|\blines?\b|\bprimers?\b|\boligo|\bcompounds?\b|\bchemicals?\b|\bkits?\b|\bconstructs?\b|\bviruses\b|\bsoftware\b/i;

/** The one kind of resource a text names ("Antibodies used in this study" → Antibody), '' when none or several. */
function kindOf(text: string): string {
  // Words that say "a resource" without saying which kind.
  if (/^\s*(?:reagents?|resources?|materials?|names?|items?|products?)\s*$/i.test(text)) return '';
  const chunks = text
    .split(/,|;|\band\b|&|\//)
    .map((c) => c.trim())
    .filter(Boolean);
  const kinds = new Set(chunks.map((c) => typeOfCategory(c)?.type ?? null).filter((t) => t !== null));
  return kinds.size === 1 ? [...kinds][0] : '';
}

/**
 * A table of resources in another layout: the header names a resource column and a source column and an
 * identifier column, in any order; or a resource column and a catalog/identifier column, or a source column, in a
 * table whose header or caption says which kind of resource it lists. Returns the category its rows take ('' when
 * the rows' content decides), or null when the table is not one.
 */
function resourceColumns(info: TableWrapInfo, grid: GridRow[], header: HeaderMatch): string | null {
  const { roles, texts, headerRows } = header;
  const dataRows = grid.slice(headerRows).filter((row) => row.section !== 'tfoot' && filledCells(row).length >= 2).length;
  if (dataRows < 2 || !roles.includes('name')) return null;
  const nameHeader = texts.filter((_, i) => roles[i] === 'name').join(' ');
  const caption = `${info.label} ${info.caption}`;
  const ownKind = kindOf(header.titleRow) || kindOf(nameHeader);
  const kind = ownKind || kindOf(info.caption);
  const hasSource = roles.includes('source');
  const identifierHeaders = texts.filter((_, i) => roles[i] === 'identifier');
  const catalogColumn = identifierHeaders.some((t) => CATALOG_HEADER.test(t));
  if (hasSource && identifierHeaders.length > 0) return kind;
  if (catalogColumn && (kind || LIST_CAPTION.test(caption))) return kind;
  if (hasSource && ownKind && LIST_CAPTION.test(`${caption} ${header.titleRow} ${nameHeader}`)) return ownKind;
  return null;
}

/** Whether a table-wrap is, or may be part of, a key resources table. */
function candidateOf(info: TableWrapInfo, grid: GridRow[], previous: Candidate | null): Candidate | null {
  const width = grid[0]?.cells.length ?? 0;
  if (width < 2 || grid.length < 1) return null;
  const used = usedWidth(grid);
  const header = matchHeader(grid);
  const titled =
    KRT_TITLE.test(`${info.label} ${info.caption}`) ||
    (KRT_TITLE.test(info.heading) && info.headingGap <= 2) ||
    grid.slice(0, 1).some((row) => filledCells(row).length === 1 && KRT_TITLE.test(filledCells(row)[0].text));
  const base = { info, grid };
  if (header) {
    const { roles, headerRows } = header;
    const designation = roles.some((r, i) => r === 'name' && /designation/i.test(grid[headerRows - 1].cells[i].text));
    const layout: TableLayout = roles.includes('type') ? (designation ? 'elife' : 'typed') : 'star';
    const make = (reason: string, strong: boolean, initialCategory = header.categoryHeader): Candidate => ({
      ...base,
      layout,
      roles,
      headerRows,
      reason,
      initialCategory,
      strong,
    });
    if (header.krtVocabulary) return make('key resources header', true, '');
    if (header.starColumns && used === 3) return make('SOURCE and IDENTIFIER columns', true);
    if (titled && roles.includes('name') && used >= 3) return make('key resources title', true);
    const complete = roles.includes('name') && roles.includes('source') && roles.includes('identifier');
    if (header.categoryHeader && complete && used === 3) return make('category-headed table', false);
    if (
      previous &&
      previous.layout !== 'resource' &&
      info.gapBefore === 0 &&
      header.categoryHeader &&
      (roles.includes('source') || roles.includes('identifier'))
    ) {
      return make('continues the previous key resources table', false);
    }
    const resource = resourceColumns(info, grid, header);
    if (resource !== null) return { ...make(RESOURCE_COLUMNS_REASON, true, resource), layout: 'resource' };
    return null;
  }
  // No header row: a STAR table made of category rows, or a continuation of the previous table.
  const firstFilled = filledCells(grid[0]);
  const firstCategory = firstFilled.length === 1 ? (firstFilled[0].lead || firstFilled[0].text).replace(/[:\s]+$/, '') : '';
  if (used === 3 && firstCategory && STAR_CATEGORY.test(firstCategory)) {
    const strong = titled || distinctStarCategories(grid, DEFAULT_STAR_ROLES) >= 2;
    return { ...base, layout: 'star', roles: DEFAULT_STAR_ROLES, headerRows: 0, reason: 'STAR category rows', initialCategory: '', strong };
  }
  // A table of one kind of resource is complete with its own header: what follows it is not its continuation.
  if (previous && previous.layout !== 'resource' && info.gapBefore === 0 && width <= Math.max(previous.roles.length, 3)) {
    const roles = (previous.roles.length >= width ? previous.roles : DEFAULT_STAR_ROLES).slice(0, width);
    const headingCategory = typeOfCategory(info.heading) ? info.heading : '';
    if ((firstCategory && typeOfCategory(firstCategory)) || headingCategory) {
      return {
        ...base,
        layout: previous.layout,
        roles,
        headerRows: 0,
        reason: 'continues the previous key resources table',
        initialCategory: firstCategory ? '' : headingCategory,
        strong: false,
      };
    }
  }
  if (titled && used === 3 && grid.length >= 3) {
    return {
      ...base,
      layout: 'star',
      roles: DEFAULT_STAR_ROLES,
      headerRows: 0,
      reason: 'key resources title',
      initialCategory: '',
      strong: true,
    };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Rows

function cellText(row: GridRow, roles: Role[], role: Role): string {
  const parts: string[] = [];
  row.cells.forEach((cell, i) => {
    if (roles[i] === role && cell.text && cell.copiedBy !== 'col') parts.push(cell.text);
  });
  return parts.join('; ');
}

function resolveType(category: CategoryType | null, name: string, source: string, identifier: string): ResourceType {
  if (category?.type) return category.type;
  return typeByContent(name, source, identifier, category?.choices ?? []);
}

/** A supplier and a product code written in one cell, either order: [supplier, code], or null. */
function vendorAndCode(text: string): [string, string] | null {
  const t = text.trim();
  const after =
    /^(.*?[A-Za-z].*?)\s*(?:,|;|\(|\s)\s*((?:cat(?:alog(?:ue)?)?\.?\s*(?:#|no\.?|number)?\s*[:#]?\s*|#\s*)?[A-Za-z]{0,5}-?\d[\w.\/-]*)\)?$/i.exec(
      t,
    );
  if (after && (findVendor(after[1]) || /^[A-Z][\w&.'-]*(?:\s+[A-Z&][\w&.'-]*){0,4}$/.test(after[1])) && /\d/.test(after[2]))
    return [after[1].replace(/[\s,;]+$/, ''), after[2]];
  const before = /^((?:[A-Za-z]{0,5}-?)?\d[\w.\/-]*)\s*[,;]\s*(.*[A-Za-z].*)$/.exec(t);
  if (before && findVendor(before[2])) return [before[2].trim(), before[1]];
  return null;
}

function rowsOfTable(
  grid: GridRow[],
  roles: Role[],
  headerRows: number,
  initialCategory: string,
): { rows: KrtRow[]; sourceRows: number[] } {
  const rows: KrtRow[] = [];
  const sourceRows: number[] = [];
  const headerTexts = headerRows > 0 ? grid[headerRows - 1].cells.map((cell) => cell.text.trim().toLowerCase()) : [];
  const rridColumns = new Set(headerTexts.flatMap((text, i) => (/\brrid|research resource identif/.test(text) ? [i] : [])));
  let category: CategoryType | null = initialCategory ? typeOfCategory(initialCategory) : null;
  for (let r = headerRows; r < grid.length; r++) {
    const row = grid[r];
    if (row.section === 'tfoot') continue;
    if (filledCells(row).length === 0) continue;
    const label = roles.includes('type') && filledCells(row).length > 1 ? null : categoryOfRow(row, roles);
    if (label !== null) {
      const mapped = typeOfCategory(label);
      // A sub-heading that is not a category ("For immunolabelling:") keeps the current category.
      if (mapped) category = mapped;
      continue;
    }
    // A row with a single written cell is a heading or a note ("Plasmids are listed in Table S2"), never a
    // resource: a resource row carries at least a source, an identifier or a type besides its name.
    if (filledCells(row).length < 2) continue;
    // Two name columns whose first holds a kind ("Antibody | anti-GFP"): the kind is a type, never part of the name.
    const nameCells = row.cells.filter((cell, i) => roles[i] === 'name' && cell.text && cell.copiedBy !== 'col').map((cell) => cell.text);
    const kindCell =
      nameCells.length > 1 && typeOfCategory(nameCells[0])?.type && nameCells[0].split(/\s+/).length <= 6 ? nameCells[0] : '';
    const name = (kindCell ? nameCells.slice(1) : nameCells).join('; ');
    if (!name || /^(n\/?a|-+|none)$/i.test(name)) continue; // template guidance or an empty line
    // The header written again inside the table ("Antibody | Company | Catalogue#"): not a resource.
    if (headerTexts.length && row.cells.every((cell, i) => !cell.text || cell.text.trim().toLowerCase() === headerTexts[i])) continue;
    let source = cellText(row, roles, 'source');
    // In a column headed "RRID", a value written without its label is still an RRID ("AB 272I036").
    let identifierText = row.cells
      .map((cell, i) =>
        roles[i] === 'identifier' && cell.text && cell.copiedBy !== 'col'
          ? rridColumns.has(i) && !/\brrid\b/i.test(cell.text) && !/^(?:n\/?a|none|-+)$/i.test(cell.text.trim())
            ? `RRID:${cell.text}`
            : cell.text
          : '',
      )
      .filter(Boolean)
      .join('; ');
    // "Abcam, ab290" or "Sigma (T9026)" in the source column, with no catalog number in an identifier column; or in
    // an identifier column headed "Vendor/Catalog #" with no source column.
    if (source && !parseIdentifierText(identifierText).some((p) => p.kind === 'catalog')) {
      const split = vendorAndCode(source);
      if (split) {
        source = split[0];
        identifierText = [split[1], identifierText].filter(Boolean).join('; ');
      }
    } else if (!source && identifierText) {
      const split = vendorAndCode(identifierText);
      if (split) [source, identifierText] = split;
    }
    const additional = cellText(row, roles, 'additional');
    const typeText = [kindCell, cellText(row, roles, 'type')].filter(Boolean).join('; ');
    const rowCategory = typeText ? (typeOfCategory(typeText) ?? category) : category;
    const type = resolveType(rowCategory, `${name} ${typeText}`, source, identifierText);
    rows.push(
      makeRow({
        'RESOURCE TYPE': type,
        'RESOURCE NAME': name,
        SOURCE: source,
        IDENTIFIER: normalizeIdentifier(identifierText, { source }),
        'NEW/REUSE': isNewSource(source) || isNewSource(identifierText) ? 'new' : 'reuse',
        'ADDITIONAL INFORMATION': [typeText && !typeOfCategory(typeText)?.type ? typeText : '', additional].filter(Boolean).join('; '),
      }),
    );
    sourceRows.push(r);
  }
  return { rows, sourceRows };
}

/** Finds and parses the author key resources table(s) of an article; null when there is none. */
export function extractAuthorTables(article: XmlElement): AuthorTableResult | null {
  // Runs of consecutive candidate tables (nothing but headings between them).
  const runs: Candidate[][] = [];
  let previous: Candidate | null = null;
  for (const info of listTableWraps(article)) {
    const table = firstTableOf(info.element);
    const candidate: Candidate | null = table ? candidateOf(info, tableGrid(table), info.gapBefore === 0 ? previous : null) : null;
    if (candidate) {
      if (previous && info.gapBefore === 0) runs[runs.length - 1].push(candidate);
      else runs.push([candidate]);
    }
    previous = candidate;
  }
  const parts: AuthorTablePart[] = [];
  for (const run of runs) {
    // A run is a key resources table if one of its tables is one on its own, or if several tables form a
    // STAR table split by category.
    if (!run.some((c) => c.strong) && run.length < 2) continue;
    for (const c of run) {
      const { rows, sourceRows } = rowsOfTable(c.grid, c.roles, c.headerRows, c.initialCategory);
      if (rows.length > 0) parts.push({ table: c.info, layout: c.layout, roles: c.roles, reason: c.reason, rows, sourceRows });
    }
  }
  // Where the authors wrote a key resources table, that is their table; single-kind resource tables stand in only
  // for papers without one.
  const kept = parts.some((p) => p.layout !== 'resource') ? parts.filter((p) => p.layout !== 'resource') : parts;
  if (kept.length === 0) return null;
  return { parts: kept, rows: kept.flatMap((p) => p.rows) };
}

function firstTableOf(wrap: XmlElement): XmlElement | undefined {
  const direct = firstChild(wrap, 'table');
  if (direct) return direct;
  const alternatives = firstChild(wrap, 'alternatives');
  return alternatives ? firstChild(alternatives, 'table') : undefined;
}

/**
 * Rows of any reagent table with recognisable columns (a name column and a source or identifier column),
 * such as "Antibody | Host | Company | Catalogue No. | Dilution". The text extractor uses it for papers
 * without a key resources table.
 */
export function genericTableRows(tableWrap: XmlElement): KrtRow[] {
  const table = firstTableOf(tableWrap);
  if (!table) return [];
  const grid = tableGrid(table);
  const header = matchHeader(grid);
  if (!header || !header.roles.includes('name') || !(header.roles.includes('source') || header.roles.includes('identifier'))) return [];
  return rowsOfTable(grid, header.roles, header.headerRows, header.categoryHeader).rows;
}
