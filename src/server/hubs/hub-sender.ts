/**
 * The one server-side API every area uses to push live events (spec: hubs under /api/hubs/*).
 * Areas never touch sockets: they name a hub, a group (a user or an account) or one connection,
 * the client method (e.g. 'ReceiveNotification') and its arguments. The client receives them with
 * `useHubEvent(hub, target, handler)` (src/client/lib/hub.ts).
 */
import type { HUB_PATHS } from '../../shared/hubs';
import { invocationRecord } from './protocol';

/** notifications, automations, chatbot: each served at HUB_PATHS[name]. */
export type HubName = keyof typeof HUB_PATHS;

export interface HubSender {
  /** Every connection of this user on this hub, whichever account it is in. */
  toUser(hub: HubName, userId: string, target: string, ...args: unknown[]): void;
  /** Every connection on this hub whose current account is accountId. */
  toAccount(hub: HubName, accountId: string, target: string, ...args: unknown[]): void;
  /** One connection, e.g. the one that invoked a hub method. */
  toConnection(connectionId: string, target: string, ...args: unknown[]): void;
}

/** A live connection as the registry sees it; the transport (hubs/transport.ts) creates them. */
export interface HubConnection {
  id: string;
  hub: HubName;
  userId: string;
  /** The account the connection's session is in; null before one is chosen. */
  accountId: string | null;
  /** The hash of the session token it authenticated with, so signing that session out closes it. */
  sessionHash: string;
  /** Sends one encoded record; a slow or closed socket is the transport's concern. */
  send(record: string): void;
  /** Sends a close message (with the error, when given) and closes the socket. */
  close(error?: string, allowReconnect?: boolean): void;
}

export interface HubRegistry extends HubSender {
  add(connection: HubConnection): void;
  remove(connectionId: string): void;
  /** The user's current account changed (it is per user): every connection moves to its group. */
  moveUser(userId: string, accountId: string | null): void;
  /** A signed-out session's connections close and do not reconnect. */
  closeSession(sessionHash: string, error: string): void;
  /** Every session of the user was revoked. */
  closeUser(userId: string, error: string): void;
  /** Server shutdown: clients are told to reconnect (to the restarted server). */
  closeAll(): void;
  count(): number;
}

/** Groups by user and by account, kept as sets so a send touches only its group's connections. */
export function createHubRegistry(): HubRegistry {
  const byId = new Map<string, HubConnection>();
  const byUser = new Map<string, Set<HubConnection>>();
  const byAccount = new Map<string, Set<HubConnection>>();

  const join = (groups: Map<string, Set<HubConnection>>, key: string, c: HubConnection) => {
    let set = groups.get(key);
    if (!set) groups.set(key, (set = new Set()));
    set.add(c);
  };
  const leave = (groups: Map<string, Set<HubConnection>>, key: string, c: HubConnection) => {
    const set = groups.get(key);
    if (!set) return;
    set.delete(c);
    if (set.size === 0) groups.delete(key);
  };
  const sendTo = (set: Set<HubConnection> | undefined, hub: HubName, target: string, args: unknown[]) => {
    if (!set) return;
    // Encoded once for the whole group, not once per connection.
    let record: string | null = null;
    for (const c of set) {
      if (c.hub !== hub) continue;
      record ??= invocationRecord(target, args);
      c.send(record);
    }
  };
  // Closing removes from the sets being walked, so walk a copy.
  const closeEach = (connections: Iterable<HubConnection>, close: (c: HubConnection) => void) => {
    for (const c of [...connections]) close(c);
  };

  return {
    add(c) {
      byId.set(c.id, c);
      join(byUser, c.userId, c);
      if (c.accountId) join(byAccount, c.accountId, c);
    },
    remove(id) {
      const c = byId.get(id);
      if (!c) return;
      byId.delete(id);
      leave(byUser, c.userId, c);
      if (c.accountId) leave(byAccount, c.accountId, c);
    },
    moveUser(userId, accountId) {
      for (const c of byUser.get(userId) ?? []) {
        if (c.accountId) leave(byAccount, c.accountId, c);
        c.accountId = accountId;
        if (accountId) join(byAccount, accountId, c);
      }
    },
    closeSession(sessionHash, error) {
      closeEach(byId.values(), (c) => {
        if (c.sessionHash === sessionHash) c.close(error);
      });
    },
    closeUser(userId, error) {
      closeEach(byUser.get(userId) ?? [], (c) => c.close(error));
    },
    closeAll() {
      closeEach(byId.values(), (c) => c.close(undefined, true));
    },
    count: () => byId.size,
    toUser: (hub, userId, target, ...args) => sendTo(byUser.get(userId), hub, target, args),
    toAccount: (hub, accountId, target, ...args) => sendTo(byAccount.get(accountId), hub, target, args),
    toConnection(id, target, ...args) {
      byId.get(id)?.send(invocationRecord(target, args));
    },
  };
}
