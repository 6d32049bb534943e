// Reader of the Antibody Registry's export (https://www.antibodyregistry.org, the download of signed-in users): a
// CSV file with a header row. No published description of the export's columns was found; the columns are matched
// by name, as written by the two forms seen in use: the legacy export (results.csv: antibodyregistry_id or ab_id,
// name, vendor, catalog_num, proper_citation, defining_citation) and the current API's field names (abId, abName,
// abTarget, catalogNum, vendorName, clonality, cloneId, sourceOrganism, targetSpecies, …). Header names are
// compared without case, spaces or punctuation.
//
// The identifier kept is the RRID as the file writes it ("AB_2107436", an "RRID:" label removed), or, from a
// column of the registry's own number (abId, ab_id, antibodyregistry_id: "2107436"), AB_ and that number: the
// registry defines its RRIDs so (https://antibodyregistry.org/AB_<number>); nothing is padded or cut.
import { openCsv } from '../../../core/csv-rows.ts';
import type { RegistryRecord } from './records.ts';

const RRID = /^(?:RRID\s*:\s*)?(AB_\d{3,10})$/i;
const NUMBER = /^\d{3,10}$/;

const COLUMNS = {
  rrid: ['rrid', 'abrrid', 'accession'],
  number: ['abid', 'antibodyregistryid', 'antibodyid', 'id'],
  name: ['abname', 'name', 'antibodyname'],
  target: ['abtarget', 'target', 'targetantigen'],
  vendor: ['vendorname', 'vendor', 'company', 'supplier'],
  catalog: ['catalognum', 'catalognumber', 'catalog', 'catnum', 'catalogno'],
  clonality: ['clonality'],
  clone: ['cloneid', 'clone'],
  host: ['sourceorganism', 'hostorganism', 'host'],
  species: ['targetspecies', 'reactivity', 'species'],
  citation: ['propercitation', 'citation'],
} as const;
type Column = keyof typeof COLUMNS;

const headerKey = (cell: string) =>
  cell
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

export interface AntibodyItem {
  /** The file's line on which the record starts. */
  line: number;
  record: RegistryRecord | null;
  problem: string | null;
}

/** The columns of a header this reader uses, or why the header is not the Antibody Registry's. */
export function antibodyColumns(header: readonly string[]): { columns: Partial<Record<Column, number>>; problem: string | null } {
  const keys = header.map(headerKey);
  const columns: Partial<Record<Column, number>> = {};
  for (const [column, names] of Object.entries(COLUMNS) as [Column, readonly string[]][]) {
    for (const name of names) {
      const i = keys.indexOf(name);
      if (i >= 0) {
        columns[column] = i;
        break;
      }
    }
  }
  const identified = columns.rrid !== undefined || columns.number !== undefined || columns.citation !== undefined;
  if (!identified)
    return { columns, problem: 'no identifier column (abId, ab_id, antibodyregistry_id, rrid or proper_citation) in the header' };
  if (columns.name === undefined && columns.catalog === undefined)
    return { columns, problem: 'neither a name (abName, name) nor a catalog number column (catalogNum, catalog_num) in the header' };
  return { columns, problem: null };
}

/**
 * Streams the records of an export; a file cut inside its last record is refused (TruncatedSourceError), as is
 * malformed quoting (CsvFormatError): the core CSV reader's rules, cells decoded as UTF-8.
 */
export async function* readAntibodyRegistry(file: string, batchSize = 2000): AsyncGenerator<AntibodyItem[], void, undefined> {
  const { header, batches } = await openCsv(file, batchSize, 'utf8');
  const found = antibodyColumns(header);
  if (found.problem) {
    await batches.return();
    throw new Error(`${file}: not an Antibody Registry export: ${found.problem}`);
  }
  for await (const rows of batches) yield rows.map((row) => readRecord(row.cells, row.line, found.columns, header.length));
}

function readRecord(cells: readonly string[], line: number, columns: Partial<Record<Column, number>>, width: number): AntibodyItem {
  const fail = (problem: string): AntibodyItem => ({ line, record: null, problem });
  if (cells.length !== width) return fail('record with a different number of fields than the header');
  const cell = (column: Column) => {
    const i = columns[column];
    const value = i === undefined ? '' : (cells[i] ?? '').trim();
    return value === '' ? null : value;
  };
  let identifier: string | null = null;
  const rrid = cell('rrid');
  const number = cell('number');
  if (rrid && RRID.test(rrid)) identifier = `AB_${RRID.exec(rrid)![1].slice(3)}`;
  else if (number && RRID.test(number)) identifier = `AB_${RRID.exec(number)![1].slice(3)}`;
  else if (number && NUMBER.test(number)) identifier = `AB_${number}`;
  else {
    const cited = /RRID\s*:\s*(AB_\d{3,10})\b/i.exec(cell('citation') ?? '');
    if (cited) identifier = `AB_${cited[1].slice(3)}`;
  }
  if (!identifier) return fail(rrid || number ? 'identifier not of the form AB_<digits>' : 'record without an identifier');
  const vendor = cell('vendor');
  const catalog = cell('catalog');
  const target = cell('target');
  const name = cell('name') ?? target;
  if (!name && !catalog) return fail('record without a name or a catalog number');
  const detail: RegistryRecord['detail'] = {};
  const clonality = cell('clonality');
  const clone = cell('clone');
  const host = cell('host');
  if (target) detail.target = target;
  if (clonality) detail.clonality = clonality;
  if (clone) detail.clone = clone;
  if (host) detail.host = host;
  return {
    line,
    problem: null,
    record: {
      registry: 'antibody-registry',
      identifier,
      name: name ?? catalog!,
      synonyms: [],
      vendor,
      catalog,
      species: cell('species'),
      detail,
    },
  };
}
