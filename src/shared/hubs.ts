import { z } from 'zod';

/** The product's hubs, each at /api/hubs/{name} (spec: real-time hubs). */
export const HUB_PATHS = {
  notifications: '/api/hubs/notifications',
  automations: '/api/hubs/automations',
  chatbot: '/api/hubs/chatbot',
} as const;

/** POST {hub}/negotiate's query: the official client sends negotiateVersion=1. */
export const hubNegotiateQuerySchema = z.object({
  negotiateVersion: z.string().max(10).optional(),
  useStatefulReconnect: z.string().max(10).optional(),
});

/**
 * The negotiate answer of ASP.NET Core SignalR (version 1): WebSockets with text frames only.
 * `error` alone is the answer when the request cannot be served (the client shows it).
 */
export const hubNegotiateAnswerSchema = z.object({
  connectionId: z.string().optional(),
  connectionToken: z.string().optional(),
  negotiateVersion: z.number().int().optional(),
  availableTransports: z.array(z.object({ transport: z.string(), transferFormats: z.array(z.string()) })).optional(),
  error: z.string().optional(),
});
export type HubNegotiateAnswer = z.infer<typeof hubNegotiateAnswerSchema>;

/** GET {hub}?id=... upgrades to the WebSocket transport for the negotiated connection. */
export const hubConnectQuerySchema = z.object({ id: z.string().max(100) });
