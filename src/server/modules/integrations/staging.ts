/**
 * Loading a dataset's rows into the warehouse. Every sync writes a staging table first (record
 * batches through JSON files, files read by DuckDB) with each column in its exact storage format
 * (connectors/formats.ts), and swaps it in (swap-in.ts) only when the read succeeded, so a failed
 * sync leaves the dataset's previous rows as they were.
 *
 * The pieces live in `staging/`: the staging table's life (tables.ts), record batches
 * (stage-records.ts, values by record-values.ts) and files (stage-file.ts, casts by stage-sql.ts,
 * JSON lines read by exact-values/json-lines.ts), columns widened rather than changed silently
 * (widening.ts), exact decimals typed once every row is staged (finish-decimals.ts), and the
 * notices the run log shows (notices.ts).
 */
export type { ColumnNotice, StagedColumn, Staging } from './staging/types';
export { createStaging, describeTable, dropStaging, ensureSchema, tableExists } from './staging/tables';
export { stageRecords } from './staging/stage-records';
export { stageFile, type StagedFile } from './staging/stage-file';
export { finishStaging } from './staging/finish-decimals';
export { noticeLines } from './staging/notices';
