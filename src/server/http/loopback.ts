import net from 'node:net';
import type { FastifyRequest } from 'fastify';

/** Headers a proxy adds; a request carrying any of them came (or claims to come) through one. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'via'] as const;

/** 127.0.0.0/8, ::1, and IPv4 loopback written as an IPv4-mapped IPv6 address (::ffff:127.0.0.1). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  if (net.isIPv4(address)) return address.startsWith('127.');
  if (!net.isIPv6(address)) return false;
  // The URL parser writes an IPv6 address in one canonical form: 0:0:0:0:0:0:0:1 becomes ::1 and
  // ::ffff:127.0.0.1 becomes ::ffff:7f00:1 (7f.. is 127 in hex).
  const canonical = new URL(`http://[${address}]`).hostname;
  return canonical === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}

/** The Host header names this machine (localhost or a loopback address), whatever the port. */
function namesLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  return isLoopbackAddress(hostname.replace(/^\[(.*)\]$/, '$1'));
}

/**
 * Whether a request was made on this machine, straight to the server. Decided on the socket's own
 * peer address, never on req.ip (with TRUST_PROXY that comes from X-Forwarded-For, which anyone
 * can write). A request through a proxy is not loopback even when the proxy runs on this machine:
 * any forwarding header refuses it. The Host header must name this machine too, so a web page
 * whose name was rebound to 127.0.0.1 (DNS rebinding) cannot read the answer from a browser.
 */
export function isDirectLoopbackRequest(req: FastifyRequest): boolean {
  if (!isLoopbackAddress(req.raw.socket.remoteAddress)) return false;
  if (FORWARDING_HEADERS.some((name) => req.headers[name] !== undefined)) return false;
  return namesLoopbackHost(req.headers.host);
}
