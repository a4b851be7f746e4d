import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface Mail {
  /** One address, or several separated by ', '. */
  to: string;
  subject: string;
  text: string;
  html: string;
  /** `<id@host>`: set by senders that must be recognisable as one message (automation e-mails). */
  messageId?: string;
  replyTo?: string;
  attachments?: MailAttachment[];
}

/** A mail as the outbox keeps it: attachments by name, type and size, not their bytes. */
export interface OutboxEntry extends Omit<Mail, 'attachments'> {
  sentAt: string;
  attachments?: { filename: string; contentType: string; size: number }[];
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export const OUTBOX_FILE = 'outbox.jsonl';

/** Sends through an SMTP server (SMTP_URL). */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}

/** The outbox line of a mail (attachments described, not carried). */
function outboxEntry(mail: Mail, sentAt: string): OutboxEntry {
  const { attachments, ...rest } = mail;
  return {
    ...rest,
    sentAt,
    ...(attachments
      ? {
          attachments: attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            size: a.content.length,
          })),
        }
      : {}),
  };
}

/** The links of a mail, each on a line under who it is for: what the console shows without SMTP. */
export function consoleLinesOf(mail: Mail): string {
  const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
  const attached = (mail.attachments ?? []).map((a) => `    (attached: ${a.filename})`);
  return [`  Mail to ${mail.to}: ${mail.subject}`, ...links.map((link) => `    ${link}`), ...attached].join('\n');
}

/**
 * Without SMTP every mail is appended as one JSON line to DATA_DIR/outbox.jsonl, so a first run
 * needs no mail server, and its links are handed to `print` (the server console) so the operator
 * can open the first sign-in link from there; /dev/outbox lists them to this machine only.
 */
export function outboxMailer(dataDir: string, clock: () => Date, print?: (text: string) => void): Mailer {
  const file = path.join(dataDir, OUTBOX_FILE);
  return {
    async send(mail) {
      const entry = outboxEntry(mail, clock().toISOString());
      await fs.promises.appendFile(file, `${JSON.stringify(entry)}\n`, 'utf8');
      print?.(consoleLinesOf(mail));
    },
  };
}

export async function readOutbox(dataDir: string): Promise<OutboxEntry[]> {
  const file = path.join(dataDir, OUTBOX_FILE);
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as OutboxEntry];
      } catch {
        return [];
      }
    });
}
