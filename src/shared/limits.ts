/** Business constants and limits of spec section 9, in one place for server and client. */
export const LIMITS = {
  pageSizes: [50, 100, 200] as const,
  defaultPageSize: 50,
  reportsPageSize: 25,
  notificationsPageSize: 5,
  nameMaxLength: 100,
  /** Columns of any table or dataset: static tables, CSV uploads, synced and pushed datasets. */
  maxColumns: 500,
  /** Nesting of any JSON body (REST and tRPC): deeper is refused before anything reads it. */
  jsonMaxDepth: 64,
  messageMaxLength: 10_000,
  additionalContextMaxLength: 50_000,
  screenshotMaxBytes: 5 * 1024 * 1024,
  loginTokenMinutes: 15,
  inviteTokenDays: 7,
  sessionDays: 30,
} as const;

/**
 * What one webhook call may carry (POST /api/integrations/webhook/{token}). Checked before the
 * dataset is locked; a body over any of them is refused whole with a 4xx naming the limit.
 */
export const WEBHOOK_LIMITS = {
  maxBodyBytes: 1024 * 1024,
  maxRecords: 10_000,
  /** Fields of one record, and distinct fields of the whole call (each becomes a column). */
  maxKeysPerRecord: LIMITS.maxColumns,
  /** A field name becomes a column name. */
  maxKeyLength: 255,
  /** A record's own level counts as 1; nested values are stored as JSON documents. */
  maxDepth: 16,
  maxStringLength: 65_536,
} as const;

/** Rows per page a list or paged grid offers. */
export type PageSize = (typeof LIMITS.pageSizes)[number];

export const TIMINGS = {
  meStaleMs: 5 * 60_000,
  cacheLifetimeMs: 5 * 60_000,
  queryStaleMs: 10 * 60_000,
  snackbarMs: 5_000,
  successIconMs: 5_000,
  copyConfirmMs: 2_000,
  sidePanelCloseMs: 200,
  oauthRedirectMs: 5_000,
  notificationPollMs: 60_000,
  reportFilterDebounceMs: 500,
} as const;

/** Reconnect delays of the product's hubs, then it stops. */
export const HUB_RECONNECT_DELAYS_MS = [0, 2_000, 10_000, 30_000] as const;

/** The spec's real-time constants (those of ASP.NET Core SignalR), shared by server and client. */
export const HUB_LIMITS = {
  /** Largest message either side accepts, in bytes (the spec's buffer size). */
  maxMessageBytes: 100_000,
  /** Each side sends a ping when it has sent nothing for this long. */
  keepAliveMs: 15_000,
  /** A side that hears nothing for this long closes the connection. */
  serverTimeoutMs: 30_000,
} as const;
