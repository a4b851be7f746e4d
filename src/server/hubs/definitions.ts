/**
 * A hub is a name (served at /api/hubs/{name}) and the server methods its clients may invoke.
 * Adding one is an entry in productHubs (e.g. chatbot: { StartConversation, SendMessage }).
 */
import type { Deps } from '../context';
import { chatbotHub } from '../modules/chat/hub';
import type { Services } from '../services';
import type { HubName } from './hub-sender';

/** Who invoked a method: its connection (reply with deps.hubs.toConnection) and its user. */
export interface HubCaller {
  connectionId: string;
  userId: string;
  /** The caller's current account when it invoked; null when it has none. */
  accountId: string | null;
}

/**
 * A server method. Arguments come straight from the client: parse them (zod) before use. The
 * value returned (or awaited) is the completion's result for a blocking invocation.
 */
export type HubMethod = (caller: HubCaller, args: unknown[]) => unknown;

export interface HubDefinition {
  name: HubName;
  /** Invoked by name, case-insensitively as in ASP.NET Core SignalR. */
  methods: Record<string, HubMethod>;
}

/**
 * Thrown by a method to send its message to the client as the completion's error; any other
 * error is logged and the client gets a generic message (as ASP.NET's HubException).
 */
export class HubError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HubError';
  }
}

/**
 * The product's hubs. Notifications and automations only push (ReceiveNotification; started,
 * completed...): no server methods; the chatbot answers questions (StartConversation, SendMessage).
 */
export function productHubs(deps: Deps, services: Services): HubDefinition[] {
  return [
    { name: 'notifications', methods: {} },
    { name: 'automations', methods: {} },
    chatbotHub(deps, services.chat),
  ];
}
