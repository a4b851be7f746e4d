/**
 * Send e-mail: to members of the account and/or typed addresses, subject and body with
 * placeholders, a file (e.g. {{steps.<export>.fileId}}) attached or linked, through deps.mailer
 * (SMTP_URL, or the outbox without one).
 *
 * At most once: the mail's Message-ID is derived from the step's idempotency key and the send is
 * recorded through env.once. A resumed step whose send finished reuses the saved result; a Started
 * without Done (the server died while sending) is NOT sent again (the mail may have left: a
 * duplicate is worse than a miss for people's inboxes), and a WARN says it may have been sent.
 *
 * 'Skip when empty': with it on, the step does nothing when its row count input is 0 or no file
 * is given; its output is then `{ skipped: true, reason }`, which the runner shows as the step
 * status Skipped (SKIPPED_OUTPUT below).
 */
import type { InputOption, InputValue, StepPreview } from '../../../../shared/automations';
import type { FileInfo } from '../../../../shared/files';
import { filePaths } from '../../../../shared/files';
import { AppError } from '../../../errors';
import type { Mail, MailAttachment } from '../../../mail/mailer';
import { configError, transientError } from '../step-errors';
import type { ResolvedStep, StepEnv, StepKindDefinition, StepRunEnv } from '../step-kind';
import { booleanInput, clip, listInput, numberInput, textInput } from './step-inputs';

/** A step output with `skipped: true` means the step had nothing to do: status Skipped, not Completed. */
export const SKIPPED_OUTPUT = 'skipped';
/** Larger files are linked, not attached (mail servers refuse big messages). */
export const MAX_ATTACHMENT_BYTES = 10 * 1_048_576;
const MAX_RECIPIENTS = 100;
const ADDRESS = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;

export const FILE_MODES = ['attach', 'link'] as const;

interface PlannedMail {
  recipients: string[];
  subject: string;
  text: string;
  file: FileInfo | null;
  mode: 'attach' | 'link';
  /** Set when the step has nothing to do. */
  skip: string | null;
}

/** The account's members: value = user id, label = name and address. */
async function members(env: StepEnv): Promise<{ id: string; name: string; email: string }[]> {
  return env.deps.db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id', 'users.name', 'users.email'])
    .where('memberships.account_id', '=', env.ctx.accountId)
    .orderBy('users.email')
    .execute();
}

async function recipientsOf(env: StepEnv, step: ResolvedStep): Promise<string[]> {
  const memberIds = listInput(step.inputs, 'to');
  const known = memberIds.length > 0 ? await members(env) : [];
  const found: string[] = [];
  for (const id of memberIds) {
    const member = known.find((m) => m.id === id);
    if (!member) throw configError('A chosen recipient is no longer a member of this account.');
    found.push(member.email);
  }
  for (const address of listInput(step.inputs, 'addresses').flatMap((a) => a.split(/[\s;]+/))) {
    if (address === '') continue;
    if (!ADDRESS.test(address)) throw configError(`'${clip(address, 80)}' is not an e-mail address.`);
    found.push(address);
  }
  const unique = [...new Map(found.map((a) => [a.toLowerCase(), a])).values()];
  if (unique.length === 0) throw configError('Choose at least one recipient.');
  if (unique.length > MAX_RECIPIENTS) throw configError(`At most ${MAX_RECIPIENTS} recipients.`);
  return unique;
}

async function fileOf(env: StepEnv, id: string): Promise<FileInfo> {
  try {
    return await env.services.files.get(env.ctx, id);
  } catch (error) {
    if (error instanceof AppError && error.kind === 'NotFound') throw configError('The file to send was not found.');
    throw error;
  }
}

