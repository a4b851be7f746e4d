/**
 * Values at the edges of their types, in a static table whose columns hold them in their own warehouse
 * types (the grid's ColumnType set to match), for comparing what leaves the system with the grid.
 */
import type { ColumnType } from '../../../src/shared/tables';
import type { TestApp } from '../helpers';
import { createTable, getTable, type StaticTable } from '../static-tables/helpers';

export interface EdgeColumn {
  name: string;
  sqlType: string;
  type: ColumnType;
  /** Each row's value as DuckDB reads it from text (null: NULL). */
  values: (string | null)[];
}

/** A static table with one column per entry, each in its own warehouse type, rows in the given order. */
export async function edgeTable(t: TestApp, cookie: string, columns: EdgeColumn[]): Promise<StaticTable> {
  const rows = Math.max(...columns.map((c) => c.values.length));
  const created = await createTable(t, cookie, {
    name: 'Edges',
    columns: columns.map((c) => ({ displayName: c.name })),
    rows: Array.from({ length: rows }, (_, r) => columns.map((c) => c.values[r] ?? null)),
  });
  const { account_id: accountId } = await t.deps.db
    .selectFrom('static_tables')
    .select('account_id')
    .where('id', '=', created.id)
    .executeTakeFirstOrThrow();
  const warehouse = t.deps.warehouse.forAccount(accountId);
  const name = `t_${created.id.replace(/-/g, '')}`;
  const key = (displayName: string) => created.columns.find((c) => c.displayName === displayName)!.columnKey;
  await warehouse.exclusive(`table:static.${name}`, () =>
    warehouse.run(
      columns
        .map(
          (c) =>
            `ALTER TABLE static.${name} ALTER "${key(c.name)}" TYPE ${c.sqlType} USING CAST("${key(c.name)}" AS ${c.sqlType});`,
        )
        .join('\n'),
    ),
  );
  for (const c of columns) {
    await t.deps.db
      .updateTable('static_table_columns')
      .set({ type: c.type })
      .where('table_id', '=', created.id)
      .where('column_key', '=', key(c.name))
      .execute();
  }
  return getTable(t, cookie, created.id);
}

export const EDGE_COLUMNS: EdgeColumn[] = [
  {
    name: 'big',
    sqlType: 'BIGINT',
    type: 'Number',
    values: ['9223372036854775807', '-9223372036854775807', '9007199254740993', '3804', null, '0'],
  },
  {
    name: 'huge',
    sqlType: 'HUGEINT',
    type: 'Number',
    values: ['170141183460469231731687303715884105727', '-1', '12', null, '0', '5'],
  },
  {
    name: 'dec',
    sqlType: 'DECIMAL(38,10)',
    type: 'Number',
    values: ['1234567890123456789.0123456789', '0.1000000000', '3804', null, '-0.0000000001', '12345678.1234567890'],
  },
  {
    name: 'dec33',
    sqlType: 'DECIMAL(3,3)',
    type: 'Number',
    values: ['0.000', '0.5', '-0.001', null, '0.999', '0.123'],
  },
  {
    name: 'dbl',
    sqlType: 'DOUBLE',
    type: 'Number',
    values: ['1e-300', '1e300', '-0.0', '0.30000000000000004', '123456789.12345679', '1e21'],
  },
  { name: 'flt', sqlType: 'FLOAT', type: 'Number', values: ['0.1', '1e-10', '3.4e38', null, '16777217', '0.3333333'] },
  { name: 'txt', sqlType: 'VARCHAR', type: 'Text', values: ['', null, '=1+1', '+1\n"q"', '@SUM(A1)', 'שלום 😀 -x'] },
  {
    name: 'day',
    sqlType: 'DATE',
    type: 'Date',
    values: ['-0043-03-15', '10000-01-01', '2024-01-31', null, '0001-01-01', '1899-12-31'],
  },
  {
    name: 'at',
    sqlType: 'TIMESTAMP',
    type: 'DateTime',
    values: [
      '-0043-03-15 10:00:00.5',
      '10000-01-01 00:00:00',
      '2024-01-31 10:00:00.123456',
      null,
      '1900-01-01 00:00:00',
      '2024-02-29 23:59:59.999',
    ],
  },
  {
    name: 'ns',
    sqlType: 'TIMESTAMP_NS',
    type: 'DateTime',
    values: [
      '2024-01-31 10:00:00.123456789',
      null,
      '2024-01-31 10:00:00',
      '2000-01-01 00:00:00.000000001',
      '1970-01-01',
      '2262-04-11',
    ],
  },
  {
    name: 'tz',
    sqlType: 'TIMESTAMPTZ',
    type: 'DateTime',
    values: [
      '2024-01-31 10:00:00.5+05:30',
      '-0043-03-15 10:00:00+00',
      null,
      '2024-01-31 00:00:00-08',
      '10000-01-01 00:00:00+00',
      '2024-01-01 00:00:00+00',
    ],
  },
  {
    name: 'iv',
    sqlType: 'INTERVAL',
    type: 'Text',
    values: ['1 year 2 months 3 days 04:05:06.789', '-1 day', null, '00:00:00', '1000 hours', '1 month'],
  },
  {
    name: 'lst',
    sqlType: 'VARCHAR[]',
    type: 'Array',
    values: ["['a, b', 'c', NULL]", '[]', null, "['']", "['1']", "['2']"],
  },
  {
    name: 'st',
    sqlType: 'STRUCT(a BIGINT, b VARCHAR)',
    type: 'Json',
    values: [
      "{'a': 9223372036854775807, 'b': 'x\"y'}",
      null,
      "{'a': 1, 'b': NULL}",
      "{'a': 2, 'b': ''}",
      "{'a': 3, 'b': 'z'}",
      "{'a': 4, 'b': 'w'}",
    ],
  },
  { name: 'ok', sqlType: 'BOOLEAN', type: 'Boolean', values: ['true', 'false', null, 'true', 'false', 'true'] },
];
