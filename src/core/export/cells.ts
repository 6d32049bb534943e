// What the tabular writers (CSV, xlsx) share: the column description, where rows come from, and how a
// JavaScript value becomes cell text. Kept in one place so a value looks the same in every format.

/** Rows arrive from a database cursor (async) or an in-memory list (sync); writers pull one at a time. */
export type RowSource<Row> = AsyncIterable<Row> | Iterable<Row>;

interface ExportColumnSpec<Row> {
  /** Property read from each row (unless `value` is given); also the default header. */
  key: string;
  /** Header text; defaults to `key`. */
  header?: string;
  /** Computes the cell from the row instead of reading `row[key]`. */
  value?: (row: Row) => unknown;
  /** xlsx column width in characters; ignored by CSV. */
  width?: number;
}

/** A column is either a property name or a full description. */
export type ExportColumn<Row = Record<string, unknown>> = string | ExportColumnSpec<Row>;

export interface ResolvedColumn<Row> {
  key: string;
  header: string;
  width: number | undefined;
  read: (row: Row) => unknown;
}

export function resolveColumns<Row>(columns: ReadonlyArray<ExportColumn<Row>>): ResolvedColumn<Row>[] {
  if (columns.length === 0) throw new TypeError('export needs at least one column');
  return columns.map((column) => {
    const spec: ExportColumnSpec<Row> = typeof column === 'string' ? { key: column } : column;
    const key = spec.key;
    const read = spec.value ?? ((row: Row) => (row as Record<string, unknown> | null | undefined)?.[key]);
    return { key, header: spec.header ?? key, width: spec.width, read };
  });
}

/** Separator for arrays of values in one cell; the Retraction Watch data uses `;` for multi-valued fields. */
const LIST_SEPARATOR = '; ';

/**
 * Text of a value in a text-only format. null/undefined → '' (missing); non-finite numbers → '' (no honest
 * spreadsheet value); booleans → 'true'/'false'; Date → ISO 8601 UTC ('' if invalid); arrays → elements joined
 * with '; '; other objects → JSON. Strings are made well-formed (a lone surrogate becomes U+FFFD), as UTF-8
 * encoding would do anyway, so the choice is explicit rather than accidental.
 */
export function cellText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value.isWellFormed() ? value : value.toWellFormed();
    case 'number':
      return Number.isFinite(value) ? String(value) : '';
    case 'bigint':
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return '';
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
      if (Array.isArray(value)) return value.map(cellText).join(LIST_SEPARATOR);
      let json: string | undefined;
      try {
        json = JSON.stringify(value);
      } catch {
        json = undefined;
      }
      return cellText(json ?? String(value));
    }
    default:
      // undefined, functions and symbols have no data to show.
      return '';
  }
}

// First characters that make Excel, LibreOffice or Google Sheets treat a typed-in or imported cell as a
// formula (or, for tab and CR, hide a formula after whitespace): `=`, `+`, `-`, `@`, tab, CR.
const FORMULA_TRIGGERS = new Set([0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d]);

/** Prefixes `'` to text a spreadsheet program would run as a formula (OWASP "CSV injection"). */
export function guardFormula(text: string): string {
  return text.length > 0 && FORMULA_TRIGGERS.has(text.charCodeAt(0)) ? `'${text}` : text;
}

/** How many bytes the writers gather before handing a chunk on: large enough to keep per-chunk overhead low. */
export const CHUNK_CHARS = 64 * 1024;
