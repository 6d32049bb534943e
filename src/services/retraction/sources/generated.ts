// How a file says it was written by `pdi generate retraction` (or the demo): a `data_kind` column whose cells
// read `generated`, in every row of the Retraction Watch CSV, the citations CSV and the democracy panel CSV.
// The label travels with the file, so a generated file imported by hand is stored and served as generated
// data (is_demo), whatever the command line says. No published source has this column.
import { headerKey, openCsv } from '../../../core/csv-rows.ts';

export const GENERATED_MARKER = { column: 'data_kind', value: 'generated' } as const;

/** The marker column's position in a header, or −1. */
function markerColumn(header: readonly string[]): number {
  return header.findIndex((cell) => headerKey(cell) === GENERATED_MARKER.column);
}

/** True when the CSV has the marker column and its first record says `generated` (reads the first rows only). */
export async function csvFileIsGenerated(file: string): Promise<boolean> {
  const { header, batches } = await openCsv(file, 1);
  try {
    const column = markerColumn(header);
    if (column < 0) return false;
    const first = await batches.next();
    if (first.done) return false;
    return headerKey(first.value[0]?.cells[column] ?? '') === GENERATED_MARKER.value;
  } finally {
    await batches.return();
  }
}
