import type { FastifyInstance } from 'fastify';
import { readOutbox } from '../mail/mailer';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Links in a mail's text become clickable, everything else stays escaped text. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}

/**
 * Lists the mails written to outbox.jsonl, newest first, so a first run without a mail server can
 * still sign in. Registered only outside production.
 */
export function registerDevOutbox(app: FastifyInstance, dataDir: string): void {
  app.get('/dev/outbox', async (_req, reply) => {
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
