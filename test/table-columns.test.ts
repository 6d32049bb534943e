// The typed database matches the migrated one column by column, on SQLite and PostgreSQL: after every migration of
// core and the services, each column a `tables.ts` interface declares exists in its table with a compatible type
// and the same nullability, and each migrated column is declared. The interfaces are TypeScript types only, so the
// test reads them with the compiler (PdiDatabase in src/services/database.ts composes them all) and takes each
// column's type as Kysely selects it (the first argument of ColumnType, Generated and the Db* helpers).
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { sql } from 'kysely';
import type { QueryExecutorProvider } from 'kysely';
import ts from 'typescript';
import { describeEachDatabase } from './support/databases.ts';
import type { DbKind } from './support/databases.ts';
import { migrateToLatest } from '../src/core/db/migrations.ts';
import { TEMPORARY_TABLES } from '../src/services/database.ts';
import { SERVICES } from '../src/services/registry.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DATABASE_TYPE_FILE = path.join(ROOT, 'src/services/database.ts');

/** What a column holds, as far as both sides can say it. */
type Kind = 'text' | 'number' | 'boolean' | 'json' | 'blob';

interface Column {
  kind: Kind | string;
  nullable: boolean;
}

type Schema = Map<string, Map<string, Column>>;

/** The column types each dialect may give a column of each kind (columnType in core/db/dialect.ts and plain types). */
const COMPATIBLE: Record<DbKind, Record<Kind, readonly string[]>> = {
  sqlite: {
    text: ['text'],
    number: ['integer', 'bigint', 'real', 'numeric', 'double precision'],
    // SQLite has no boolean type: columnType.boolean is integer 0/1.
    boolean: ['integer'],
    json: ['text'],
    blob: ['blob'],
  },
  postgres: {
    text: ['text', 'character varying', 'character'],
    number: ['integer', 'bigint', 'smallint', 'real', 'double precision', 'numeric'],
    boolean: ['boolean'],
    json: ['jsonb', 'json'],
    blob: ['bytea'],
  },
};

// ---------------------------------------------------------------- the typed side

function compilerProgram(): ts.Program {
  const configFile = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), (file) => ts.sys.readFile(file));
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT);
  return ts.createProgram([DATABASE_TYPE_FILE], options);
}

/** The kind of a selected type's non-null part: `boolean | number` is DbBoolean's select type. */
function kindOf(checker: ts.TypeChecker, parts: ts.Type[]): Kind | string {
  const kinds = new Set<string>();
  for (const part of parts) {
    const f = part.flags;
    if (f & (ts.TypeFlags.String | ts.TypeFlags.StringLiteral | ts.TypeFlags.TemplateLiteral)) kinds.add('text');
    else if (f & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral | ts.TypeFlags.BigInt | ts.TypeFlags.BigIntLiteral)) kinds.add('number');
    else if (f & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) kinds.add('boolean');
    else if (f & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) kinds.add('json');
    else if (['Buffer', 'Uint8Array'].includes(part.getSymbol()?.getName() ?? '')) kinds.add('blob');
    else kinds.add(checker.typeToString(part));
  }
  if (kinds.size === 2 && kinds.has('boolean') && kinds.has('number')) return 'boolean';
  return [...kinds].sort().join(' | ');
}

/** Each table and column of PdiDatabase, with the type Kysely selects. */
function typedSchema(): Schema {
  const program = compilerProgram();
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(DATABASE_TYPE_FILE);
  assert.ok(file, DATABASE_TYPE_FILE);
  const alias = file.statements.find((s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === 'PdiDatabase');
  assert.ok(alias, 'src/services/database.ts declares PdiDatabase');
  const database = checker.getTypeAtLocation(alias.name);
  const schema: Schema = new Map();
  for (const table of checker.getPropertiesOfType(database)) {
    const columns = new Map<string, Column>();
    for (const column of checker.getPropertiesOfType(checker.getTypeOfSymbol(table))) {
      const declared = checker.getTypeOfSymbol(column);
      const members = declared.isUnion() ? declared.types : [declared];
      const selected = members.flatMap((member) => {
        // ColumnType<Select, Insert, Update> (Generated, DbId, DbBoolean, DbJson, …): the column holds what is selected.
        const select = member.getProperty('__select__');
        const type = select ? checker.getTypeOfSymbol(select) : member;
        return type.isUnion() ? type.types : [type];
      });
      const isNull = (t: ts.Type) => (t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)) !== 0;
      columns.set(column.getName(), {
        kind: kindOf(
          checker,
          selected.filter((t) => !isNull(t)),
        ),
        nullable: selected.some(isNull),
      });
    }
    schema.set(table.getName(), columns);
  }
  return schema;
}

// ---------------------------------------------------------------- the migrated side

