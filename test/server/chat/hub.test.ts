/**
 * The chatbot hub spoken to with the official client (@microsoft/signalr): StartConversation and
 * SendMessage in the caller's current account; status updates arrive before the reply; the
 * conversation is kept and listed; bad input, someone else's conversation, a second question
 * while one is answered and too many questions are refused with a message.
 */
import type { HubConnection } from '@microsoft/signalr';
import { describe, expect, it } from 'vitest';
import { CHAT_MESSAGES, chatMessageSchema, type ChatMessage, type Conversation } from '../../../src/shared/chat';
import { addMember, call, makeTeam, me, signIn, trpcQuery, type TrpcData } from '../helpers';
import { hubClient, startHubApp, type HubApp } from '../hubs/helpers';
import { tableFromCsv } from '../static-tables/helpers';

const ORDERS_CSV = 'order_id,customer,country,amount\n1,Ann,France,10\n2,Bob,Spain,20\n3,Cid,France,30\n';

async function chatbot(t: HubApp, cookie: string): Promise<HubConnection> {
  const c = hubClient(t.base, 'chatbot', cookie);
  await c.start();
  return c;
}

/** Everything the connection receives, in order, as [target, payload]. */
function record(c: HubConnection): [string, unknown][] {
  const seen: [string, unknown][] = [];
  c.on('ReceiveMessageStatusUpdate', (p: unknown) => seen.push(['status', p]));
  c.on('ReceiveMessage', (p: unknown) => seen.push(['message', p]));
  return seen;
}

async function replyTo(seen: [string, unknown][], count: number): Promise<ChatMessage> {
  await expect.poll(() => seen.filter(([k]) => k === 'message').length, { timeout: 30_000 }).toBe(count);
  const last = seen.filter(([k]) => k === 'message').at(-1)?.[1];
  return chatMessageSchema.parse(last);
}

