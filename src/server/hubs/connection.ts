/**
 * One WebSocket speaking the JSON hub protocol: the handshake, then invocations, pings and close.
 * It joins the registry (and so its user's and account's groups) only once the handshake is done.
 * Timers are not per connection: the transport's one sweep calls `tick` (ping and server timeout).
 */
import type { WebSocket } from 'ws';
import { AppError } from '../errors';
import type { HubCaller, HubDefinition, HubMethod } from './definitions';
import { HubError } from './definitions';
import type { HubConnection, HubRegistry } from './hub-sender';
import {
  HANDSHAKE_OK_RECORD,
  HUB_ERRORS,
  MessageType,
  PING_RECORD,
  RECORD_SEPARATOR,
  closeRecord,
  completionRecord,
  handshakeErrorRecord,
  readHandshake,
  readMessage,
} from './protocol';

export interface HubTicket {
  connectionId: string;
  userId: string;
  accountId: string | null;
  sessionHash: string;
  /** When the session behind the connection expires (ms since the epoch, on the app's clock). */
  sessionExpiresAt: number;
}

export interface ConnectionOptions {
  maxMessageBytes: number;
  keepAliveMs: number;
  serverTimeoutMs: number;
  /** Bytes queued to a client that reads too slowly before it is dropped (bounds server memory). */
  maxBufferedBytes: number;
  now: () => number;
  log: (error: unknown, what: string) => void;
}

export interface LiveConnection {
  /** The transport's sweep closes the connection once this passes (HubTicket.sessionExpiresAt). */
  readonly sessionExpiresAt: number;
  /** Called by the transport's sweep: a ping when idle, a close when the client went silent. */
  tick(now: number): void;
  close(error?: string, allowReconnect?: boolean): void;
}

export function openConnection(
  socket: WebSocket,
  hub: HubDefinition,
  ticket: HubTicket,
  registry: HubRegistry,
  options: ConnectionOptions,
  onEnd: (live: LiveConnection) => void,
): LiveConnection {
  const methods = new Map<string, HubMethod>(
    Object.entries(hub.methods).map(([name, method]) => [name.toLowerCase(), method]),
  );
  let handshaken = false;
  let ended = false;
  let partial = '';
  let lastReceived = options.now();
  let lastSent = lastReceived;

  const send = (record: string) => {
    if (ended || socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > options.maxBufferedBytes) {
      // A client that stopped reading would otherwise grow the server's memory without end.
      end();
      socket.terminate();
      return;
    }
    socket.send(record);
    lastSent = options.now();
  };

  const connection: HubConnection = {
    id: ticket.connectionId,
    hub: hub.name,
    userId: ticket.userId,
    accountId: ticket.accountId,
    sessionHash: ticket.sessionHash,
    send,
    close: (error, allowReconnect) => live.close(error, allowReconnect),
  };

  function end(): void {
    if (ended) return;
    ended = true;
    registry.remove(connection.id);
    onEnd(live);
  }

  const live: LiveConnection = {
    sessionExpiresAt: ticket.sessionExpiresAt,
    tick(now) {
      if (ended) return;
      if (now - lastReceived >= options.serverTimeoutMs) live.close(HUB_ERRORS.serverTimeout);
      else if (handshaken && now - lastSent >= options.keepAliveMs) send(PING_RECORD);
    },
    close(error, allowReconnect = false) {
      if (ended) return;
      if (handshaken) send(closeRecord(error, allowReconnect));
      else if (error) send(handshakeErrorRecord(error));
      end();
      // 1001: going away (the server stops); 1000 otherwise, the reason is in the close message.
      socket.close(allowReconnect ? 1001 : 1000);
    },
  };

  const caller = (): HubCaller => ({
    connectionId: connection.id,
    userId: connection.userId,
    accountId: connection.accountId,
  });

  const invoke = async (invocationId: string | undefined, target: string, args: unknown[]) => {
    const method = methods.get(target.toLowerCase());
    if (!method) {
      if (invocationId) send(completionRecord(invocationId, { error: HUB_ERRORS.unknownMethod(target) }));
      return;
    }
    try {
      const result: unknown = await method(caller(), args);
      if (invocationId) send(completionRecord(invocationId, { result }));
    } catch (error) {
      const exposed = error instanceof HubError || error instanceof AppError;
      if (!exposed) options.log(error, `hub method ${hub.name}.${target}`);
      if (invocationId) {
        const message = exposed ? error.message : HUB_ERRORS.methodFailed(target);
        send(completionRecord(invocationId, { error: message }));
      }
    }
  };

  const handleRecord = (text: string) => {
    if (!handshaken) {
      const verdict = readHandshake(text);
      if (!verdict.ok) return live.close(verdict.error);
      handshaken = true;
      send(HANDSHAKE_OK_RECORD);
      registry.add(connection);
      return;
    }
    const message = readMessage(text);
    if (!message) return live.close(HUB_ERRORS.malformedMessage);
    switch (message.type) {
      case MessageType.Invocation:
        void invoke(message.invocationId, message.target, message.arguments);
        return;
      case MessageType.StreamInvocation:
        if (message.invocationId) {
          send(completionRecord(message.invocationId, { error: HUB_ERRORS.streamingUnsupported }));
        }
        return;
      case MessageType.Close:
        end();
        socket.close(1000);
        return;
      default:
        // Pings only refresh lastReceived; other kinds need no answer.
        return;
    }
  };

  socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
    if (ended) return;
    lastReceived = options.now();
    if (isBinary) return live.close(HUB_ERRORS.protocol('binary frames'));
    const chunk = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    // A record may span frames; whatever waits for its separator counts against the buffer.
    if (Buffer.byteLength(partial) + chunk.length > options.maxMessageBytes) {
      return live.close(HUB_ERRORS.messageTooBig);
    }
    const records = (partial + chunk.toString('utf8')).split(RECORD_SEPARATOR);
    partial = records.pop() ?? '';
    for (const record of records) {
      if (ended) return;
      handleRecord(record);
    }
  });
  socket.on('close', end);
  return live;
}
