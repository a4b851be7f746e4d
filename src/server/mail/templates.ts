import type { Mail } from './mailer';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(heading: string, body: string, link: string, linkLabel: string, footer: string): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2933;max-width:520px;margin:24px auto">
<h2 style="margin:0 0 16px">${escapeHtml(heading)}</h2>
<p>${escapeHtml(body)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#1c7ed6;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(linkLabel)}</a></p>
<p style="color:#616e7c;font-size:13px">${escapeHtml(footer)}</p>
<p style="color:#9aa5b1;font-size:12px;word-break:break-all">${escapeHtml(link)}</p>
</body></html>`;
}

export function loginMail(to: string, link: string, minutes: number): Mail {
  const footer = `The link works once and expires in ${minutes} minutes. If you did not ask to sign in, ignore this mail.`;
  return {
    to,
    subject: 'Your sign-in link',
    text: `Sign in to the workspace:\n\n${link}\n\n${footer}\n`,
    html: layout('Sign in to the workspace', 'Click the button to sign in.', link, 'Sign in', footer),
  };
}

export function inviteMail(to: string, link: string, accountName: string, inviter: string, days: number): Mail {
  const body = `${inviter} invited you to join the account "${accountName}".`;
  const footer = `The invitation expires in ${days} days.`;
  return {
    to,
    subject: `You are invited to ${accountName}`,
    text: `${body}\n\nAccept the invitation:\n${link}\n\n${footer}\n`,
    html: layout(`Join ${accountName}`, body, link, 'Accept invitation', footer),
  };
}
