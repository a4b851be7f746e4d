import type { FastifyInstance } from 'fastify';
import { readOutbox } from '../mail/mailer';
import { isDirectLoopbackRequest } from './loopback';

const LOOPBACK_ONLY =
  'The outbox is shown only to a browser on the server itself (http://localhost). Sign-in links are also printed on the server console and written to DATA_DIR/outbox.jsonl.';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Links in a mail's text become clickable, everything else stays escaped text. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}

/**
 * Lists the mails written to outbox.jsonl, newest first, so a first run without a mail server can
 * still sign in from a browser on the server's own machine. The mails hold sign-in links for every
 * address, so anyone else who could read this page could sign in as anyone: it answers only
 * requests made straight from this machine (see isDirectLoopbackRequest), and is registered only
 * outside production.
 */
export function registerDevOutbox(app: FastifyInstance, dataDir: string): void {
  app.get('/dev/outbox', async (req, reply) => {
    if (!isDirectLoopbackRequest(req)) return reply.status(403).send({ message: LOOPBACK_ONLY });
    const mails = (await readOutbox(dataDir)).reverse();
    const items = mails
      .map(
        (m) =>
          `<article><header><strong>${escapeHtml(m.subject)}</strong><span>to ${escapeHtml(m.to)} · ${escapeHtml(m.sentAt)}</span></header><pre>${linkify(m.text)}</pre></article>`,
      )
      .join('\n');
    const empty = '<p class="empty">No mail yet. Request a sign-in link and reload this page.</p>';
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    return `<!doctype html><html><head><meta charset="utf-8"><title>Outbox</title><style>
body{font-family:system-ui,sans-serif;max-width:760px;margin:32px auto;color:#1f2933;padding:0 16px}
article{border:1px solid #dde3ea;border-radius:8px;padding:12px 16px;margin:12px 0}
header{display:flex;justify-content:space-between;gap:12px;flex-wrap:wrap}span{color:#616e7c;font-size:13px}
pre{white-space:pre-wrap;word-break:break-all;font-size:14px}.empty{color:#616e7c}
</style></head><body><h1>Outbox</h1><p>Mail the server would have sent (no SMTP_URL set). Newest first.</p>
${items || empty}</body></html>`;
  });
}
