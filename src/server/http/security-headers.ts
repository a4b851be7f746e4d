/**
 * Standard security headers on every answer (@fastify/helmet): a content security policy that runs
 * only the app's own scripts and lets no other site frame it, nosniff, a referrer policy that keeps
 * sign-in links and ids inside the site, and HSTS when the app is served over https.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config';

const DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  // Mantine sets styles on elements and in <style> tags it makes at run time.
  styleSrc: ["'self'", "'unsafe-inline'"],
  // Screenshots for error reports are drawn through data: and blob: images.
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", 'data:', 'blob:'],
  workerSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

export async function registerSecurityHeaders(
  app: FastifyInstance,
  config: Config,
  options: { devClient: boolean },
): Promise<void> {
  const https = config.publicUrl.startsWith('https://');
  await app.register(helmet, {
    // Vite's dev server injects inline scripts and its own socket; `npm run dev` only.
    contentSecurityPolicy: options.devClient ? false : { useDefaults: false, directives: DIRECTIVES },
    hsts: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
}

/**
 * For an answer meant to land in a frame of the app itself (the grid's download form posts into a
 * hidden frame, where an error answer is read and shown): framing by this site only.
 */
export function allowFramingBySelf(reply: FastifyReply): void {
  reply.header('x-frame-options', 'SAMEORIGIN');
  const policy = reply.getHeader('content-security-policy');
  if (typeof policy === 'string') {
    reply.header('content-security-policy', policy.replace("frame-ancestors 'none'", "frame-ancestors 'self'"));
  }
}
