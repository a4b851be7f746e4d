/**
 * Serves each hub at /api/hubs/{name} as ASP.NET Core SignalR does, so `@microsoft/signalr`
 * connects unchanged: POST {hub}/negotiate?negotiateVersion=1 hands out a connection token, then
 * GET {hub}?id={token} upgrades to a WebSocket (@fastify/websocket). Only WebSockets with text
 * frames are offered; the negotiate call and the upgrade both need the session cookie and, when a
 * browser names one, this site's Origin. One interval pings idle connections and closes silent
 * ones, instead of two timers per connection.
 */
import { randomBytes } from 'node:crypto';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  HUB_PATHS,
  hubConnectQuerySchema,
  hubNegotiateAnswerSchema,
  hubNegotiateQuerySchema,
  type HubNegotiateAnswer,
} from '../../shared/hubs';
import { HUB_LIMITS } from '../../shared/limits';
import { MESSAGES } from '../../shared/messages';
import { SESSION_COOKIE } from '../auth/sessions';
import type { Deps } from '../context';
import { sameSiteVerdict } from '../http/cross-site';
import { endpoint, type AnyEndpoint } from '../http/endpoint';
import { openConnection, type HubTicket, type LiveConnection } from './connection';
import type { HubDefinition } from './definitions';
import { HUB_ERRORS } from './protocol';

export interface HubTransportOptions {
  /** Tests shorten these; the spec's values (HUB_LIMITS) otherwise. */
  keepAliveMs?: number;
  serverTimeoutMs?: number;
}

/** A negotiated connection token is used once, within this time. */
const TICKET_LIFETIME_MS = 60_000;
/** Negotiated but never connected tokens kept at most (the oldest go first). */
const MAX_PENDING_TICKETS = 10_000;
const MAX_BUFFERED_BYTES = 1_000_000;
const SWEEP_MS = 1_000;

/** A negotiated token; the session's expiry is read when it is used (the upgrade). */
interface Pending extends Omit<HubTicket, 'sessionExpiresAt'> {
  hub: string;
  expiresAt: number;
}

const newId = () => randomBytes(16).toString('base64url');

