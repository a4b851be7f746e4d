/**
 * A raw TCP listener on 127.0.0.1 that counts the connections it gets and answers each one the
 * way the test says (an HTTP answer, bytes of another protocol, nothing): the stand-in for
 * whatever else listens on a port of the server's network.
 */
import net from 'node:net';

export interface ListenerPeer {
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  /** Everything clients sent, as text. */
  received(): string;
  close(): Promise<void>;
}

export async function startListener(answer: (socket: net.Socket) => void = () => undefined): Promise<ListenerPeer> {
  let count = 0;
  let received = '';
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    answer(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => count,
    received: () => received,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Answers any request with this HTTP status line, headers and body, then closes. */
export function httpAnswer(statusLine: string, body: string, headers: Record<string, string> = {}) {
  return (socket: net.Socket) => {
    socket.once('data', () => {
      const head = Object.entries({
        'content-type': 'text/plain',
        ...headers,
        'content-length': String(Buffer.byteLength(body)),
      })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.end(`HTTP/1.1 ${statusLine}\r\n${head}connection: close\r\n\r\n${body}`);
    });
  };
}
