/**
 * The operator's Airbyte sources: the JSON file AIRBYTE_SOURCES names, read once at start. Only
 * programs listed here ever run; an account picks one of them and gives its JSON configuration.
 *
 * [{ "key": "faker", "name": "Faker", "command": "/opt/airbyte/source-faker/bin/source-faker",
 *    "args": [], "docs": "…", "env": { "PYTHONUNBUFFERED": "1" },
 *    "timeoutSeconds": { "read": 7200 }, "maxLineBytes": 16777216, "maxStderrBytes": 1048576 }]
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const MIB = 1024 * 1024;

/** Each command's time limit by default: spec, check and discover answer quickly; a read may take hours. */
export const DEFAULT_TIMEOUT_SECONDS = { spec: 30, check: 60, discover: 300, read: 6 * 3600 } as const;

const seconds = z
  .number()
  .int()
  .min(1)
  .max(7 * 24 * 3600);

const sourceSchema = z
  .object({
    key: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9-]{0,39}$/,
        'must be 1 to 40 characters: a-z, 0-9 and -, starting with a letter or digit',
      ),
    name: z.string().trim().min(1).max(100),
    command: z
      .string()
      .min(1)
      .refine((c) => path.isAbsolute(c), 'must be an absolute path such as /usr/bin/python3'),
    args: z.array(z.string().max(4096)).max(100).default([]),
    docs: z.string().max(100_000).nullable().default(null),
    /** The only variables the program gets besides PATH, HOME, TMPDIR and LANG. */
    env: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'is not a variable name'), z.string().max(32_768))
      .default({}),
    timeoutSeconds: z
      .object({ spec: seconds, check: seconds, discover: seconds, read: seconds })
      .partial()
      .strict()
      .default({}),
    /** One stdout line (one Airbyte message) larger than this ends the run. */
    maxLineBytes: z
      .number()
      .int()
      .min(1024)
      .max(1024 * MIB)
      .default(64 * MIB),
    /** More stderr than this in one command ends the run. */
    maxStderrBytes: z
      .number()
      .int()
      .min(1024)
      .max(1024 * MIB)
      .default(4 * MIB),
    /** The user the program runs as when the server runs as root (default nobody, 65534). */
    uid: z.number().int().min(1).max(4_294_967_294).optional(),
    gid: z.number().int().min(1).max(4_294_967_294).optional(),
  })
  .strict();

const fileSchema = z.array(sourceSchema).superRefine((sources, ctx) => {
  const seen = new Set<string>();
  for (const [i, source] of sources.entries()) {
    if (seen.has(source.key))
      ctx.addIssue({ code: 'custom', path: [i, 'key'], message: `'${source.key}' is listed twice` });
    seen.add(source.key);
  }
});

export interface AirbyteSourceSetting {
  key: string;
  name: string;
  command: string;
  args: string[];
  docs: string | null;
  env: Record<string, string>;
  timeoutMs: { spec: number; check: number; discover: number; read: number };
  maxLineBytes: number;
  maxStderrBytes: number;
  /** Used only when the server runs as root. */
  user: { uid: number; gid: number };
}

const NOBODY = 65_534;

/** The sources of the file, or an Error whose message names what is wrong (the caller adds the variable). */
export function readAirbyteSources(file: string): AirbyteSourceSetting[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${file}: [${i.path.join('.')}]: ${i.message}`);
    throw new Error(lines.join('\n  '));
  }
  return parsed.data.map((s) => ({
    key: s.key,
    name: s.name,
    command: s.command,
    args: s.args,
    docs: s.docs,
    env: s.env,
    timeoutMs: {
      spec: (s.timeoutSeconds.spec ?? DEFAULT_TIMEOUT_SECONDS.spec) * 1000,
      check: (s.timeoutSeconds.check ?? DEFAULT_TIMEOUT_SECONDS.check) * 1000,
      discover: (s.timeoutSeconds.discover ?? DEFAULT_TIMEOUT_SECONDS.discover) * 1000,
      read: (s.timeoutSeconds.read ?? DEFAULT_TIMEOUT_SECONDS.read) * 1000,
    },
    maxLineBytes: s.maxLineBytes,
    maxStderrBytes: s.maxStderrBytes,
    user: { uid: s.uid ?? NOBODY, gid: s.gid ?? NOBODY },
  }));
}