async function migratedSchema(
  kind: DbKind,
  db: QueryExecutorProvider,
): Promise<Map<string, Map<string, { type: string; nullable: boolean }>>> {
  const schema = new Map<string, Map<string, { type: string; nullable: boolean }>>();
  if (kind === 'postgres') {
    // Our schema only: other suites create theirs on the same server.
    const rows = await sql<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>`
      select table_name, column_name, data_type, is_nullable from information_schema.columns
      where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
    for (const r of rows.rows) {
      const table = schema.get(r.table_name) ?? new Map();
      table.set(r.column_name, { type: r.data_type.toLowerCase(), nullable: r.is_nullable === 'YES' });
      schema.set(r.table_name, table);
    }
    return schema;
  }
  const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db);
  for (const { name } of tables.rows) {
    const info = await sql<{
      name: string;
      type: string;
      notnull: number;
      pk: number;
    }>`select name, type, "notnull", pk from pragma_table_info(${name})`.execute(db);
    // An INTEGER PRIMARY KEY is the rowid: never null, whatever its declaration says.
    schema.set(name, new Map(info.rows.map((c) => [c.name, { type: c.type.toLowerCase(), nullable: c.notnull === 0 && c.pk === 0 }])));
  }
  return schema;
}

// A substring index keeps its own tables beside the indexed one (FTS5 shadow tables on SQLite), and Kysely its
// migration bookkeeping: neither is a row type.
const UNTYPED_TABLE = /_search(_(config|data|docsize|idx|content))?$|^kysely_/;

type Migrated = Map<string, Map<string, { type: string; nullable: boolean }>>;

/** What differs between the typed and the migrated schema, one line per column (empty: they match). */
function differences(kind: DbKind, typed: Schema, migrated: Migrated): string[] {
  const problems: string[] = [];
  for (const [table, columns] of typed) {
    if ((TEMPORARY_TABLES as readonly string[]).includes(table)) continue;
    const actual = migrated.get(table);
    if (!actual) {
      problems.push(`${table}: typed, not migrated`);
      continue;
    }
    for (const [name, column] of columns) {
      const found = actual.get(name);
      if (!found) {
        problems.push(`${table}.${name}: typed, not migrated`);
        continue;
      }
      const allowed = COMPATIBLE[kind][column.kind as Kind] as readonly string[] | undefined;
      if (!allowed?.includes(found.type)) problems.push(`${table}.${name}: typed ${column.kind}, migrated ${found.type}`);
      if (found.nullable !== column.nullable)
        problems.push(
          `${table}.${name}: typed ${column.nullable ? 'nullable' : 'not null'}, migrated ${found.nullable ? 'nullable' : 'not null'}`,
        );
    }
  }
  for (const [table, columns] of migrated) {
    if (UNTYPED_TABLE.test(table)) continue;
    for (const name of columns.keys()) if (!typed.get(table)?.has(name)) problems.push(`${table}.${name}: migrated, not typed`);
  }
  return problems;
}

let typed: Schema;
before(() => {
  typed = typedSchema();
});

it('reads the typed tables: core’s and every service’s, with kinds and nullability', () => {
  const imports = typed.get('import_runs');
  assert.ok(imports, 'import_runs is typed');
  assert.deepEqual(imports.get('id'), { kind: 'number', nullable: false }, 'DbId: a number, never null');
  assert.deepEqual(imports.get('report'), { kind: 'json', nullable: true }, 'DbJson | null');
  assert.deepEqual(typed.get('data_versions')?.get('is_demo'), { kind: 'boolean', nullable: false }, 'DbBoolean');
  assert.deepEqual(imports.get('finished_at'), { kind: 'text', nullable: true });
  for (const service of SERVICES)
    assert.ok(
      [...typed.keys()].some((t) => t.startsWith(`${service.name}_`)),
      service.name,
    );
});

it('names a missing, an untyped, a mistyped and a differently nullable column', () => {
  const declared: Schema = new Map([
    [
      't',
      new Map<string, Column>([
        ['id', { kind: 'number', nullable: false }],
        ['name', { kind: 'text', nullable: false }],
        ['flag', { kind: 'boolean', nullable: false }],
        ['gone', { kind: 'text', nullable: true }],
      ]),
    ],
  ]);
  const created: Migrated = new Map([
    [
      't',
      new Map([
        ['id', { type: 'integer', nullable: false }],
        ['name', { type: 'text', nullable: true }],
        ['flag', { type: 'text', nullable: false }],
        ['extra', { type: 'text', nullable: true }],
      ]),
    ],
  ]);
  assert.deepEqual(differences('sqlite', declared, created), [
    't.name: typed not null, migrated nullable',
    't.flag: typed boolean, migrated text',
    't.gone: typed, not migrated',
    't.extra: migrated, not typed',
  ]);
  // An integer holds a boolean on SQLite only.
  created.get('t')?.set('flag', { type: 'integer', nullable: false });
  assert.deepEqual(differences('sqlite', declared, created), [
    't.name: typed not null, migrated nullable',
    't.gone: typed, not migrated',
    't.extra: migrated, not typed',
  ]);
  assert.deepEqual(differences('postgres', declared, created), [
    't.name: typed not null, migrated nullable',
    't.flag: typed boolean, migrated integer',
    't.gone: typed, not migrated',
    't.extra: migrated, not typed',
  ]);
});

describeEachDatabase('the typed tables against the migrated ones, column by column', (t) => {
  it('declares every migrated column, and each declared column exists with a compatible type and nullability', async () => {
    await migrateToLatest(t.db.kysely, Object.assign({}, ...SERVICES.map((s) => s.migrations)));
    const migrated = await migratedSchema(t.kind, t.db.kysely);
    assert.deepEqual(differences(t.kind, typed, migrated), []);
  });
});
