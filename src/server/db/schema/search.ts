/** Global search: what is kept out of it and what waits to be indexed. */
export interface SearchSchema {
  search_exclusions: SearchExclusionsTable;
  search_pending: SearchPendingTable;
}

/** Tables or columns kept out of global search (migration 0012); column_key null = the whole table. */
export interface SearchExclusionsTable {
  id: string;
  account_id: string;
  table_type: string;
  table_id: string;
  column_key: string | null;
  created_at: string;
}

/** Tables whose latest change waits to be indexed, since when (migration 0012). */
export interface SearchPendingTable {
  account_id: string;
  table_type: string;
  table_id: string;
  since: string;
}
