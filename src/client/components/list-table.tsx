import { Paper, Skeleton, Table, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { errorMessage } from '../lib/error-message';
import { EmptyRow } from './empty-row';

export interface ListColumn {
  /** Header text; none for a column of row actions. */
  label?: string;
  width?: number;
}

/** Rows shown while the list loads. */
const SKELETON_ROWS = 3;
/** Room kept for a column without a set width before the table scrolls sideways in its card. */
const FLEXIBLE_COLUMN_MIN = 160;

/**
 * The table of a list page (tables, models, integrations): its header, skeleton rows while loading,
 * the error or empty state across every column, then the rows the page renders as children.
 */
export function ListTable({
  columns,
  list,
  empty,
  highlightOnHover = false,
  children,
}: {
  columns: ListColumn[];
  /** The list's query: skeleton rows while it is pending, its error in place of rows. */
  list: { isPending: boolean; isError: boolean; error: unknown };
  /** Shown in place of rows: a message, or content of its own (e.g. a button to add the first one). */
  empty?: ReactNode;
  highlightOnHover?: boolean;
  children: ReactNode;
}) {
  const span = columns.length;
  // On a phone the table scrolls inside its card; the page itself never scrolls sideways. With no
  // rows it fits the card instead, so the empty state (and its button) is not cut off at the edge.
  const nothing = !list.isPending && (list.isError || Boolean(empty));
  const minWidth = nothing ? 0 : columns.reduce((sum, column) => sum + (column.width ?? FLEXIBLE_COLUMN_MIN), 0);
  return (
    <Paper>
      <Table.ScrollContainer minWidth={minWidth} type="native">
        <Table highlightOnHover={highlightOnHover}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column, i) => (
                <Table.Th key={i} w={column.width}>
                  {column.label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.isPending &&
              Array.from({ length: SKELETON_ROWS }, (_, i) => (
                <Table.Tr key={i}>
                  <Table.Td colSpan={span}>
                    <Skeleton h={18} />
                  </Table.Td>
                </Table.Tr>
              ))}
            {list.isError && <EmptyRow cols={span} text={errorMessage(list.error)} />}
            {typeof empty === 'string' ? (
              <EmptyRow cols={span} text={empty} />
            ) : (
              empty && (
                <Table.Tr>
                  <Table.Td colSpan={span}>{empty}</Table.Td>
                </Table.Tr>
              )
            )}
            {children}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

/** The name filter above a list page's table. */
export function ListFilter({
  label,
  placeholder,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (text: string) => void;
}) {
  return (
    <TextInput
      leftSection={<IconSearch size={16} />}
      placeholder={placeholder}
      aria-label={label}
      w={320}
      maw="100%"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}
