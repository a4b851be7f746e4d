/**
 * For the automation crash test and benchmark: an HTTP receiver that deduplicates by
 * Idempotency-Key as a real API would (the first request with a key performs the effect; a repeat
 * gets the same answer and is counted, never performed again), and a definition of HTTP request
 * steps written straight into a stopped or running server's metadata store.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { DEFAULT_STEP_POLICY, type StepPolicy } from '../../src/shared/automations';

export interface Receiver {
  baseUrl: string;
  /** Effects performed, by key (each at most once). */
  effects: Map<string, { path: string; at: number }>;
  /** Requests seen, by key (a resent key counts more than once). */
  received: Map<string, number>;
  /** Requests being answered now. */
  inFlight(): number;
  /** Called when a request arrives (before its delay). */
  onRequest: ((key: string, path: string) => void) | null;
  delayMs: number;
  close(): Promise<void>;
}

export async function startReceiver(delayMs = 0): Promise<Receiver> {
  const effects = new Map<string, { path: string; at: number }>();
  const received = new Map<string, number>();
  let inFlight = 0;
  const receiver: Receiver = {
    baseUrl: '',
    effects,
    received,
    inFlight: () => inFlight,
    onRequest: null,
    delayMs,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    void (async () => {
      for await (const chunk of req as AsyncIterable<Buffer>) void chunk;
      const key = String(req.headers['idempotency-key'] ?? '');
      const pathname = new URL(req.url ?? '/', 'http://x').pathname;
      received.set(key, (received.get(key) ?? 0) + 1);
      inFlight += 1;
      receiver.onRequest?.(key, pathname);
      try {
        if (receiver.delayMs > 0) await new Promise((r) => setTimeout(r, receiver.delayMs));
        // The effect happens once per key, whether or not the caller is still there to hear the answer.
        if (key && !effects.has(key)) effects.set(key, { path: pathname, at: Date.now() });
        const body = JSON.stringify({ ok: true, effect: key });
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      } finally {
        inFlight -= 1;
      }
    })();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

/** The REST API integration's configuration for the receiver. */
export function receiverConfiguration(baseUrl: string) {
  return {
    base_url: baseUrl,
    authentication: { type: 'none' },
    streams: [{ name: 'Effects', path: '/effects' }],
    max_tries: 1,
    timeout_seconds: 30,
  };
}

export interface HttpAutomation {
  definitionId: string;
  stepIds: string[];
}

/**
 * Writes a definition of `steps` HTTP request steps (POST /effects/s<n>) into DATA_DIR/app.db; the
 * definitions API is another area's, and this keeps the crash test about runs.
 */
export function insertHttpAutomation(
  dataDir: string,
  owner: { accountId: string; userId: string },
  integrationId: string | null,
  steps: number,
  name = 'HTTP chain',
  policy: Partial<StepPolicy> = {},
): HttpAutomation {
  const db = new SQLite(path.join(dataDir, 'app.db'));
  db.pragma('busy_timeout = 5000');
  try {
    const definitionId = crypto.randomUUID();
    const now = new Date().toISOString();
    db.prepare(
      `INSERT INTO automation_definitions (id, account_id, name, description, trigger_type, trigger_new_rows_only,
        run_timeout_seconds, run_counter, created_by, created_at, modified_at)
       VALUES (?, ?, ?, '', 'Manual', 0, 3600, 0, ?, ?, ?)`,
    ).run(definitionId, owner.accountId, name, owner.userId, now, now);
    const stepIds: string[] = [];
    const insert = db.prepare(
      `INSERT INTO automation_steps (id, definition_id, position, name, kind, integration_id, inputs, policy, created_at, modified_at)
       VALUES (?, ?, ?, ?, 'HttpRequest', ?, ?, ?, ?, ?)`,
    );
    for (let i = 0; i < steps; i++) {
      const id = `${definitionId.slice(0, 8)}-s${i + 1}`;
      stepIds.push(id);
      insert.run(
        id,
        definitionId,
        i,
        `Call ${i + 1}`,
        integrationId,
        JSON.stringify({ method: 'POST', path: `/effects/s${i + 1}`, body: { step: i + 1, run: '{{run.id}}' } }),
        JSON.stringify({ ...DEFAULT_STEP_POLICY, backoffSeconds: 0.2, ...policy }),
        now,
        now,
      );
    }
    return { definitionId, stepIds };
  } finally {
    db.close();
  }
}
