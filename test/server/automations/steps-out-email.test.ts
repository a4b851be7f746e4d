/**
 * The Send e-mail step against a real SMTP server (smtp-server, SMTP_URL set in the app's config)
 * and in outbox mode: recipients, subject and body, the file attached or linked, the Message-ID
 * from the idempotency key, never sent twice after a crash, 'skip when empty', failure classes.
 */
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyStepError } from '../../../src/server/modules/automations/step-errors';
import { messageIdOf } from '../../../src/server/modules/automations/steps/send-email';
import { call, cookieFrom, makeApp, readOutbox, signIn, type TestApp } from '../helpers';
import { startSmtp, type SmtpPeer } from '../integrations/peers/smtp';
import { kindOf, leaveStarted, sideEffects, stepHarness } from './steps-out-helpers';

const OWNER = 'owner@example.com';
const CSV = 'region,total\nNorth,12\nSouth,30\n';

let smtp: SmtpPeer | undefined;
afterEach(async () => {
  await smtp?.close();
  smtp = undefined;
});

/** Signs in with the login link the SMTP server received. */
async function signInOverSmtp(t: TestApp, peer: SmtpPeer, email: string): Promise<string> {
  const before = peer.received.length;
  expect((await call(t.server, 'POST', '/api/login', { body: { email } })).status).toBe(200);
  await expect.poll(() => peer.received.length).toBe(before + 1);
  const text = peer.received.at(-1)?.parsed.text ?? '';
  const token = /\/confirm\?token=([\w-]+)/.exec(text)?.[1];
  if (!token) throw new Error('No login link in the mail');
  return cookieFrom(await call(t.server, 'POST', '/api/confirm', { body: { token } }));
}

async function report(t: TestApp, accountId: string, name = 'Sales.csv'): Promise<string> {
  const { id } = await t.services.files.createReport({
    accountId,
    userId: null,
    name,
    contentType: 'text/csv',
    originEntityType: 'Automation',
    originEntityTypeId: null,
  });
  await t.services.files.completeReport(id, Readable.from([Buffer.from(CSV)]));
  return id;
}

const email = kindOf('SendEmail');

