import { describe, expect, it } from 'vitest';
import { createHubRegistry, type HubConnection, type HubName } from '../../../src/server/hubs/hub-sender';

function fake(id: string, userId: string, accountId: string | null, hub: HubName = 'notifications', session = 's') {
  const sent: string[] = [];
  const closes: { error?: string; allowReconnect?: boolean }[] = [];
  const connection: HubConnection = {
    id,
    hub,
    userId,
    accountId,
    sessionHash: session,
    send: (record) => sent.push(record),
    close: (error, allowReconnect) => closes.push({ error, allowReconnect }),
  };
  return { connection, sent, closes };
}

const invocation = (target: string, ...args: unknown[]) =>
  `${JSON.stringify({ type: 1, target, arguments: args })}\u001e`;

describe('hub registry', () => {
  it('sends to a user, an account or a connection, on the named hub only, encoded once', () => {
    const registry = createHubRegistry();
    const a1 = fake('a1', 'ann', 'acc1');
    const a2 = fake('a2', 'ann', 'acc1', 'chatbot');
    const b = fake('b', 'bob', 'acc1');
    const c = fake('c', 'cat', 'acc2');
    for (const f of [a1, a2, b, c]) registry.add(f.connection);
    expect(registry.count()).toBe(4);

    registry.toUser('notifications', 'ann', 'Ping', 1);
    expect(a1.sent).toEqual([invocation('Ping', 1)]);
    expect(a2.sent).toEqual([]);
    expect(b.sent).toEqual([]);

    registry.toAccount('notifications', 'acc1', 'Hello', { x: 1 });
    expect(b.sent).toEqual([invocation('Hello', { x: 1 })]);
    expect(c.sent).toEqual([]);
    // One string for the whole group.
    expect(a1.sent[1]).toBe(b.sent[0]);

    registry.toConnection('a2', 'Only');
    expect(a2.sent).toEqual([invocation('Only')]);
    registry.toUser('notifications', 'nobody', 'X');
    registry.toConnection('gone', 'X');
  });

  it('moves a user between account groups and forgets removed connections', () => {
    const registry = createHubRegistry();
    const a = fake('a', 'ann', 'acc1');
    const a2 = fake('a2', 'ann', null);
    registry.add(a.connection);
    registry.add(a2.connection);
    registry.moveUser('ann', 'acc2');
    registry.toAccount('notifications', 'acc1', 'Old');
    registry.toAccount('notifications', 'acc2', 'New');
    expect(a.sent).toEqual([invocation('New')]);
    expect(a2.sent).toEqual([invocation('New')]);
    registry.moveUser('ann', null);
    registry.toAccount('notifications', 'acc2', 'After');
    expect(a.sent).toHaveLength(1);

    registry.remove('a');
    registry.remove('a');
    expect(registry.count()).toBe(1);
    registry.toUser('notifications', 'ann', 'Left');
    expect(a.sent).toHaveLength(1);
    expect(a2.sent).toHaveLength(2);
  });

  it('closes by session, by user, and all (the last telling clients to reconnect)', () => {
    const registry = createHubRegistry();
    const s1 = fake('1', 'ann', 'acc', 'notifications', 'session-1');
    const s2 = fake('2', 'ann', 'acc', 'notifications', 'session-2');
    const bob = fake('3', 'bob', 'acc', 'notifications', 'session-3');
    for (const f of [s1, s2, bob]) registry.add(f.connection);
    registry.closeSession('session-1', 'Signed out.');
    expect(s1.closes).toEqual([{ error: 'Signed out.', allowReconnect: undefined }]);
    expect(s2.closes).toEqual([]);
    registry.closeUser('ann', 'Signed out.');
    expect(s2.closes).toHaveLength(1);
    expect(bob.closes).toEqual([]);
    registry.closeAll();
    expect(bob.closes).toEqual([{ error: undefined, allowReconnect: true }]);
  });
});
