import type { Model } from '../../../src/shared/models';
import type { Paged } from '../../../src/shared/tables';
import { call, type CallResult, type TestApp } from '../helpers';
import { keyOf, ok, tableFromCsv, type Row, type StaticTable } from '../static-tables/helpers';

export type { Model };

export const ORDERS_CSV =
  'order_id,customer_id,amount,placed\n1,10,25.5,2026-01-05\n2,11,10,2026-01-06\n3,10,4.5,2026-02-01\n4,12,100,2026-02-03\n';
export const CUSTOMERS_CSV = 'customer_id,name,city\n10,Ada,Paris\n11,Bob,Oslo\n13,Cy,Rome\n';

export interface Shop {
  orders: StaticTable;
  customers: StaticTable;
}

export async function makeShop(t: TestApp, cookie: string): Promise<Shop> {
  return {
    orders: await tableFromCsv(t, cookie, ORDERS_CSV, 'Orders'),
    customers: await tableFromCsv(t, cookie, CUSTOMERS_CSV, 'Customers'),
  };
}

export const api = <T>(
  t: TestApp,
  cookie: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
) => call<T>(t.server, method, url, { cookie, ...(body === undefined ? {} : { body }) });

export async function createModel(t: TestApp, cookie: string, name = 'Sales'): Promise<Model> {
  return ok(await api<Model>(t, cookie, 'POST', '/api/models', { name }), 201);
}

export function rawColumn(table: StaticTable, displayName: string, as = displayName) {
  return {
    displayName: as,
    sourceColumn: { sourceId: table.id, sourceType: 'StaticTable', columnKey: keyOf(table, displayName) },
  };
}

export async function addColumn(t: TestApp, cookie: string, modelId: string, body: unknown): Promise<Model> {
  return ok(await api<Model>(t, cookie, 'POST', `/api/models/${modelId}/columns`, body), 201);
}

/** Orders joined to customers: Order, Amount, Customer name, and a function column Doubled = amount * 2. */
export async function joinedModel(t: TestApp, cookie: string, shop: Shop): Promise<Model> {
  const model = await createModel(t, cookie);
  await addColumn(t, cookie, model.id, rawColumn(shop.orders, 'order_id', 'Order'));
  let current = await addColumn(t, cookie, model.id, rawColumn(shop.orders, 'amount', 'Amount'));
  current = await addColumn(t, cookie, model.id, rawColumn(shop.customers, 'name', 'Customer'));
  ok(
    await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/joins`, {
      joins: [
        {
          leftTable: { sourceId: shop.orders.id, sourceType: 'StaticTable' },
          rightTable: { sourceId: shop.customers.id, sourceType: 'StaticTable' },
          joinType: 'LeftOuter',
          joinGroups: [
            {
              conditions: [
                {
                  leftColumnKey: keyOf(shop.orders, 'customer_id'),
                  operator: 'Equals',
                  rightColumnKey: keyOf(shop.customers, 'customer_id'),
                },
              ],
            },
          ],
        },
      ],
    }),
  );
  const amount = current.columns.find((c) => c.displayName === 'Amount')?.columnKey;
  return addColumn(t, cookie, model.id, { displayName: 'Doubled', function: `[${amount}] * 2` });
}

export function modelKey(model: Model, displayName: string): string {
  const column = model.columns.find((c) => c.displayName === displayName);
  if (!column) throw new Error(`No column ${displayName} in the model`);
  return column.columnKey;
}

export async function versionRows(t: TestApp, cookie: string, versionId: string, body: unknown = {}): Promise<Row[]> {
  const res: CallResult<Paged<Row>> = await api<Paged<Row>>(
    t,
    cookie,
    'POST',
    `/api/tables/ModelVersion/${versionId}/data/infinite-scroll`,
    { page: 1, pageSize: 100, ...(body as object) },
  );
  return ok(res).data;
}

/** Rows with display names as keys, for readable expectations. */
export function named(model: Model, rows: Row[]): Row[] {
  return rows.map((row) => Object.fromEntries(model.columns.map((c) => [c.displayName, row[c.columnKey]])));
}
