/**
 * The question set's data: the Sample data shop (the sample-data connector's own rows, as a sync
 * on TODAY would read them) and a generated support desk (employees, tickets), in an in-memory
 * DuckDB, with their catalogue as the server builds it (names, types, distinct text values).
 */
import { openTestDuckDb, type TestDuckDb } from '../engine/duckdb';
import {
  customers,
  order,
  orderNumbers,
  products,
} from '../../src/server/modules/integrations/connectors/sample-data/shop';
import { catalogueColumn, catalogueTable, type Catalogue } from '../../src/server/modules/queries/catalogue';
import type { QueryTarget } from '../../src/server/modules/queries/compile';
import type { ColumnType } from '../../src/shared/tables';

/** The user's "now" for every question of the set. */
export const NOW = new Date('2025-06-15T12:00:00Z');

type Shape = [name: string, type: ColumnType, sql: string][];

const SHOP: Record<string, Shape> = {
  customers: [
    ['customer_id', 'Number', 'BIGINT'],
    ['first_name', 'Text', 'VARCHAR'],
    ['last_name', 'Text', 'VARCHAR'],
    ['email', 'Text', 'VARCHAR'],
    ['city', 'Text', 'VARCHAR'],
    ['country', 'Text', 'VARCHAR'],
    ['signed_up_on', 'Date', 'DATE'],
    ['is_subscribed', 'Boolean', 'BOOLEAN'],
    ['updated_at', 'DateTime', 'TIMESTAMP'],
  ],
  products: [
    ['product_id', 'Number', 'BIGINT'],
    ['name', 'Text', 'VARCHAR'],
    ['category', 'Text', 'VARCHAR'],
    ['unit_price', 'Number', 'DOUBLE'],
    ['in_stock', 'Boolean', 'BOOLEAN'],
    ['created_at', 'DateTime', 'TIMESTAMP'],
    ['updated_at', 'DateTime', 'TIMESTAMP'],
  ],
  orders: [
    ['order_id', 'Number', 'BIGINT'],
    ['customer_id', 'Number', 'BIGINT'],
    ['product_id', 'Number', 'BIGINT'],
    ['quantity', 'Number', 'BIGINT'],
    ['unit_price', 'Number', 'DOUBLE'],
    ['amount', 'Number', 'DOUBLE'],
    ['status', 'Text', 'VARCHAR'],
    ['channel', 'Text', 'VARCHAR'],
    ['ordered_at', 'DateTime', 'TIMESTAMP'],
    ['updated_at', 'DateTime', 'TIMESTAMP'],
  ],
};

const DESK: Record<string, Shape> = {
  employees: [
    ['employee_id', 'Number', 'BIGINT'],
    ['full_name', 'Text', 'VARCHAR'],
    ['department', 'Text', 'VARCHAR'],
    ['job_title', 'Text', 'VARCHAR'],
    ['office', 'Text', 'VARCHAR'],
    ['hired_on', 'Date', 'DATE'],
    ['salary', 'Number', 'DECIMAL(12,2)'],
    ['is_remote', 'Boolean', 'BOOLEAN'],
  ],
  tickets: [
    ['ticket_id', 'Number', 'BIGINT'],
    ['priority', 'Text', 'VARCHAR'],
    ['status', 'Text', 'VARCHAR'],
    ['channel', 'Text', 'VARCHAR'],
    ['product_area', 'Text', 'VARCHAR'],
    ['assignee', 'Text', 'VARCHAR'],
    ['opened_at', 'DateTime', 'TIMESTAMP'],
    ['first_response_minutes', 'Number', 'INTEGER'],
    ['reply_count', 'Number', 'INTEGER'],
    ['satisfaction', 'Number', 'INTEGER'],
    ['is_escalated', 'Boolean', 'BOOLEAN'],
  ],
};