export async function registerHubs(
  app: FastifyInstance,
  deps: Deps,
  hubs: readonly HubDefinition[],
  options: HubTransportOptions = {},
): Promise<void> {
  const publicOrigin = new URL(deps.config.publicUrl).origin;
  const live = new Set<LiveConnection>();
  const pending = new Map<string, Pending>();
  const connectionOptions = {
    maxMessageBytes: HUB_LIMITS.maxMessageBytes,
    keepAliveMs: options.keepAliveMs ?? HUB_LIMITS.keepAliveMs,
    serverTimeoutMs: options.serverTimeoutMs ?? HUB_LIMITS.serverTimeoutMs,
    maxBufferedBytes: MAX_BUFFERED_BYTES,
    now: () => Date.now(),
    log: (err: unknown, what: string) => app.log.error({ err }, what),
  };

  const sweep = setInterval(
    () => {
      const now = Date.now();
      // Sessions end on the app's clock: a connection does not outlive the session it was opened with.
      const appNow = deps.clock().getTime();
      for (const connection of live) {
        if (appNow >= connection.sessionExpiresAt) connection.close(HUB_ERRORS.sessionExpired);
        else connection.tick(now);
      }
      for (const [token, ticket] of pending) if (ticket.expiresAt <= now) pending.delete(token);
    },
    Math.min(SWEEP_MS, connectionOptions.keepAliveMs / 2),
  );
  sweep.unref();

  await app.register(websocket, {
    // ws refuses a frame past this outright (close 1009); below it, the connection refuses a
    // record past the spec's buffer with a close message that says so.
    options: { maxPayload: HUB_LIMITS.maxMessageBytes * 2, perMessageDeflate: false },
    errorHandler: (error, socket, req) => {
      req.log.debug({ err: error }, 'hub socket error');
      socket.terminate();
    },
    preClose(done) {
      clearInterval(sweep);
      // Clients reconnect on their own (to this server once restarted).
      for (const connection of [...live]) connection.close(undefined, true);
      deps.hubs.closeAll();
      this.websocketServer.close(() => done());
    },
  });

  // A browser always names the page's origin on these requests: another site's page is refused.
  const checkOrigin = async (req: FastifyRequest, reply: FastifyReply) => {
    if (sameSiteVerdict(req, publicOrigin) === false) {
      return reply.status(403).send({ message: MESSAGES.crossSiteRefused });
    }
  };

  for (const hub of hubs) {
    const path = HUB_PATHS[hub.name];

    endpoint(
      app,
      deps,
      {
        method: 'POST',
        path: `${path}/negotiate`,
        summary: `Negotiate a connection to the ${hub.name} hub`,
        description:
          'SignalR negotiate (version 1): answers a connection token for the WebSocket transport, the only one ' +
          'offered (text frames, JSON hub protocol). `error` alone when the request cannot be served.',
        tag: 'Live hubs',
        access: 'user',
        query: hubNegotiateQuerySchema,
        answers: { 200: { description: 'The connection token and transports.', json: hubNegotiateAnswerSchema } },
        errors: [403],
        options: { onRequest: checkOrigin },
      },
      async ({ ctx, query, req }): Promise<HubNegotiateAnswer> => {
        if (query.negotiateVersion !== '1') return { error: HUB_ERRORS.negotiateVersion };
        const connectionToken = newId();
        const ticket: Pending = {
          connectionId: newId(),
          userId: ctx.user.id,
          accountId: ctx.user.current_account_id,
          sessionHash: deps.hashToken(req.cookies[SESSION_COOKIE] ?? ''),
          hub: hub.name,
          expiresAt: Date.now() + TICKET_LIFETIME_MS,
        };
        if (pending.size >= MAX_PENDING_TICKETS) {
          const oldest = pending.keys().next();
          if (!oldest.done) pending.delete(oldest.value);
        }
        pending.set(connectionToken, ticket);
        return {
          connectionId: ticket.connectionId,
          connectionToken,
          negotiateVersion: 1,
          availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text'] }],
        };
      },
    );

    const tickets = new WeakMap<FastifyRequest, HubTicket>();
    const connectDoc: AnyEndpoint = {
      method: 'GET',
      path,
      summary: `Connect to the ${hub.name} hub (WebSocket)`,
      description:
        'The WebSocket transport of SignalR: upgrade with the negotiated connection token as `id`, then the ' +
        'JSON hub protocol (handshake {"protocol":"json","version":1}, records ended by 0x1E). A request ' +
        'without Upgrade: websocket is refused (no Server-Sent Events or long polling).',
      tag: 'Live hubs',
      access: 'user',
      query: hubConnectQuerySchema,
      answers: { 101: { description: 'Switching Protocols: the connection is open.' } },
      errors: [400, 403, 404],
    };
    app.route({
      method: 'GET',
      url: path,
      config: { endpoint: connectDoc },
      onRequest: checkOrigin,
      preHandler: async (req, reply) => {
        if (!req.ws) return reply.status(400).send({ message: HUB_ERRORS.websocketOnly });
        if (!req.user) return reply.status(401).send({ message: MESSAGES.notSignedIn });
        const parsed = hubConnectQuerySchema.safeParse(req.query);
        const ticket = parsed.success ? pending.get(parsed.data.id) : undefined;
        const sessionHash = deps.hashToken(req.cookies[SESSION_COOKIE] ?? '');
        if (!parsed.success || !ticket || ticket.hub !== hub.name || ticket.sessionHash !== sessionHash) {
          return reply.status(404).send({ message: HUB_ERRORS.unknownConnection });
        }
        pending.delete(parsed.data.id);
        // Read with the caller's session (request-user.ts): no second lookup.
        if (!req.sessionExpiresAt) return reply.status(401).send({ message: MESSAGES.notSignedIn });
        // The account as it is now: it may have changed since negotiate.
        tickets.set(req, {
          ...ticket,
          userId: req.user.id,
          accountId: req.user.current_account_id,
          sessionExpiresAt: Date.parse(req.sessionExpiresAt),
        });
      },
      handler: async (_req, reply) => reply.status(400).send({ message: HUB_ERRORS.websocketOnly }),
      wsHandler: (socket, req) => {
        const ticket = tickets.get(req);
        if (!ticket) return socket.terminate();
        const connection = openConnection(socket, hub, ticket, deps.hubs, connectionOptions, (ended) =>
          live.delete(ended),
        );
        live.add(connection);
      },
    });
  }
}
