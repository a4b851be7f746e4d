/** The journal of writes that span the metadata store and the warehouse. */
export interface DurabilitySchema {
  warehouse_writes: WarehouseWritesTable;
}

/** A write to both stores under way (src/server/durability/write-journal.ts). */
export interface WarehouseWritesTable {
  id: string;
  account_id: string;
  kind: string;
  run_id: string | null;
  boot_id: string;
  created_at: string;
}