/** mulberry32, as the shop's generator, so the desk is the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;

const FIRST = [
  'Amara',
  'Bruno',
  'Carla',
  'Diego',
  'Erin',
  'Felix',
  'Greta',
  'Hugo',
  'Iris',
  'Jamal',
  'Kira',
  'Liam',
  'Mona',
  'Nils',
  'Olga',
  'Pablo',
];
const LAST = ['Adler', 'Berg', 'Costa', 'Dahl', 'Eriksen', 'Fontaine', 'Gallo', 'Horvat', 'Ivanova', 'Jensen'];
const DEPARTMENTS = ['Support', 'Support', 'Support', 'Engineering', 'Sales', 'Finance'];
const TITLES: Record<string, string[]> = {
  Support: ['Support Agent', 'Senior Support Agent', 'Team Lead'],
  Engineering: ['Software Engineer', 'Site Reliability Engineer'],
  Sales: ['Account Executive', 'Sales Manager'],
  Finance: ['Accountant', 'Controller'],
};
const OFFICES = ['Lisbon', 'Berlin', 'Toronto', 'Nairobi'];
const PRIORITIES = ['low', 'low', 'normal', 'normal', 'normal', 'high', 'urgent'];
const TICKET_STATUSES = ['solved', 'solved', 'solved', 'closed', 'open', 'pending'];
const TICKET_CHANNELS = ['email', 'email', 'chat', 'phone', 'web form'];
const AREAS = ['Billing', 'Login', 'Mobile app', 'Reporting', 'Integrations', 'Shipping'];

interface Row {
  [key: string]: string | number | boolean | null;
}

function employees(): Row[] {
  const next = random(101);
  return Array.from({ length: 60 }, (_, i) => {
    const department = pick(next, DEPARTMENTS);
    const hired = Date.UTC(2019, 0, 1) + Math.floor(next() * 2300) * 86_400_000;
    return {
      employee_id: i + 1,
      full_name: `${pick(next, FIRST)} ${pick(next, LAST)}`,
      department,
      job_title: pick(next, TITLES[department]!),
      office: pick(next, OFFICES),
      hired_on: new Date(hired).toISOString().slice(0, 10),
      salary: Math.round(38_000 + next() * 70_000 + (department === 'Engineering' ? 25_000 : 0)),
      is_remote: next() > 0.65,
    };
  });
}

function tickets(staff: Row[]): Row[] {
  const next = random(202);
  const agents = staff.filter((e) => e.department === 'Support').map((e) => e.full_name as string);
  const start = Date.UTC(2024, 6, 1);
  return Array.from({ length: 1500 }, (_, i) => {
    const opened = start + Math.floor(next() * 349 * 86_400_000);
    const status = pick(next, TICKET_STATUSES);
    const priority = pick(next, PRIORITIES);
    return {
      ticket_id: 1000 + i,
      priority,
      status,
      channel: pick(next, TICKET_CHANNELS),
      product_area: pick(next, AREAS),
      assignee: next() > 0.08 ? pick(next, agents) : null,
      opened_at: new Date(opened).toISOString(),
      first_response_minutes: Math.round(5 + next() * next() * (priority === 'urgent' ? 60 : 600)),
      reply_count: Math.floor(next() * 9),
      satisfaction: status === 'solved' && next() > 0.3 ? 1 + Math.floor(next() * 5) : null,
      is_escalated: next() > 0.85,
    };
  });
}

export interface QuestionData {
  db: TestDuckDb;
  catalogue: Catalogue;
  targets: Map<string, QueryTarget>;
}

const literal = (value: Row[string]) =>
  value === null ? 'NULL' : typeof value === 'string' ? `'${value.replace(/'/g, "''")}'` : String(value);

async function load(db: TestDuckDb, schema: string, name: string, shape: Shape, rows: Row[]) {
  await db.exec(
    `CREATE TABLE "${schema}"."${name}" (_row_id BIGINT, ${shape.map(([n, , sql]) => `"${n}" ${sql}`).join(', ')})`,
  );
  for (let start = 0; start < rows.length; start += 500) {
    const chunk = rows.slice(start, start + 500);
    const values = chunk
      .map((row, i) => `(${start + i + 1}, ${shape.map(([n]) => literal(row[n] ?? null)).join(', ')})`)
      .join(', ');
    await db.exec(`INSERT INTO "${schema}"."${name}" VALUES ${values}`);
  }
}

export async function openQuestionData(): Promise<QuestionData> {
  const db = await openTestDuckDb();
  await db.exec('CREATE SCHEMA shop; CREATE SCHEMA desk;');
  const catalogueProducts = products();
  const { first, last } = orderNumbers(NOW);
  const orders: Row[] = [];
  for (let n = first; n <= last; n++) orders.push({ ...order(n, catalogueProducts) });
  const staff = employees();
  const data: [string, Record<string, Shape>, string, Row[]][] = [
    ['shop', SHOP, 'customers', customers() as unknown as Row[]],
    ['shop', SHOP, 'products', catalogueProducts as unknown as Row[]],
    ['shop', SHOP, 'orders', orders],
    ['desk', DESK, 'employees', staff],
    ['desk', DESK, 'tickets', tickets(staff)],
  ];
  const tables = [];
  const targets = new Map<string, QueryTarget>();
  for (const [schema, shapes, name, rows] of data) {
    const shape = shapes[name]!;
    await load(db, schema, name, shape, rows);
    const columns = [];
    for (const [column, type] of shape) {
      let values: string[] = [];
      if (type === 'Text') {
        const distinct = await db.rows(
          `SELECT DISTINCT "${column}" AS v FROM "${schema}"."${name}" WHERE "${column}" IS NOT NULL LIMIT 201`,
        );
        if (distinct.length <= 200) values = distinct.map((r) => String(r.v));
      }
      columns.push(catalogueColumn(column, column, type, { values }));
    }
    const id = `${schema}-${name}`;
    tables.push(
      catalogueTable(
        { type: 'IntegrationDataset', id, name, groupName: schema === 'shop' ? 'Sample data' : 'Support desk' },
        columns,
      ),
    );
    targets.set(id, {
      source: { kind: 'table', schema, name },
      columns: shape.map(([columnKey, type, sqlType]) => ({ columnKey, type, sqlType, displayName: columnKey })),
      rowKey: '_row_id',
    });
  }
  return { db, catalogue: { tables }, targets };
}