describe('Send e-mail step', () => {
  it('sends one e-mail over SMTP with the file attached, its Message-ID from the key, never twice', async () => {
    smtp = await startSmtp();
    const t = await makeApp({ SMTP_URL: smtp.url });
    await signInOverSmtp(t, smtp, OWNER);
    const harness = await stepHarness(t, OWNER);
    const accountId = harness.previewEnv.ctx.accountId;
    const fileId = await report(t, accountId);
    const options = await email.inputOptions(harness.previewEnv, harness.step('SendEmail', {}));
    const owner = options.to?.find((o) => o.label.includes(OWNER));
    expect(owner).toBeDefined();
    const step = harness.step('SendEmail', {
      to: [owner!.value],
      addresses: 'partner@example.org',
      subject: 'Sales for run 7',
      body: 'Hello,\nthe sales are attached.',
      fileId,
      fileMode: 'attach',
    });
    expect(email.validate(step)).toBeNull();

    // The preview shows who would get what, and sends nothing.
    const sentBefore = smtp.received.length;
    const preview = await email.preview(harness.previewEnv, step);
    expect(preview.details).toMatchObject({
      to: [OWNER, 'partner@example.org'],
      subject: 'Sales for run 7',
      body: 'Hello,\nthe sales are attached.',
      file: 'Sales.csv (attached)',
    });
    expect(smtp.received.length).toBe(sentBefore);

    const env = harness.env();
    const output = await email.run(env, step);
    const messageId = messageIdOf(env.idempotencyKey, 'http://localhost:3000');
    expect(output).toEqual({ skipped: false, messageId, recipients: 2 });
    expect(messageId).toBe(`<${harness.runId}.step1.1@localhost>`);
    await expect.poll(() => smtp!.received.length).toBe(sentBefore + 1);
    const mail = smtp.received.at(-1)!;
    expect(mail.rcptTo.sort()).toEqual([OWNER, 'partner@example.org']);
    expect(mail.parsed.subject).toBe('Sales for run 7');
    expect(mail.parsed.messageId).toBe(messageId);
    expect(mail.parsed.replyTo?.[0]?.address).toBe(OWNER);
    expect(mail.parsed.text).toContain('the sales are attached.');
    expect(mail.parsed.attachments.map((a) => a.filename)).toEqual(['Sales.csv']);
    const content = mail.parsed.attachments[0]!.content;
    expect(typeof content === 'string' ? content : Buffer.from(content as ArrayBuffer).toString('utf8')).toBe(CSV);

    // The server died after the send, before the output was saved: the resumed step sends nothing.
    const resumed = harness.env();
    expect(await email.run(resumed, step)).toEqual(output);
    expect(resumed.logs.join('\n')).toContain('was sent before the server restarted');

    // Attempt 2 died DURING the send (Started, no Done): not sent again, and a WARN says it may have been.
    const attempt2 = harness.env({ attempt: 2 });
    await leaveStarted(t, harness.runId, `${attempt2.idempotencyKey}:mail`);
    const uncertain = await email.run(attempt2, step);
    expect(uncertain).toMatchObject({ uncertain: true, skipped: false });
    expect(attempt2.logs.join('\n')).toMatch(/^WARN .*may have been sent, and is not sent again/m);
    expect(smtp.received.length).toBe(sentBefore + 1);
    expect(await sideEffects(t, harness.runId)).toEqual([
      { key: `${harness.runId}:step1:1:mail`, state: 'Done' },
      { key: `${harness.runId}:step1:2:mail`, state: 'Started' },
    ]);
  });

  it('a refused recipient is a ConfigError, an unreachable mail server a TransientError', async () => {
    smtp = await startSmtp();
    const t = await makeApp({ SMTP_URL: smtp.url });
    await signInOverSmtp(t, smtp, OWNER);
    const harness = await stepHarness(t, OWNER);
    const step = harness.step('SendEmail', { addresses: 'nobody@example.org', subject: 'Hi', body: 'x' });
    smtp.refuse.add('nobody@example.org');
    const refused = await email.run(harness.env(), step).then(
      () => null,
      (error: unknown) => classifyStepError(error),
    );
    expect(refused).toMatchObject({ type: 'ConfigError' });
    expect(refused?.message).toContain('SMTP 550');
    // A failed send leaves no record: a retry (a new attempt) may send.
    expect(await sideEffects(t, harness.runId)).toEqual([]);

    await smtp.close();
    smtp = undefined;
    const down = await email.run(harness.env({ attempt: 2 }), step).then(
      () => null,
      (error: unknown) => classifyStepError(error),
    );
    expect(down).toMatchObject({ type: 'TransientError' });
  });

  it('skips when empty, links the file, and works in outbox mode', async () => {
    const t = await makeApp();
    await signIn(t, OWNER);
    const harness = await stepHarness(t, OWNER);
    const accountId = harness.previewEnv.ctx.accountId;
    const fileId = await report(t, accountId, 'Orders.csv');
    const base = { addresses: 'team@example.org', subject: 'Orders', body: 'See the orders.' };

    // A row count of 0 (e.g. {{steps.check.rowCount}}), or no file: skipped, nothing sent.
    const before = readOutbox(t.dataDir).length;
    const noRows = await email.run(
      harness.env(),
      harness.step('SendEmail', { ...base, rowCount: 0, fileId, skipWhenEmpty: true }),
    );
    expect(noRows).toMatchObject({ skipped: true, reason: 'The row count is 0.' });
    const noFile = await email.run(
      harness.env(),
      harness.step('SendEmail', { ...base, fileId: '', skipWhenEmpty: true }),
    );
    expect(noFile).toMatchObject({ skipped: true, reason: 'There is no file to send.' });
    expect(
      (
        await email.preview(
          harness.previewEnv,
          harness.step('SendEmail', { ...base, rowCount: 0, skipWhenEmpty: true }),
        )
      ).summary,
    ).toBe('Would be skipped: The row count is 0.');
    expect(readOutbox(t.dataDir).length).toBe(before);
    // Without 'Skip when empty' a count of 0 is sent like any other.
    await email.run(harness.env({ attempt: 2 }), harness.step('SendEmail', { ...base, rowCount: 0 }));
    expect(readOutbox(t.dataDir).length).toBe(before + 1);

    // Linked: the file's page (members sign in), or its public link once shared.
    await email.run(harness.env({ attempt: 3 }), harness.step('SendEmail', { ...base, fileId, fileMode: 'link' }));
    expect(readOutbox(t.dataDir).at(-1)?.text).toContain(`Orders.csv: http://localhost:3000/files/${fileId}`);
    const shared = await t.services.files.share(harness.previewEnv.ctx, fileId, { expiresAt: null });
    await email.run(harness.env({ attempt: 4 }), harness.step('SendEmail', { ...base, fileId, fileMode: 'link' }));
    expect(readOutbox(t.dataDir).at(-1)?.text).toContain(`Orders.csv: ${shared.downloadUrl}`);

    // Attached in outbox mode: the outbox line names the attachment and the Message-ID.
    const env = harness.env({ attempt: 5 });
    await email.run(env, harness.step('SendEmail', { ...base, fileId }));
    const line = readOutbox(t.dataDir).at(-1) as unknown as Record<string, unknown>;
    expect(line).toMatchObject({
      to: 'team@example.org',
      messageId: `<${env.idempotencyKey.replaceAll(':', '.')}@localhost>`,
      attachments: [{ filename: 'Orders.csv', contentType: 'text/csv', size: CSV.length }],
    });
  });

  it('validates its inputs', () => {
    const check = (inputs: Record<string, unknown>) =>
      email.validate({ id: 's', name: 'e', kind: 'SendEmail', integrationId: null, inputs: inputs as never });
    expect(check({ subject: 'x' })).toBe('Choose at least one recipient.');
    expect(check({ addresses: 'not-an-address', subject: 'x' })).toContain('is not an e-mail address');
    expect(check({ addresses: '{{trigger.email}}', subject: 'x' })).toBeNull();
    expect(check({ to: ['u1'], subject: '' })).toBe('Subject is required.');
    expect(check({ to: ['u1'], subject: 'x', fileMode: 'fax' })).toContain('attached or linked');
  });
});