describe('chatbot hub', () => {
  it('answers a question with status updates, then the Chat message, kept in a conversation listed for reopening', async () => {
    const t = await startHubApp();
    const team = await makeTeam(t);
    await tableFromCsv(t, team.owner.cookie, ORDERS_CSV, 'orders');
    const c = await chatbot(t, team.owner.cookie);
    const seen = record(c);

    const conversationId = await c.invoke<string>('StartConversation');
    expect(conversationId).toEqual(expect.any(String));
    const question = chatMessageSchema.parse(await c.invoke('SendMessage', conversationId, 'how many orders'));
    expect(question).toMatchObject({ from: 'User', text: 'how many orders', conversationId, data: null });

    const reply = await replyTo(seen, 1);
    // Every status came before the reply, each naming the conversation.
    const kinds = seen.map(([k]) => k);
    expect(kinds.at(-1)).toBe('message');
    expect(kinds.filter((k) => k === 'status').length).toBeGreaterThan(0);
    for (const [kind, payload] of seen.slice(0, -1)) {
      expect(kind).toBe('status');
      expect(payload).toEqual({ conversationId, status: expect.stringMatching(/\S/) });
    }
    expect(seen.map(([, p]) => (p as { status?: string }).status)).toContain('Running query');
    expect(reply).toMatchObject({ from: 'Bot', conversationId, suggestedActions: [] });
    expect(reply.text).not.toBe('');
    expect(reply.reading).toEqual(expect.stringMatching(/orders/i));
    expect(reply.sql).toEqual(expect.stringMatching(/select/i));
    const data = reply.data?.data;
    expect(data?.rowCount).toBe(1);
    expect(data?.rows).toEqual([[3]]);
    expect(data?.queryId).toEqual(expect.any(String));

    // Kept: listed (named after its first question) and reopened with both messages, result included.
    const listed = await trpcQuery<TrpcData<Conversation[]>>(t, 'chat.conversations', undefined, team.owner.cookie);
    expect(listed.body.result.data).toEqual([
      expect.objectContaining({ id: conversationId, title: 'how many orders', messageCount: 2 }),
    ]);
    const messages = await trpcQuery<TrpcData<ChatMessage[]>>(
      t,
      'chat.messages',
      { id: conversationId },
      team.owner.cookie,
    );
    expect(messages.body.result.data).toEqual([question, reply]);
    const rest = await call<ChatMessage[]>(t.server, 'GET', `/api/chat/conversations/${conversationId}/messages`, {
      cookie: team.owner.cookie,
    });
    expect(rest.body).toEqual([question, reply]);

    // Another member of the same account sees neither the conversation nor its messages.
    const others = await call<Conversation[]>(t.server, 'GET', '/api/chat/conversations', {
      cookie: team.admin.cookie,
    });
    expect(others.body).toEqual([]);
    const hidden = await call(t.server, 'GET', `/api/chat/conversations/${conversationId}/messages`, {
      cookie: team.admin.cookie,
    });
    expect(hidden.status).toBe(404);
  });

  it("refuses bad input, someone else's conversation, a second question while one is answered, and too many", async () => {
    const t = await startHubApp({ env: { SIGNUP: 'open', CHAT_MESSAGES_PER_MINUTE: '4' } });
    const team = await makeTeam(t);
    await tableFromCsv(t, team.owner.cookie, ORDERS_CSV, 'orders');
    const owner = await chatbot(t, team.owner.cookie);
    const id = await owner.invoke<string>('StartConversation', 'Sales');

    await expect(owner.invoke('SendMessage', id, '   ')).rejects.toThrow(CHAT_MESSAGES.emptyQuestion);
    await expect(owner.invoke('SendMessage', id, 'x'.repeat(1_001))).rejects.toThrow(CHAT_MESSAGES.questionTooLong);
    await expect(owner.invoke('SendMessage', id)).rejects.toThrow('Call SendMessage(conversationId, text).');
    await expect(owner.invoke('SendMessage', 42, 'how many orders')).rejects.toThrow();
    await expect(owner.invoke('SendMessage', 'no-such-id', 'how many orders')).rejects.toThrow(
      CHAT_MESSAGES.conversationNotFound,
    );
    await expect(owner.invoke('StartConversation', 'x'.repeat(201))).rejects.toThrow(CHAT_MESSAGES.titleTooLong);

    // Another account's user (and another member of this one) cannot ask in it.
    const outsider = await chatbot(t, await signIn(t, 'outsider@example.com'));
    await expect(outsider.invoke('SendMessage', id, 'how many orders')).rejects.toThrow(
      CHAT_MESSAGES.conversationNotFound,
    );
    const admin = await chatbot(t, team.admin.cookie);
    await expect(admin.invoke('SendMessage', id, 'how many orders')).rejects.toThrow(
      CHAT_MESSAGES.conversationNotFound,
    );

    // One question at a time per conversation.
    const first = owner.invoke('SendMessage', id, 'how many orders');
    const second = owner.invoke('SendMessage', id, 'how many orders');
    await expect(second).rejects.toThrow(CHAT_MESSAGES.busy);
    await first;

    // The limit counts questions per user per minute: 1 asked so far, 4 allowed.
    for (let i = 0; i < 3; i += 1) await owner.invoke('SendMessage', id, 'how many orders');
    await expect(owner.invoke('SendMessage', id, 'how many orders')).rejects.toThrow(CHAT_MESSAGES.tooMany);
    t.clock.advance(61_000);
    await owner.invoke('SendMessage', id, 'how many orders');
  });

  it("works in the caller's current account: after a switch, the other account's conversations are out of reach", async () => {
    const t = await startHubApp({ env: { SIGNUP: 'open' } });
    const team = await makeTeam(t);
    await tableFromCsv(t, team.owner.cookie, ORDERS_CSV, 'orders');
    // Carl has his own account and is an admin of the team's, which is current after the invitation.
    const carlOwn = (await me(t, await signIn(t, 'carl@example.com'))).currentAccountId ?? '';
    const carl = await addMember(t, team.owner.cookie, 'carl@example.com', ['admin']);
    const c = await chatbot(t, carl.cookie);
    const seen = record(c);
    const inTeam = await c.invoke<string>('StartConversation', 'In the team');
    await c.invoke('SendMessage', inTeam, 'how many orders');
    expect((await replyTo(seen, 1)).data?.data.rows).toEqual([[3]]);

    const switched = await call(t.server, 'POST', '/api/switch', { cookie: carl.cookie, body: { accountId: carlOwn } });
    expect(switched.status).toBe(200);
    // The same open connection now asks in Carl's own account, which has no orders and not that conversation.
    await expect(c.invoke('SendMessage', inTeam, 'how many orders')).rejects.toThrow(
      CHAT_MESSAGES.conversationNotFound,
    );
    const own = await c.invoke<string>('StartConversation');
    await c.invoke('SendMessage', own, 'how many orders');
    expect((await replyTo(seen, 2)).data).toBeNull();
    const listed = await call<Conversation[]>(t.server, 'GET', '/api/chat/conversations', { cookie: carl.cookie });
    expect(listed.body.map((x) => x.id)).toEqual([own]);
  });
});
