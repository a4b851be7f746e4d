/**
 * The parts of ASP.NET Core SignalR's JSON hub protocol the hubs use (spec constants are its own):
 * text records ended by 0x1E, the handshake, invocation, completion, ping and close. Streaming,
 * MessagePack and stateful reconnect (ack/sequence) are not spoken and are refused where they
 * would start. Reference: https://github.com/dotnet/aspnetcore/blob/main/src/SignalR/docs/specs/HubProtocol.md
 */
import { HUB_LIMITS } from '../../shared/limits';

export const RECORD_SEPARATOR = '\u001e';

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
  Ack: 8,
  Sequence: 9,
} as const;

/** Texts a client sees when something is refused; the official client puts them in its errors. */
export const HUB_ERRORS = {
  negotiateVersion: 'Only negotiateVersion=1 is supported.',
  websocketOnly: 'This hub accepts WebSocket connections only (negotiate, then GET with Upgrade: websocket).',
  unknownConnection: 'No connection with that id: negotiate again.',
  handshakeMalformed: 'Handshake was malformed: expected {"protocol":"json","version":1}.',
  protocol: (name: string) => `The protocol '${name}' is not supported: this server speaks json version 1 only.`,
  messageTooBig: `Message larger than the ${HUB_LIMITS.maxMessageBytes}-byte buffer.`,
  malformedMessage: 'Message was not a valid hub message.',
  streamingUnsupported: 'Streaming invocations are not supported by this hub.',
  unknownMethod: (name: string) => `Unknown hub method '${name}'.`,
  methodFailed: (name: string) => `An unexpected error occurred invoking '${name}' on the server.`,
  serverTimeout: 'Server timeout elapsed without receiving a message from the client.',
  signedOut: 'The session was signed out.',
  sessionExpired: 'The session has expired. Sign in again.',
} as const;

export const PING_RECORD = `{"type":${MessageType.Ping}}${RECORD_SEPARATOR}`;
export const HANDSHAKE_OK_RECORD = `{}${RECORD_SEPARATOR}`;

/** One invocation record, encoded once per send however many connections receive it. */
export function invocationRecord(target: string, args: unknown[]): string {
  return `${JSON.stringify({ type: MessageType.Invocation, target, arguments: args })}${RECORD_SEPARATOR}`;
}

export function completionRecord(invocationId: string, outcome: { result: unknown } | { error: string }): string {
  const body =
    'error' in outcome
      ? { type: MessageType.Completion, invocationId, error: outcome.error }
      : // A method that returns nothing answers without `result`, as a void hub method does.
        outcome.result === undefined
        ? { type: MessageType.Completion, invocationId }
        : { type: MessageType.Completion, invocationId, result: outcome.result };
  return `${JSON.stringify(body)}${RECORD_SEPARATOR}`;
}

/** allowReconnect tells the official client to reconnect (a server shutting down), not to stop. */
export function closeRecord(error?: string, allowReconnect = false): string {
  const body: Record<string, unknown> = { type: MessageType.Close };
  if (error) body.error = error;
  if (allowReconnect) body.allowReconnect = true;
  return `${JSON.stringify(body)}${RECORD_SEPARATOR}`;
}

export function handshakeErrorRecord(error: string): string {
  return `${JSON.stringify({ error })}${RECORD_SEPARATOR}`;
}

/** The handshake request's verdict: accepted, or the error to answer before closing. */
export function readHandshake(text: string): { ok: true } | { ok: false; error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, error: HUB_ERRORS.handshakeMalformed };
  }
  if (!isRecord(parsed) || typeof parsed.protocol !== 'string' || typeof parsed.version !== 'number') {
    return { ok: false, error: HUB_ERRORS.handshakeMalformed };
  }
  if (parsed.protocol !== 'json' || parsed.version !== 1) {
    return { ok: false, error: HUB_ERRORS.protocol(`${parsed.protocol} version ${parsed.version}`) };
  }
  return { ok: true };
}

export type ClientMessage =
  | { type: typeof MessageType.Invocation; invocationId: string | undefined; target: string; arguments: unknown[] }
  | { type: typeof MessageType.StreamInvocation; invocationId: string | undefined }
  | { type: typeof MessageType.Ping }
  | { type: typeof MessageType.Close }
  /** Anything else a client may send that needs no answer (cancel, completion of a client result). */
  | { type: 'ignored' };

/** One record from a client, or null when it is not a hub message this protocol knows. */
export function readMessage(text: string): ClientMessage | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(parsed) || typeof parsed.type !== 'number') return null;
  const invocationId = typeof parsed.invocationId === 'string' ? parsed.invocationId : undefined;
  switch (parsed.type) {
    case MessageType.Invocation:
      if (typeof parsed.target !== 'string') return null;
      if (parsed.arguments !== undefined && !Array.isArray(parsed.arguments)) return null;
      return {
        type: MessageType.Invocation,
        invocationId,
        target: parsed.target,
        arguments: (parsed.arguments as unknown[] | undefined) ?? [],
      };
    case MessageType.StreamInvocation:
      return { type: MessageType.StreamInvocation, invocationId };
    case MessageType.Ping:
      return { type: MessageType.Ping };
    case MessageType.Close:
      return { type: MessageType.Close };
    case MessageType.CancelInvocation:
    case MessageType.Completion:
    case MessageType.StreamItem:
    case MessageType.Ack:
    case MessageType.Sequence:
      return { type: 'ignored' };
    default:
      return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
