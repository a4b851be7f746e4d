/**
 * The operator's policy for connections the server opens on a user's behalf (connectors; later
 * automation HTTP steps). It decides per resolved IP address (see address-classes.ts): link-local,
 * cloud metadata and reserved addresses are always refused; loopback and private ranges only when
 * the operator allows private networks (CONNECTOR_PRIVATE_NETWORKS).
 *
 * Callers resolve a host once through `resolve` and dial only the addresses it returned (never the
 * name again), so a DNS answer that changes between the check and the connect (rebinding) cannot
 * slip through. Note that a socket given a `lookup` skips it for IP literals: pin, do not filter. Host spellings such as
 * `localhost`, `127.1`, `0x7f.1`, `2130706433` or `[::1]` all go through the system resolver and
 * end up as the address that would be dialled.
 */
import dns, { type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { classifyAddress, type AddressClass } from './address-classes';

export type RefusedClass = Exclude<AddressClass, 'public'>;

export interface OutboundPolicy {
  readonly allowPrivateNetworks: boolean;
  /** Why this IP address may not be dialled, or null when it may. */
  refusal(address: string): RefusedClass | null;
  /**
   * The addresses a host (a name or an IP address, brackets allowed) may be reached at, in the
   * resolver's order. Throws OutboundRefusedError when none may, OutboundDnsError when it does not
   * resolve. `port` only makes the errors name host and port.
   */
  resolve(host: string, options?: { port?: number; signal?: AbortSignal }): Promise<LookupAddress[]>;
}

/** `host:port` as errors name it (`[::1]:5432` for IPv6). */
export function hostAndPort(host: string, port?: number): string {
  if (port === undefined) return host;
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The host the policy refused (as the caller named it) and why. */
export class OutboundRefusedError extends Error {
  readonly code = 'EOUTBOUNDREFUSED';
  constructor(
    /** host or host:port */
    readonly where: string,
    readonly refused: RefusedClass,
  ) {
    super(`Refused by the network policy: ${where} is ${REFUSED_WORDS[refused]}`);
    this.name = 'OutboundRefusedError';
  }
}

/** The host name did not resolve; `dnsCode` is the resolver's code (ENOTFOUND, EAI_AGAIN, ...). */
export class OutboundDnsError extends Error {
  readonly code = 'EOUTBOUNDDNS';
  constructor(
    readonly host: string,
    readonly dnsCode: string,
  ) {
    super(`DNS lookup of ${host} failed (${dnsCode})`);
    this.name = 'OutboundDnsError';
  }
}

export const REFUSED_WORDS: Record<RefusedClass, string> = {
  'link-local': 'a link-local or cloud metadata address, which connections from this server may never reach',
  private:
    'a loopback or private network address, which this server does not allow connections to (CONNECTOR_PRIVATE_NETWORKS)',
  reserved: 'a reserved, multicast or broadcast address, which connections from this server may never reach',
};

/** Resolving a name takes at most this long (getaddrinfo itself cannot be cancelled). */
const DNS_TIMEOUT_MS = 15_000;

/** `[::1]` -> `::1`: URL and user spellings of IPv6 hosts. */
export function bareHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function lookupAll(host: string, signal?: AbortSignal): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, addresses: LookupAddress[] = []) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      if (error) reject(error);
      else resolve(addresses);
    };
    const abort = () => done(signal?.reason instanceof Error ? signal.reason : new Error('Cancelled'));
    const timer = setTimeout(() => done(new OutboundDnsError(host, 'ETIMEOUT')), DNS_TIMEOUT_MS);
    if (signal?.aborted) return abort();
    signal?.addEventListener('abort', abort, { once: true });
    try {
      dns.lookup(host, { all: true, verbatim: true }, (error, addresses) => {
        if (error) done(new OutboundDnsError(host, typeof error.code === 'string' ? error.code : 'EAI_FAIL'));
        else done(null, addresses);
      });
    } catch {
      done(new OutboundDnsError(host, 'EINVAL')); // a host the resolver will not even take (e.g. control characters)
    }
  });
}

export function createOutboundPolicy(options: { allowPrivateNetworks: boolean }): OutboundPolicy {
  const { allowPrivateNetworks } = options;

  const refusal = (address: string): RefusedClass | null => {
    const cls = classifyAddress(address);
    if (cls === 'public' || (cls === 'private' && allowPrivateNetworks)) return null;
    return cls;
  };

  /** The allowed addresses; refused ones dropped, and the refusal named when nothing is left. */
  const filter = (where: string, addresses: LookupAddress[]): LookupAddress[] => {
    if (addresses.length === 0) throw new OutboundDnsError(where, 'ENODATA');
    const allowed = addresses.filter((a) => refusal(a.address) === null);
    if (allowed.length > 0) return allowed;
    const refused = addresses.map((a) => refusal(a.address)).filter((r): r is RefusedClass => r !== null);
    // The strictest reason wins: a name that resolves to metadata and loopback is named for the metadata.
    const worst = (['link-local', 'reserved', 'private'] as const).find((r) => refused.includes(r)) ?? 'reserved';
    throw new OutboundRefusedError(where, worst);
  };

  const resolve: OutboundPolicy['resolve'] = async (host, { port, signal } = {}) => {
    const bare = bareHost(host.trim());
    if (bare === '') throw new OutboundDnsError(host, 'ENOTFOUND');
    return filter(hostAndPort(bare, port), await lookupAll(bare, signal));
  };

  return { allowPrivateNetworks, refusal, resolve };
}
