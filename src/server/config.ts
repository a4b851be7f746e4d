import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { readAirbyteSources, type AirbyteSourceSetting } from './modules/integrations/connectors/airbyte/sources-file';

/** Environment variables the server reads; everything has an embedded default. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'PUBLIC_URL must be an http(s) URL, e.g. https://data.example.com' })
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Workspace <no-reply@localhost>'),
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  SIGNUP: z.enum(['invite', 'open']).default('invite'),
  /** Whether connectors may reach loopback and private networks; unset: yes with SIGNUP=invite, no with open. */
  CONNECTOR_PRIVATE_NETWORKS: z.stringbool({ error: 'CONNECTOR_PRIVATE_NETWORKS must be true or false' }).optional(),
  LOGIN_LIMIT_PER_ADDRESS: z.coerce.number().int().positive().default(5),
  LOGIN_LIMIT_PER_CLIENT: z.coerce.number().int().positive().default(30),
  LOGIN_LIMIT_WINDOW_MINUTES: z.coerce.number().int().positive().default(15),
  /** Error and bug reports (with their screenshots) a signed-in user, and a client address, may send per window. */
  REPORT_LIMIT_PER_USER: z.coerce.number().int().positive().default(10),
  REPORT_LIMIT_PER_CLIENT: z.coerce.number().int().positive().default(30),
  REPORT_LIMIT_MINUTES: z.coerce.number().int().positive().default(15),
  /** Only behind a reverse proxy: then X-Forwarded-For names the client (rate limits, logs). */
  TRUST_PROXY: z.stringbool({ error: 'TRUST_PROXY must be true or false' }).default(false),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
  /** Largest file accepted by uploads such as a static table's CSV import. */
  UPLOAD_MAX_MB: z.coerce.number().positive().default(200),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Per open account warehouse (DuckDB's memory_limit); several accounts may be open at once. */
  WAREHOUSE_MEMORY_LIMIT: z
    .string()
    .regex(
      /^\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i,
      'WAREHOUSE_MEMORY_LIMIT must be a size such as 512MB or 2GB',
    )
    .default('1GB'),
  /** DuckDB worker threads per open account warehouse; defaults to the machine's cores, at most 4. */
  WAREHOUSE_THREADS: z.coerce.number().int().min(1).max(256).optional(),
  WAREHOUSE_IDLE_SECONDS: z.coerce.number().int().positive().default(300),
  /** Ordered copies (warehouse/ordered-copies.ts): only for tables of at least this many rows. */
  ORDERED_COPY_MIN_ROWS: z.coerce.number().int().min(0).default(200_000),
  /** Ordered copies kept per account; 0 turns them off. */
  ORDERED_COPY_MAX: z.coerce.number().int().min(0).default(4),
  /** Rows of all of an account's ordered copies together. */
  ORDERED_COPY_MAX_ROWS: z.coerce.number().int().positive().default(40_000_000),
  /** Optional language model for the Queries chat (any OpenAI-compatible endpoint); all three or none. */
  LLM_BASE_URL: z.url({ protocol: /^https?$/, error: 'LLM_BASE_URL must be an http(s) URL' }).optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_TIMEOUT_SECONDS: z.coerce.number().positive().default(20),
  RECENT_ANSWERS_MAX: z.coerce.number().int().min(0).default(256),
  RECENT_ANSWERS_MAX_ROWS: z.coerce.number().int().min(0).default(50_000),
  /** Encrypts integration secrets: 32 bytes as 64 hex characters or base64; else DATA_DIR/secrets.key. */
  SECRETS_KEY: z
    .string()
    .refine(
      (v) => /^[0-9a-fA-F]{64}$/.test(v) || Buffer.from(v, 'base64').length === 32,
      'SECRETS_KEY must be 32 bytes, as 64 hex characters or base64',
    )
    .optional(),
  /** Integration syncs running at once, across all accounts. */
  SYNC_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** How often the scheduler looks for integrations whose scheduled sync is due. */
  SCHEDULER_INTERVAL_SECONDS: z.coerce.number().positive().default(5),
  /** Port of the SMTP listener receiving mail for Incoming e-mail integrations; 0 (default) turns it off. */
  SMTP_LISTEN_PORT: z.coerce.number().int().min(0).max(65_535).default(0),
  /** Automation runs executing at once, across all accounts. */
  AUTOMATION_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** How long a worker's claim on a run lasts without a heartbeat; after it another worker takes the run over. */
  AUTOMATION_LEASE_SECONDS: z.coerce.number().positive().max(3_600).default(30),
  /** Questions one user may send the Queries chat per minute. */
  CHAT_MESSAGES_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
  /** A JSON file listing the Airbyte-protocol sources accounts may use (the only programs a sync runs). */
  AIRBYTE_SOURCES: z.string().min(1).optional(),
  /** The domain of Incoming e-mail addresses (`<address>@<domain>`); default: PUBLIC_URL's host name. */
  INCOMING_EMAIL_DOMAIN: z
    .string()
    .regex(/^[A-Za-z0-9.-]+$/, 'INCOMING_EMAIL_DOMAIN must be a domain name such as in.example.com')
    .optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** The address users reach the app at; links in mails point here. */
  publicUrl: string;
  /** True when publicUrl is https, so the session cookie gets Secure. */
  secureCookies: boolean;
  smtpUrl: string | null;
  mailFrom: string;
  /** Null means: use (or create) the key file in dataDir. */
  sessionSecret: string | null;
  nodeEnv: 'development' | 'production' | 'test';
  signup: 'invite' | 'open';
  /**
   * Outbound connections made for users (connectors): link-local and metadata addresses are always
   * refused; loopback and private ranges only when privateNetworks is true.
   */
  outbound: { privateNetworks: boolean };
  loginLimits: { perAddress: number; perClient: number; windowMs: number };
  reportLimits: { perUser: number; perClient: number; windowMs: number };
  bodyLimitBytes: number;
  uploadMaxBytes: number;
  trustProxy: boolean;
  logLevel: string;
  /** Each account's DuckDB file; an instance unused for idleMs is closed. */
  warehouse: { memoryLimit: string; threads: number; idleMs: number };
  /** Copies of large tables in the order of a sort and filter, for fast deep pages and counts. */
  orderedCopies: { minRows: number; maxCopies: number; maxRows: number };
  recentAnswers: { maxEntries: number; maxRows: number };
  /** The Queries chat's optional language model (LLM_*); null: the grammar alone, fully offline. */
  llm: { baseUrl: string; apiKey: string; model: string; timeoutMs: number } | null;
  /** Null means: use (or create) DATA_DIR/secrets.key. */
  secretsKey: Buffer | null;
  integrations: {
    syncConcurrency: number;
    schedulerIntervalMs: number;
    /** 0: no SMTP listener. */
    smtpListenPort: number;
    emailDomain: string;
    /** The operator's Airbyte-protocol sources (AIRBYTE_SOURCES); empty when not set. */
    airbyteSources: AirbyteSourceSetting[];
  };
  automations: {
    concurrency: number;
    /** A run's lease; the heartbeat renews it every third of it. */
    leaseMs: number;
  };
  chat: {
    /** Questions one user may send per minute (CHAT_MESSAGES_PER_MINUTE). */
    messagesPerMinute: number;
  };
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const blanksRemoved = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(blanksRemoved);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    publicUrl,
    secureCookies: publicUrl.startsWith('https://'),
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    sessionSecret: e.SESSION_SECRET ?? null,
    nodeEnv: e.NODE_ENV,
    signup: e.SIGNUP,
    outbound: { privateNetworks: e.CONNECTOR_PRIVATE_NETWORKS ?? e.SIGNUP === 'invite' },
    loginLimits: {
      perAddress: e.LOGIN_LIMIT_PER_ADDRESS,
      perClient: e.LOGIN_LIMIT_PER_CLIENT,
      windowMs: e.LOGIN_LIMIT_WINDOW_MINUTES * 60_000,
    },
    reportLimits: {
      perUser: e.REPORT_LIMIT_PER_USER,
      perClient: e.REPORT_LIMIT_PER_CLIENT,
      windowMs: e.REPORT_LIMIT_MINUTES * 60_000,
    },
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    uploadMaxBytes: Math.round(e.UPLOAD_MAX_MB * 1024 * 1024),
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    warehouse: {
      memoryLimit: e.WAREHOUSE_MEMORY_LIMIT,
      threads: e.WAREHOUSE_THREADS ?? Math.min(4, os.availableParallelism()),
      idleMs: e.WAREHOUSE_IDLE_SECONDS * 1000,
    },
    llm:
      e.LLM_BASE_URL && e.LLM_MODEL
        ? {
            baseUrl: e.LLM_BASE_URL.replace(/\/+$/, ''),
            apiKey: e.LLM_API_KEY ?? '',
            model: e.LLM_MODEL,
            timeoutMs: e.LLM_TIMEOUT_SECONDS * 1000,
          }
        : null,
    orderedCopies: {
      minRows: e.ORDERED_COPY_MIN_ROWS,
      maxCopies: e.ORDERED_COPY_MAX,
      maxRows: e.ORDERED_COPY_MAX_ROWS,
    },
    recentAnswers: { maxEntries: e.RECENT_ANSWERS_MAX, maxRows: e.RECENT_ANSWERS_MAX_ROWS },
    secretsKey: e.SECRETS_KEY ? secretsKeyBytes(e.SECRETS_KEY) : null,
    integrations: {
      syncConcurrency: e.SYNC_CONCURRENCY,
      schedulerIntervalMs: Math.round(e.SCHEDULER_INTERVAL_SECONDS * 1000),
      smtpListenPort: e.SMTP_LISTEN_PORT,
      emailDomain: (e.INCOMING_EMAIL_DOMAIN ?? new URL(publicUrl).hostname).toLowerCase(),
      airbyteSources: e.AIRBYTE_SOURCES ? airbyteSources(e.AIRBYTE_SOURCES) : [],
    },
    automations: {
      concurrency: e.AUTOMATION_CONCURRENCY,
      leaseMs: Math.round(e.AUTOMATION_LEASE_SECONDS * 1000),
    },
    chat: { messagesPerMinute: e.CHAT_MESSAGES_PER_MINUTE },
  };
}

function airbyteSources(file: string): AirbyteSourceSetting[] {
  try {
    return readAirbyteSources(path.resolve(file));
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  AIRBYTE_SOURCES: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function secretsKeyBytes(text: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
}
