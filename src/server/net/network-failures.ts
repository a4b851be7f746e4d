/**
 * Failures of outbound connections in words that name the host (and port) and the kind of failure,
 * built only from our own knowledge (the policy, Node's error codes), never from bytes the remote
 * sent, so a connection cannot be used to read or fingerprint what answers at an address.
 */
import { OutboundDnsError, OutboundRefusedError } from './outbound-policy';

export type NetworkFailureKind = 'policy' | 'dns' | 'refused' | 'timeout' | 'reset' | 'unreachable' | 'tls';

export interface NetworkFailure {
  kind: NetworkFailureKind;
  message: string;
}

const CODES: Record<string, NetworkFailureKind> = {
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_FAIL: 'dns',
  EAI_NONAME: 'dns',
  ENODATA: 'dns',
  ECONNREFUSED: 'refused',
  ETIMEDOUT: 'timeout',
  ESOCKETTIMEDOUT: 'timeout',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  ECONNABORTED: 'reset',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EHOSTDOWN: 'unreachable',
  ENETDOWN: 'unreachable',
  EADDRNOTAVAIL: 'unreachable',
  EAFNOSUPPORT: 'unreachable',
};

/** Node's and OpenSSL's codes of a failed TLS handshake or certificate check. */
const isTlsCode = (code: string) => /^(ERR_TLS_|ERR_SSL_)|CERT|^EPROTO$/.test(code);

/** The error's code; for the AggregateError of a connect that tried several addresses, the first one's. */
export function errorCode(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code !== '') return code;
  const inner = (error as { errors?: unknown }).errors;
  return Array.isArray(inner) && inner.length > 0 ? errorCode(inner[0]) : null;
}

const WORDS: Record<Exclude<NetworkFailureKind, 'policy' | 'dns'>, (where: string, code: string) => string> = {
  refused: (where) => `Connection refused by ${where}`,
  timeout: (where) => `Timed out connecting to ${where}`,
  reset: (where) => `The connection to ${where} was closed unexpectedly`,
  unreachable: (where, code) => `${where} is unreachable (${code})`,
  tls: (where, code) => `TLS failed with ${where} (${code})`,
};

/** The kind and words of a network failure, or null when the error is not one. */
export function networkFailure(error: unknown, where: string): NetworkFailure | null {
  if (error instanceof OutboundRefusedError) return { kind: 'policy', message: error.message };
  if (error instanceof OutboundDnsError) return { kind: 'dns', message: error.message };
  const code = errorCode(error);
  if (code === null) return null;
  const kind = CODES[code] ?? (isTlsCode(code) ? 'tls' : null);
  if (kind === null) return null;
  if (kind === 'dns') return { kind, message: `DNS lookup of ${where} failed (${code})` };
  if (kind === 'policy') return { kind, message: `Refused by the network policy: ${where}` };
  return { kind, message: WORDS[kind](where, code) };
}

/** Failures worth trying again later; the others need the configuration (or the operator) to change. */
export function isTransientFailure(kind: NetworkFailureKind): boolean {
  return kind === 'timeout' || kind === 'reset';
}
