/**
 * The client side of the hubs fan-out benchmark, in a process of its own (spawned with IPC by
 * bench/hubs.bench.ts): N official `@microsoft/signalr` clients, each signed in as its own user,
 * and N bare `ws` clients. For each round it reports when the last client received its message,
 * on the machine-wide monotonic clock the server stamped the message with (process.hrtime).
 */
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { WebSocket } from 'ws';

export type ToClients =
  | { kind: 'hubs'; base: string; cookies: string[] }
  | { kind: 'ws'; url: string; count: number }
  | { kind: 'close-hubs' }
  | { kind: 'stop' };

export type FromClients =
  | { kind: 'ready'; side: 'hubs' | 'ws'; connectMs: number }
  | { kind: 'round'; side: 'hubs' | 'ws'; round: number; lastMs: number }
  | { kind: 'closed' };

interface Stamp {
  round: number;
  sentAt: string;
}

const BATCH = 50;
const hubs: HubConnection[] = [];
const sockets: WebSocket[] = [];
const counts = {
  hubs: new Map<number, { n: number; last: bigint }>(),
  ws: new Map<number, { n: number; last: bigint }>(),
};

function send(message: FromClients): void {
  process.send?.(message);
}

/** One receipt of a round; the round is reported once every client of that side has it. */
function received(side: 'hubs' | 'ws', stamp: Stamp, total: number): void {
  const now = process.hrtime.bigint();
  const seen = counts[side].get(stamp.round) ?? { n: 0, last: 0n };
  seen.n += 1;
  if (now > seen.last) seen.last = now;
  counts[side].set(stamp.round, seen);
  if (seen.n === total) {
    counts[side].delete(stamp.round);
    send({ kind: 'round', side, round: stamp.round, lastMs: Number(seen.last - BigInt(stamp.sentAt)) / 1e6 });
  }
}

async function inBatches<T>(items: readonly T[], open: (item: T, index: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += BATCH) {
    await Promise.all(items.slice(i, i + BATCH).map((item, j) => open(item, i + j)));
  }
}

async function connectHubs(base: string, cookies: string[]): Promise<void> {
  const started = performance.now();
  await inBatches(cookies, async (cookie) => {
    const connection = new HubConnectionBuilder()
      .withUrl(`${base}/api/hubs/notifications`, { headers: { cookie }, transport: HttpTransportType.WebSockets })
      .configureLogging(LogLevel.None)
      .build();
    connection.on('ReceiveNotification', (payload: Stamp) => received('hubs', payload, cookies.length));
    await connection.start();
    hubs.push(connection);
  });
  send({ kind: 'ready', side: 'hubs', connectMs: Math.round(performance.now() - started) });
}

async function connectWs(url: string, count: number): Promise<void> {
  const started = performance.now();
  await inBatches(
    Array.from({ length: count }, (_, i) => i),
    (index) =>
      new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(url, { perMessageDeflate: false });
        ws.on('message', (data: Buffer) => received('ws', JSON.parse(data.toString('utf8')) as Stamp, count));
        ws.once('open', () => {
          // Tells the server which user this socket stands for.
          ws.send(String(index));
          sockets.push(ws);
          resolve();
        });
        ws.once('error', reject);
      }),
  );
  send({ kind: 'ready', side: 'ws', connectMs: Math.round(performance.now() - started) });
}

process.on('message', (message: ToClients) => {
  const fail = (error: unknown) => {
    console.error('hub clients:', error);
    process.exit(1);
  };
  if (message.kind === 'hubs') connectHubs(message.base, message.cookies).catch(fail);
  else if (message.kind === 'ws') connectWs(message.url, message.count).catch(fail);
  else if (message.kind === 'close-hubs') {
    Promise.all(hubs.splice(0).map((h) => h.stop()))
      .then(() => send({ kind: 'closed' }))
      .catch(fail);
  } else {
    for (const ws of sockets) ws.terminate();
    Promise.all(hubs.map((h) => h.stop())).finally(() => process.exit(0));
  }
});
