/**
 * The preview an import shows before the user chooses: the file's first rows and detected types,
 * read from the head of the file as the import reads the whole (csv-preview.ts), and what Append
 * and Replace would do with the table's columns (matched by name as import-columns.ts matches).
 */
import fs from 'node:fs';
import path from 'node:path';
import { STATIC_TABLE_LIMITS, TOO_MANY_COLUMNS } from '../../../shared/static-tables';
import { IMPORT_PREVIEW, type ImportPreview } from '../../../shared/static-table-import';
import type { AccountContext, Deps } from '../../context';
import { newId } from '../../db/ids';
import { accountUploadsDir } from '../../warehouse/account-paths';
import { previewCsvFile } from '../../warehouse/csv-preview';
import type { WarehouseSession } from '../../warehouse/types';
import { matchHeaders } from './import-columns';
import { q, qualified } from './physical';
import { listColumns, type StaticColumn } from './repo';

/**
 * The head of a file, cut after its last whole record when the file goes on (a record cut in the
 * middle, or in a quoted value holding a line break, would read as a broken row).
 */
export function wholeRecords(head: string, truncated: boolean): string {
  if (!truncated) return head;
  let quoted = false;
  let end = -1;
  for (let i = 0; i < head.length; i += 1) {
    const c = head[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === '\n') end = i;
  }
  return end < 0 ? head : head.slice(0, end + 1);
}

/** Whether any cell of the table holds a value (blank text counts as empty). */
export async function tableHasData(session: WarehouseSession, id: string, columns: StaticColumn[]): Promise<boolean> {
  if (columns.length === 0) return false;
  const any = columns.map((c) => `coalesce(CAST(${q(c.columnKey)} AS VARCHAR), '') <> ''`).join(' OR ');
  const rows = await session.all({
    sql: `SELECT 1 AS found FROM ${qualified(id)} WHERE ${any} LIMIT 1`,
    parameters: [],
  });
  return rows.length > 0;
}

const ref = (c: StaticColumn) => ({ columnKey: c.columnKey, displayName: c.displayName });

export async function previewImport(
  deps: Deps,
  ctx: AccountContext,
  id: string,
  head: { text: string; truncated: boolean },
): Promise<ImportPreview> {
  const text = wholeRecords(head.text, head.truncated);
  const dir = accountUploadsDir(deps.config.dataDir, ctx.accountId);
  await fs.promises.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${newId()}.csv`);
  const warehouse = deps.warehouse.forAccount(ctx.accountId);
  try {
    await fs.promises.writeFile(file, text);
    const preview = await previewCsvFile(warehouse, file, {
      maxBytes: deps.config.uploadMaxBytes,
      maxColumns: STATIC_TABLE_LIMITS.maxColumns,
      rows: IMPORT_PREVIEW.rows,
    });
    const existing = await listColumns(deps.db, id);
    const matched = matchHeaders(
      existing,
      preview.columns.map((c) => c.name),
    );
    const added = matched.filter((m) => m === null).length;
    const lines = text.split('\n').filter((line) => line.trim() !== '').length - 1;
    return {
      columns: preview.columns.map((c) => ({ name: c.name, type: c.type })),
      rows: preview.rows,
      more: head.truncated || lines > preview.rows.length,
      tableHasData: await tableHasData(warehouse, id, existing),
      mapping: preview.columns.map((c, i) => {
        const column = matched[i];
        return { name: c.name, type: c.type, column: column ? ref(column) : null };
      }),
      unfilled: existing.filter((c) => !matched.includes(c)).map(ref),
      appendProblem:
        existing.length + added > STATIC_TABLE_LIMITS.maxColumns
          ? `${TOO_MANY_COLUMNS} Appending this file would add ${added} column(s) to the ${existing.length} the table has.`
          : null,
      removed: existing.filter((c) => !matched.includes(c)).map(ref),
    };
  } finally {
    await fs.promises.rm(file, { force: true });
  }
}
