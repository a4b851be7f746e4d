/** Static tables and their columns (the rows live in the warehouse). */
export interface StaticTablesSchema {
  static_tables: StaticTablesTable;
  static_table_columns: StaticTableColumnsTable;
}

export interface StaticTablesTable {
  id: string;
  account_id: string;
  name: string;
  row_count: number;
  created_at: string;
  modified_at: string;
  /** The copy an import or a type change replaced, kept for Undo until the next change (migration 0008). */
  kept_token: string | null;
  /** JSON: the kept copy's columns. */
  kept_columns: string | null;
  kept_row_count: number | null;
}

export interface StaticTableColumnsTable {
  table_id: string;
  column_key: string;
  display_name: string;
  description: string | null;
  position: number;
  type: string;
  /** JSON of a number column's display format, or null. */
  format: string | null;
}
