/**
 * Standard security headers on every answer (helmet's): a content security policy that runs only
 * the app's own scripts and lets no other site frame it, nosniff, a referrer policy that keeps
 * sign-in links and ids inside the site, and HSTS when the app is served over https.
 *
 * The headers are the same for every answer, so helmet computes them once at start and each answer
 * gets the finished set (the Fastify plugin rebuilt helmet's middleware, CSP parsing included, on
 * every request).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
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

export function registerSecurityHeaders(app: FastifyInstance, config: Config, options: { devClient: boolean }): void {
  const https = config.publicUrl.startsWith('https://');
  const headers = headersOf({
    // Vite's dev server injects inline scripts and its own socket; `npm run dev` only.
    contentSecurityPolicy: options.devClient ? false : { useDefaults: false, directives: DIRECTIVES },
    hsts: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/** The headers helmet's middleware sets for these options, read once from a stand-in response. */
function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown = null;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    failure = error ?? null;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
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
