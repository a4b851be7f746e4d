import type { CsvImportAnswer } from '../../../shared/static-tables';
import type { Column } from '../../../shared/tables';
import type { CsvImportResult } from '../../warehouse/csv-import';
import type { ImportColumns } from './import-columns';

/** A CSV import's answer: the columns stored, and what the user is told about them (shown after an upload). */
export function importAnswer(
  result: CsvImportResult,
  columns: Column[],
  plan: ImportColumns,
): Omit<CsvImportAnswer, 'tableId' | 'mode' | 'importedRows' | 'keptToken'> {
  const byName = new Map(result.columns.map((c, i) => [c.name, columns[i] as Column]));
  const ref = (name: string) => {
    const column = byName.get(name);
    return { columnKey: column?.columnKey ?? '', displayName: name };
  };
  return {
    rowCount: result.rowCount,
    columns,
    dateFormats: result.dates.map((d) => ({ ...ref(d.name), type: d.type, format: d.format })),
    removedColumns: plan.removed.map((c) => ({ columnKey: c.columnKey, displayName: c.displayName })),
    addedColumns: columns
      .filter((_, i) => plan.matched[i] === null)
      .map((c) => ({ columnKey: c.columnKey, displayName: c.displayName })),
    notes: result.notes.map((n) => ({ ...ref(n.name), message: n.message })),
  };
}