async function plan(env: StepEnv, step: ResolvedStep): Promise<PlannedMail> {
  const skipWhenEmpty = booleanInput(step.inputs, 'skipWhenEmpty');
  const fileId = textInput(step.inputs, 'fileId');
  const mode = textInput(step.inputs, 'fileMode') === 'link' ? 'link' : 'attach';
  const rowCount = numberInput(step.inputs, 'rowCount');
  let skip: string | null = null;
  if (skipWhenEmpty && rowCount === 0) skip = 'The row count is 0.';
  if (skipWhenEmpty && step.inputs.fileId !== undefined && fileId === '') skip ??= 'There is no file to send.';
  const subject = textInput(step.inputs, 'subject').replace(/[\r\n]+/g, ' ');
  if (subject === '') throw configError('Subject is required.');
  const text = typeof step.inputs.body === 'string' ? step.inputs.body : textInput(step.inputs, 'body');
  const recipients = await recipientsOf(env, step);
  const file = fileId === '' || skip ? null : await fileOf(env, fileId);
  return { recipients, subject, text, file, mode, skip };
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The text as simple HTML: escaped, line breaks kept, addresses made links. */
function htmlOf(text: string): string {
  const body = escapeHtml(text)
    .replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`)
    .replace(/\r?\n/g, '<br>\n');
  return `<!doctype html><html><body><p>${body}</p></body></html>`;
}

/** Where a linked file is opened: its public link when it has one, else its page (members sign in). */
function fileLink(env: StepEnv, file: FileInfo): string {
  return file.downloadUrl ?? `${env.deps.config.publicUrl}${filePaths.privatePage(file.id)}`;
}

/** `<run.step.attempt@host>`: the idempotency key in a Message-ID's allowed characters. */
export function messageIdOf(key: string, publicUrl: string): string {
  const host = new URL(publicUrl).hostname || 'localhost';
  return `<${key.replace(/[^A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]/g, '.')}@${host}>`;
}

async function readAll(stream: AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    signal.throwIfAborted();
    size += chunk.length;
    if (size > MAX_ATTACHMENT_BYTES)
      throw configError('The file is larger than 10 MB: link it instead of attaching it.');
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

async function buildMail(env: StepRunEnv, planned: PlannedMail, messageId: string): Promise<Mail> {
  let text = planned.text;
  const attachments: MailAttachment[] = [];
  const file = planned.file;
  if (file) {
    if (file.status === 'Pending') throw transientError(`The file '${file.name}' is not ready yet.`);
    if (file.status !== 'Ready') throw configError(`The file '${file.name}' failed: ${file.error ?? 'no contents'}.`);
    if (planned.mode === 'link') {
      text = `${text}\n\n${file.name}: ${fileLink(env, file)}`;
    } else {
      if ((file.fileSize ?? 0) > MAX_ATTACHMENT_BYTES)
        throw configError('The file is larger than 10 MB: link it instead of attaching it.');
      const download = await env.services.files.download(env.ctx, file.id);
      try {
        attachments.push({
          filename: file.name,
          contentType: file.contentType,
          content: await readAll(download.stream, env.signal),
        });
      } finally {
        download.stream.destroy();
      }
    }
  }
  return {
    to: planned.recipients.join(', '),
    subject: planned.subject,
    text,
    html: htmlOf(text),
    messageId,
    replyTo: env.ctx.user.email,
    ...(attachments.length > 0 ? { attachments } : {}),
  };
}

/** SMTP failures in their retry class: a server's 5xx refusal is the configuration's, the rest may clear. */
function mailFailure(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof AppError || error.name === 'StepError') return error;
  const { responseCode, code } = error as Error & { responseCode?: number; code?: string };
  if (typeof responseCode === 'number' && responseCode >= 500)
    return configError(`The mail server refused the e-mail (SMTP ${responseCode}).`);
  if (typeof responseCode === 'number' || typeof code === 'string')
    return transientError(
      `The mail server could not be reached or did not accept the e-mail now (${code ?? responseCode}).`,
    );
  return error;
}

export const sendEmailStep: StepKindDefinition = {
  kind: 'SendEmail',
  label: 'Send e-mail',
  description: 'Sends an e-mail to members or addresses, with a file attached or linked; never sent twice.',
  integrationConnectors: null,
  inputs: [
    { name: 'to', label: 'Members', type: 'multiselect', required: false },
    {
      name: 'addresses',
      label: 'Addresses',
      description: 'Other addresses, separated by commas',
      type: 'template',
      required: false,
    },
    { name: 'subject', label: 'Subject', type: 'template', required: true },
    { name: 'body', label: 'Body', type: 'template', required: false },
    {
      name: 'fileId',
      label: 'File',
      description: 'e.g. the file of an Export report step',
      type: 'template',
      required: false,
    },
    { name: 'fileMode', label: 'Attach or link the file', type: 'select', required: false, default: 'attach' },
    {
      name: 'rowCount',
      label: 'Row count',
      description: "e.g. a Check data step's row count; with 'Skip when empty', 0 skips the e-mail",
      type: 'template',
      required: false,
    },
    {
      name: 'skipWhenEmpty',
      label: 'Skip when empty',
      description: 'Send nothing when the row count is 0 or there is no file',
      type: 'boolean',
      required: false,
      default: false,
    },
  ],
  outputs: [
    { name: 'messageId', label: 'Message-ID' },
    { name: 'recipients', label: 'Number of recipients' },
    { name: SKIPPED_OUTPUT, label: 'Skipped' },
  ],
  sideEffects: true,

  async inputOptions(env) {
    const to: InputOption[] = (await members(env)).map((m) => ({
      value: m.id,
      label: m.name ? `${m.name} <${m.email}>` : m.email,
    }));
    const fileMode: InputOption[] = [
      { value: 'attach', label: 'Attach the file' },
      { value: 'link', label: 'Link to the file' },
    ];
    return { to, fileMode };
  },

  validate(step) {
    const to = step.inputs.to;
    const addresses = step.inputs.addresses;
    const hasMembers = Array.isArray(to) ? to.length > 0 : typeof to === 'string' && to.trim() !== '';
    const hasAddresses = typeof addresses === 'string' && addresses.trim() !== '';
    if (!hasMembers && !hasAddresses) return 'Choose at least one recipient.';
    if (hasAddresses && !(addresses as string).includes('{{')) {
      for (const address of (addresses as string).split(/[\s,;]+/).filter((a) => a !== ''))
        if (!ADDRESS.test(address)) return `'${clip(address, 80)}' is not an e-mail address.`;
    }
    if (typeof step.inputs.subject !== 'string' || step.inputs.subject.trim() === '') return 'Subject is required.';
    const mode = step.inputs.fileMode;
    if (mode !== undefined && mode !== null && mode !== '' && !(FILE_MODES as readonly InputValue[]).includes(mode))
      return 'Choose whether the file is attached or linked.';
    return null;
  },

  async preview(env, step): Promise<StepPreview> {
    const planned = await plan(env, step);
    const file = planned.file;
    return {
      summary: planned.skip
        ? `Would be skipped: ${planned.skip}`
        : `E-mail '${planned.subject}' to ${planned.recipients.length} ${planned.recipients.length === 1 ? 'recipient' : 'recipients'}`,
      details: {
        to: planned.recipients,
        subject: planned.subject,
        body: clip(planned.text, 10_000),
        file: file ? `${file.name} (${planned.mode === 'link' ? fileLink(env, file) : 'attached'})` : null,
      },
    };
  },

  async run(env, step): Promise<Record<string, InputValue>> {
    const planned = await plan(env, step);
    if (planned.skip) {
      await env.log('INFO', `Skipped: ${planned.skip}`);
      return { [SKIPPED_OUTPUT]: true, reason: planned.skip, messageId: null, recipients: 0 };
    }
    env.signal.throwIfAborted();
    const messageId = messageIdOf(env.idempotencyKey, env.deps.config.publicUrl);
    // Built (file read) before the effect is recorded: a failure here sends nothing.
    const mail = await buildMail(env, planned, messageId);
    env.signal.throwIfAborted();
    const result = await env.once(`${env.idempotencyKey}:mail`, async () => {
      try {
        // Not aborted once started: an SMTP transaction cut midway leaves it unknown whether it was sent.
        await env.deps.mailer.send(mail);
      } catch (error) {
        throw mailFailure(error);
      }
      return { [SKIPPED_OUTPUT]: false, messageId, recipients: planned.recipients.length };
    });
    if (!result.done) {
      await env.log(
        'WARN',
        `The server stopped while this e-mail was being sent: it may have been sent, and is not sent again (Message-ID ${messageId}).`,
      );
      return { [SKIPPED_OUTPUT]: false, messageId, recipients: planned.recipients.length, uncertain: true };
    }
    if (result.repeated)
      await env.log('INFO', `The e-mail was sent before the server restarted (Message-ID ${messageId}).`);
    else await env.log('INFO', `Sent '${clip(planned.subject, 100)}' to ${planned.recipients.join(', ')}`);
    return result.result;
  },
};
