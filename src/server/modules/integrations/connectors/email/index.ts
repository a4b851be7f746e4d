/**
 * The incoming e-mail listener: an SMTP server (plain SMTP, no AUTH or STARTTLS: it receives mail
 * relayed from the outside, like any MX) that accepts mail to `<integration address>@<domain>`
 * and hands each data attachment to `onAttachment` as a file in `dir` (CSV and Parquet kept,
 * JSON, XML and Avro converted to JSON lines; see attachments.ts). Other attachments are logged and
 * ignored. The files belong to the callback, which removes them once loaded.
 *
 * Unknown recipients (per `accepts`) get 550 at RCPT TO, so senders learn at once. A failing
 * callback answers 451 (try later), so the sending server retries instead of losing the data.
 */
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { datasetNameOf } from '../sftp/file-sets';
import type { LogLevel } from '../types';
import { attachmentKind, storeAttachment, type LoadFormat } from './attachments';

/** Attachment types that become datasets (the detail view lists them). */
export const EMAIL_ALLOWED_FILE_TYPES = ['csv', 'json', 'jsonl', 'xml', 'parquet', 'avro'] as const;

/** The definition has no user settings: each integration gets a generated address. */
export const emailSpecification = {
  documentationUrl: '',
  settings: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Incoming e-mail',
    type: 'object',
    required: [],
    properties: {},
  },
};

export interface EmailAttachment {
  /** The recipient's local part, lowercased: the integration's address. */
  address: string;
  /** The full recipient, e.g. sales-8f3a@in.example.com. */
  recipient: string;
  fileName: string;
  contentType: string;
  /** The stored file (converted to JSON lines for JSON, XML and Avro). */
  path: string;
  format: LoadFormat;
  /** The dataset this file feeds: the file name without extension and trailing date/number. */
  datasetName: string;
  rows?: number;
}

export interface EmailListenerOptions {
  port: number;
  host?: string;
  /** Only mail to this domain is accepted; any domain when absent. */
  domain?: string;
  /** Whether an address (local part, lowercased) belongs to an integration; all are accepted when absent. */
  accepts?(address: string): boolean | Promise<boolean>;
  onAttachment(attachment: EmailAttachment): void | Promise<void>;
  /** `address` is set for lines about one integration's mail. */
  log(level: LogLevel, message: string, address?: string): void;
  /** Where attachments are written; default: a folder in the OS temp dir. */
  dir?: string;
  maxMessageBytes?: number;
}

export interface EmailListener {
  port: number;
  close(): Promise<void>;
}

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

function splitRecipient(recipient: string): { address: string; domain: string } {
  const at = recipient.lastIndexOf('@');
  return {
    address: (at < 0 ? recipient : recipient.slice(0, at)).toLowerCase(),
    domain: at < 0 ? '' : recipient.slice(at + 1).toLowerCase(),
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

export async function startEmailListener(options: EmailListenerOptions): Promise<EmailListener> {
  const dir = options.dir ?? path.join(os.tmpdir(), 'workspace-email-attachments');
  await mkdir(dir, { recursive: true });
  const { log } = options;

  const deliver = async (message: Buffer, recipients: string[]) => {
    const email = await PostalMime.parse(message, { attachmentEncoding: 'arraybuffer' });
    const subject = email.subject ? ` "${email.subject}"` : '';
    for (const recipient of recipients) {
      const { address } = splitRecipient(recipient);
      if (email.attachments.length === 0) log('WARN', `Mail${subject} had no attachments`, address);
      for (const attachment of email.attachments) {
        const fileName = attachment.filename ?? 'unnamed';
        const kind = attachmentKind(fileName, attachment.mimeType);
        if (!kind) {
          log(
            'WARN',
            `Ignored attachment ${fileName} (${attachment.mimeType}): not a CSV, JSON, XML, Parquet or Avro file`,
            address,
          );
          continue;
        }
        const content =
          typeof attachment.content === 'string' ? Buffer.from(attachment.content) : new Uint8Array(attachment.content);
        let stored;
        try {
          stored = await storeAttachment(dir, fileName, kind, content);
        } catch (error) {
          log(
            'ERROR',
            `Ignored attachment ${fileName}: ${error instanceof Error ? error.message : String(error)}`,
            address,
          );
          continue;
        }
        log('INFO', `Received ${fileName} in mail${subject}`, address);
        await options.onAttachment({
          address,
          recipient,
          fileName,
          contentType: attachment.mimeType,
          path: stored.path,
          format: stored.format,
          datasetName: datasetNameOf(fileName),
          ...(stored.rows !== undefined ? { rows: stored.rows } : {}),
        });
      }
    }
  };

  const server = new SMTPServer({
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    size: options.maxMessageBytes ?? 50 * 1024 * 1024,
    logger: false,
    onRcptTo(to, _session, callback) {
      const { address, domain } = splitRecipient(to.address);
      if (options.domain && domain !== options.domain.toLowerCase()) {
        return callback(smtpError(`Mail for ${domain} is not accepted here`, 550));
      }
      Promise.resolve(options.accepts ? options.accepts(address) : true).then(
        (ok) => callback(ok ? null : smtpError(`No integration has the address ${to.address}`, 550)),
        (error: unknown) => callback(smtpError(`Address check failed: ${String(error)}`, 451)),
      );
    },
    onData(stream, session, callback) {
      readAll(stream)
        .then(async (message) => {
          if ((stream as { sizeExceeded?: boolean }).sizeExceeded) {
            return callback(smtpError('The message is too large', 552));
          }
          await deliver(
            message,
            session.envelope.rcptTo.map((r) => r.address),
          );
          callback(null, 'Received');
        })
        .catch((error: unknown) => {
          log('ERROR', `Could not process mail: ${error instanceof Error ? error.message : String(error)}`);
          callback(smtpError('The attachments could not be stored; try again later', 451));
        });
    },
  });
  server.on('error', (error) => log('ERROR', `SMTP listener: ${error.message}`));

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
