/**
 * The one server-side API every area uses to push live events (spec: hubs under /api/hubs/*).
 * Areas never touch sockets: they name a hub, a group (a user or an account) or one connection,
 * the client method (e.g. 'ReceiveNotification') and its arguments.
 */
export type HubName = 'notifications' | 'automations' | 'chatbot';

export interface HubSender {
  /** Every connection of this user on this hub, whichever account it is in. */
  toUser(hub: HubName, userId: string, target: string, ...args: unknown[]): void;
  /** Every connection on this hub whose current account is accountId. */
  toAccount(hub: HubName, accountId: string, target: string, ...args: unknown[]): void;
  /** One connection, e.g. the one that invoked a hub method. */
  toConnection(connectionId: string, target: string, ...args: unknown[]): void;
}

/** A live connection as the registry sees it; the transport (hubs/transport) creates them. */
export interface HubConnection {
  id: string;
  hub: HubName;
  userId: string;
  /** The account the connection's session is in; null before one is chosen. */
  accountId: string | null;
  /** Sends one invocation message; a slow or closed socket is the transport's concern. */
  invoke(target: string, args: unknown[]): void;
}

export interface HubRegistry extends HubSender {
  add(connection: HubConnection): void;
  remove(connectionId: string): void;
  /** An account switch moves the user's connections to the new account's group. */
  moveUser(userId: string, accountId: string | null): void;
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
    for (const c of set) if (c.hub === hub) c.invoke(target, args);
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
    count: () => byId.size,
    toUser: (hub, userId, target, ...args) => sendTo(byUser.get(userId), hub, target, args),
    toAccount: (hub, accountId, target, ...args) => sendTo(byAccount.get(accountId), hub, target, args),
    toConnection(id, target, ...args) {
      byId.get(id)?.invoke(target, args);
    },
  };
}
