import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface OutboxEntry extends Mail {
  sentAt: string;
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

/** The links of a mail, each on a line under who it is for: what the console shows without SMTP. */
export function consoleLinesOf(mail: Mail): string {
  const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
  return [`  Mail to ${mail.to}: ${mail.subject}`, ...links.map((link) => `    ${link}`)].join('\n');
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
      const entry: OutboxEntry = { ...mail, sentAt: clock().toISOString() };
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
