import type { Config } from './config';
import type { Db } from './db/database';
import type { UserRow } from './db/schema';
import type { Mailer } from './mail/mailer';
import type { RateLimiter } from './auth/rate-limiter';
import type { Warehouse } from './warehouse/warehouse';
import type { WriteJournal } from './durability/write-journal';
import type { HubRegistry } from './hubs/hub-sender';
import type { FileStore } from './files/file-store';
import type { AppEventBus } from './events';

/** What every service needs, built once in buildApp. */
export interface Deps {
  db: Db;
  mailer: Mailer;
  config: Config;
  clock: () => Date;
  hashToken: (token: string) => string;
  loginLimiter: RateLimiter;
  /** Each account's DuckDB warehouse. */
  warehouse: Warehouse;
  /** Writes that change a warehouse relation and its metadata together (durability/write-journal.ts). */
  writes: WriteJournal;
  /** Live connections of /api/hubs/*, grouped by user and account; areas push through it (hubs/hub-sender.ts). */
  hubs: HubRegistry;
  /** Contents of files and reports (files/file-store.ts; DATA_DIR/files by default). */
  files: FileStore;
  /** In-process events between areas (events.ts): e.g. a sync finished. */
  events: AppEventBus;
}

/** A signed-in caller, before any account is chosen. */
export interface UserContext {
  user: UserRow;
}

/** A caller acting inside their current account; every read and write is scoped to accountId. */
export interface AccountContext extends UserContext {
  accountId: string;
  /** The caller's roles in accountId. */
  roles: string[];
}
