import type { Header } from '@tanstack/react-table';
import type { Sorting } from '../../../shared/tables';
import type { FilterSeed } from './grid-toolbar';
import { CORNER_STYLE } from './grid-styles';
import { HeaderCell } from './header-cell';
import type { GridColumn, GridRow } from './types';

interface HeaderRowProps {
  headers: Header<GridRow, unknown>[];
  columns: GridColumn[];
  width: number;
  sorting: Sorting[];
  /** The column 'Go to column' just brought into view. */
  highlight: string | null;
  onOpenFilter: (seed: FilterSeed) => void;
  /** Sorts by the column first, keeping the other sort columns after it. */
  onSortingChange: (sorting: Sorting[]) => void;
  onColumnSettings?: (columnKey: string) => void;
  onDeleteColumn?: (columnKey: string) => void;
  onMoveColumn?: (columnKey: string, toIndex: number) => void;
}

/** The sticky header row: a blank corner over the row numbers, then one header per column. */
export function HeaderRow({ headers, columns, width, sorting, highlight, ...on }: HeaderRowProps) {
  const sortBy = (key: string, direction: Sorting['direction']) =>
    on.onSortingChange([{ columnKey: key, direction }, ...sorting.filter((s) => s.columnKey !== key)]);
  return (
    <div style={{ width, position: 'sticky', top: 0, zIndex: 3, display: 'flex' }} role="row">
      <div style={CORNER_STYLE} />
      {headers.map((header, i) => {
        const column = columns[i]!;
        const { onColumnSettings, onDeleteColumn, onMoveColumn } = on;
        return (
          <HeaderCell
            key={header.id}
            header={header}
            column={column}
            sort={sorting.find((s) => s.columnKey === column.key)}
            highlighted={highlight === column.key}
            onSearch={() => on.onOpenFilter({ columnKey: column.key, value: undefined })}
            onFilter={() => on.onOpenFilter({ columnKey: column.key })}
            onSort={(direction) => sortBy(column.key, direction)}
            onSettings={onColumnSettings ? () => onColumnSettings(column.key) : undefined}
            onDelete={onDeleteColumn ? () => onDeleteColumn(column.key) : undefined}
            onMove={onMoveColumn ? (step) => onMoveColumn(column.key, i + step) : undefined}
            canMoveLeft={i > 0}
            canMoveRight={i < columns.length - 1}
          />
        );
      })}
    </div>
  );
}
