/**
 * Refuses cross-site requests that change state. A browser lets any page send a form post (text/plain,
 * multipart, url-encoded) or a body-less POST/PUT/DELETE to another site, cookies included; it never
 * lets it send `Content-Type: application/json` there without a CORS preflight, which this server
 * does not grant. So a state-changing request passes when it is JSON, or when the browser says it
 * comes from this site (Origin, else Sec-Fetch-Site, else Referer). A script without a browser sends
 * JSON (`{}` when it has nothing to say) or its own Origin header.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MESSAGES } from '../../shared/messages';
import type { Config } from '../config';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Paths that authenticate with a secret of their own in the URL, not with the session cookie, and
 * the hubs, which refuse another site's Origin themselves but let a script without one negotiate
 * (the official client's negotiate call is a body-less POST).
 */
const OWN_SECRET_PATHS = ['/api/integrations/webhook/', '/api/hubs/'];

function isJson(req: FastifyRequest): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/**
 * This site's origins: the public address, and the address the request itself was sent to (the Host
 * header, which a page on another site cannot set), so a server reached at its LAN address works.
 */
function ownOrigins(req: FastifyRequest, publicOrigin: string): Set<string> {
  const origins = new Set([publicOrigin]);
  const host = req.headers.host;
  if (host) {
    for (const scheme of ['http', 'https']) {
      const origin = originOf(`${scheme}://${host}`);
      if (origin) origins.add(origin);
    }
  }
  return origins;
}

/** Whether the browser says the request comes from this site; null when it says nothing. */
export function sameSiteVerdict(req: FastifyRequest, publicOrigin: string): boolean | null {
  const origin = req.headers.origin;
  if (origin !== undefined) return ownOrigins(req, publicOrigin).has(origin);
  const fetchSite = req.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string') return fetchSite === 'same-origin' || fetchSite === 'none';
  const referer = req.headers.referer;
  if (referer !== undefined) {
    const from = originOf(referer);
    return from !== null && ownOrigins(req, publicOrigin).has(from);
  }
  return null;
}

export function registerCrossSiteCheck(app: FastifyInstance, config: Config): void {
  const publicOrigin = new URL(config.publicUrl).origin;
  app.addHook('onRequest', async (req, reply) => {
    if (SAFE_METHODS.has(req.method)) return;
    if (OWN_SECRET_PATHS.some((prefix) => req.url.startsWith(prefix))) return;
    const sameSite = sameSiteVerdict(req, publicOrigin);
    // A page of another site gave itself away; JSON from there cannot happen without a preflight.
    if (sameSite === false) return reply.status(403).send({ message: MESSAGES.crossSiteRefused });
    if (sameSite === true || isJson(req)) return;
    return reply.status(403).send({ message: MESSAGES.crossSiteRefused });
  });
}
