/**
 * A real SMTP server (smtp-server) on a free local port that keeps every message it receives,
 * parsed with postal-mime, for tests of what the app sends with SMTP_URL set.
 */
import type { AddressInfo } from 'node:net';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** RCPT TO addresses of the SMTP transaction. */
  rcptTo: string[];
  parsed: Email;
  raw: string;
}

export interface SmtpPeer {
  url: string;
  received: ReceivedMail[];
  /** Recipients the server refuses with a 550 (a permanent failure). */
  refuse: Set<string>;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<SmtpPeer> {
  const received: ReceivedMail[] = [];
  const refuse = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse.has(address.address.toLowerCase())) {
        const error = Object.assign(new Error('No such user here'), { responseCode: 550 });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        void PostalMime.parse(raw).then(
          (parsed) => {
            received.push({ rcptTo: session.envelope.rcptTo.map((r) => r.address), parsed, raw });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
