import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  PNG_1X1,
  TEST_ORIGIN,
  call,
  expectError,
  listen,
  makeApp,
  me,
  signIn,
  trpcMutation,
  type TestApp,
  type TrpcError,
} from './helpers';

function form(fields: { Message?: string; AdditionalContext?: string; Screenshot?: Blob }): FormData {
  const data = new FormData();
  if (fields.Message !== undefined) data.append('Message', fields.Message);
  if (fields.AdditionalContext !== undefined) data.append('AdditionalContext', fields.AdditionalContext);
  if (fields.Screenshot) data.append('Screenshot', fields.Screenshot, 'screenshot.png');
  return data;
}

async function post(base: string, body: FormData, cookie?: string): Promise<{ status: number; body: unknown }> {
  // As the app's own page sends it: from this site (the cross-site check refuses multipart without it).
  const headers: Record<string, string> = { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) };
  const res = await fetch(`${base}/api/error-reports`, { method: 'POST', body, headers });
  return { status: res.status, body: await res.json() };
}

/** A hand-built multipart body, so tests can send what a browser's FormData never would. */
function multipart(parts: Array<{ name: string; value: string | Buffer; filename?: string }>): {
  payload: Buffer;
  headers: Record<string, string>;
} {
  const boundary = '----ws-test-boundary';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const file = part.filename === undefined ? '' : `; filename="${part.filename}"\r\nContent-Type: image/png`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n\r\n`));
    chunks.push(typeof part.value === 'string' ? Buffer.from(part.value) : part.value);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function reportsOf(t: TestApp) {
  return t.deps.db.selectFrom('error_reports').selectAll().execute();
}

function screenshotFiles(t: TestApp): string[] {
  const dir = path.join(t.dataDir, 'files', 'error-reports');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

describe('POST /api/error-reports (multipart over a real port)', () => {
  it('stores the message, context and PNG with the account and user', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'ann@example.com');
    const user = await me(t, cookie);
    const base = await listen(t);

    const res = await post(
      base,
      form({
        Message: '  TypeError: x is undefined  ',
        AdditionalContext: '{"url":"/models/3"}',
        Screenshot: new Blob([PNG_1X1], { type: 'image/png' }),
      }),
      cookie,
    );
    expect(res.status).toBe(201);
    const { id } = res.body as { id: string };

    const rows = await reportsOf(t);
    expect(rows).toEqual([
      {
        id,
        kind: 'error',
        account_id: user.currentAccountId,
        user_id: user.id,
        message: 'TypeError: x is undefined',
        additional_context: '{"url":"/models/3"}',
        screenshot_file: `error-reports/${id}.png`,
        page: null,
        created_at: t.clock.now().toISOString(),
      },
    ]);
    const stored = fs.readFileSync(path.join(t.dataDir, 'files', 'error-reports', `${id}.png`));
    expect(stored.equals(PNG_1X1)).toBe(true);
  });

  it('accepts a report without screenshot', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'ann@example.com');
    const base = await listen(t);
    const res = await post(base, form({ Message: 'Boom' }), cookie);
    expect(res.status).toBe(201);
    const [row] = await reportsOf(t);
    expect(row).toMatchObject({ message: 'Boom', user_id: (await me(t, cookie)).id, screenshot_file: null });
    expect(row?.additional_context).toBeNull();
  });

  it('refuses a signed-out sender with a 401 before reading the body, storing nothing', async () => {
    const t = await makeApp();
    const base = await listen(t);
    const screenshot = new Blob([PNG_1X1, Buffer.alloc(1024 * 1024)], { type: 'image/png' });
    const res = await post(base, form({ Message: 'Boom', Screenshot: screenshot }));
    expect(res).toEqual({ status: 401, body: { message: 'Sign in to send a report.' } });
    const stale = await post(base, form({ Message: 'Boom' }), 'ws_session=made-up');
    expect(stale.status).toBe(401);
    expect(await reportsOf(t)).toEqual([]);
    expect(screenshotFiles(t)).toEqual([]);
  });

  it('refuses a screenshot that is not a PNG, storing nothing', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'ann@example.com');
    const base = await listen(t);
    const jpeg = new Blob([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46])], {
      type: 'image/png',
    });
    const res = await post(base, form({ Message: 'Boom', Screenshot: jpeg }), cookie);
    expect(res).toEqual({ status: 400, body: { message: 'Screenshot must be a PNG image.' } });
    expect(await reportsOf(t)).toEqual([]);
    expect(screenshotFiles(t)).toEqual([]);
  });

  it('refuses a blank or missing message', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'ann@example.com');
    const base = await listen(t);
    const blank = await post(base, form({ Message: ' \n\t ', Screenshot: new Blob([PNG_1X1]) }), cookie);
    expect(blank).toEqual({ status: 400, body: { message: 'Message: Message cannot be empty.' } });
    const missing = await post(base, form({ AdditionalContext: 'ctx' }), cookie);
    expect(missing.status).toBe(400);
    expect(await reportsOf(t)).toEqual([]);
    expect(screenshotFiles(t)).toEqual([]);
  });

  it('refuses a screenshot over 5 MB with a 413 naming the limit, writing nothing to disk', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'ann@example.com');
    const base = await listen(t);
    const big = new Blob([PNG_1X1, Buffer.alloc(5 * 1024 * 1024)], { type: 'image/png' });
    const res = await post(base, form({ Message: 'Boom', Screenshot: big }), cookie);
    expect(res).toEqual({ status: 413, body: { message: 'Screenshot must be at most 5 MB.' } });
    expect(await reportsOf(t)).toEqual([]);
    expect(screenshotFiles(t)).toEqual([]);
    // Just under the limit is fine.
    const fits = new Blob([PNG_1X1, Buffer.alloc(5 * 1024 * 1024 - PNG_1X1.length)], { type: 'image/png' });
    expect((await post(base, form({ Message: 'Boom', Screenshot: fits }), cookie)).status).toBe(201);
  });
});

describe('POST /api/error-reports through app.inject', () => {
  it('reads a hand-built multipart body', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'ann@example.com');
    const boundary = '----ws-test-boundary';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="Message"\r\n\r\nSave failed\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="Screenshot"; filename="s.png"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      ),
      PNG_1X1,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await call(t.server, 'POST', '/api/error-reports', {
      cookie,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: payload,
    });
    expect(res.status).toBe(201);
    const [row] = await reportsOf(t);
    expect(row?.message).toBe('Save failed');
    expect(screenshotFiles(t)).toEqual([`${row?.id}.png`]);
  });

  it('answers 400 to a JSON body', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'ann@example.com');
    const res = await call(t.server, 'POST', '/api/error-reports', { cookie, body: { Message: 'Boom' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Send the error report as multipart/form-data.' });
  });
});

describe('POST /api/bug-reports (the widget)', () => {
  it('stores a message with the page, and refuses a blank one', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'ann@example.com');
    const res = await call(t.server, 'POST', '/api/bug-reports', {
      cookie,
      body: { message: 'Grid is slow', page: '/models/1' },
    });
    expect(res.status).toBe(201);
    const [row] = await reportsOf(t);
    expect(row).toMatchObject({
      kind: 'bug',
      message: 'Grid is slow',
      page: '/models/1',
      user_id: (await me(t, cookie)).id,
    });
    const blank = await call(t.server, 'POST', '/api/bug-reports', { cookie, body: { message: '   ' } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ message: 'message: Message cannot be empty.' });
  });
});

/** POST /api/error-reports through app.inject with a hand-built multipart body. */
async function injectReport(
  t: TestApp,
  parts: Parameters<typeof multipart>[0],
  options: { cookie?: string; headers?: Record<string, string> } = {},
) {
  const { payload, headers } = multipart(parts);
  return call(t.server, 'POST', '/api/error-reports', {
    cookie: options.cookie,
    headers: { ...headers, ...options.headers },
    body: payload,
  });
}

describe('error report size limits', () => {
  it.each([
    {
      label: 'a Message over 10,000 characters',
      parts: [{ name: 'Message', value: 'x'.repeat(10_001) }],
      status: 400,
      message: 'Message must be at most 10,000 characters.',
    },
    {
      label: 'a Message larger than the parser reads',
      parts: [{ name: 'Message', value: 'x'.repeat(400_000) }],
      status: 413,
      message: 'Message must be at most 10,000 characters.',
    },
    {
      label: 'an AdditionalContext over 50,000 characters',
      parts: [
        { name: 'Message', value: 'Boom' },
        { name: 'AdditionalContext', value: 'x'.repeat(50_001) },
      ],
      status: 400,
      message: 'AdditionalContext must be at most 50,000 characters.',
    },
    {
      label: 'an AdditionalContext larger than the parser reads',
      parts: [
        { name: 'Message', value: 'Boom' },
        { name: 'AdditionalContext', value: 'x'.repeat(2_000_000) },
      ],
      status: 413,
      message: 'AdditionalContext must be at most 50,000 characters.',
    },
    {
      label: 'two screenshots',
      parts: [
        { name: 'Message', value: 'Boom' },
        { name: 'Screenshot', value: PNG_1X1, filename: 'a.png' },
        { name: 'Screenshot', value: PNG_1X1, filename: 'b.png' },
      ],
      status: 413,
      message: 'An error report has at most 3 parts: Message, AdditionalContext and one Screenshot.',
    },
    {
      label: 'many fields',
      parts: Array.from({ length: 50 }, () => ({ name: 'Message', value: 'Boom' })),
      status: 413,
      message: 'An error report has at most 3 parts: Message, AdditionalContext and one Screenshot.',
    },
    {
      label: 'a file under another name',
      parts: [
        { name: 'Message', value: 'Boom' },
        { name: 'Attachment', value: PNG_1X1, filename: 'a.png' },
      ],
      status: 400,
      message: 'The only file an error report takes is Screenshot.',
    },
    {
      label: 'an unknown field',
      parts: [
        { name: 'Message', value: 'Boom' },
        { name: 'Extra', value: 'x' },
      ],
      status: 400,
      message: 'An error report has the fields Message, AdditionalContext and Screenshot only.',
    },
  ])('refuses $label with $status naming the limit, storing nothing', async ({ parts, status, message }) => {
    const t = await makeApp();
    const cookie = await signIn(t, 'ann@example.com');
    const withScreenshot = [...parts, { name: 'Screenshot', value: PNG_1X1, filename: 's.png' }];
    const res = await injectReport(t, parts.some((p) => p.name === 'Screenshot') ? parts : withScreenshot, { cookie });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body).toEqual({ message });
    expect(await reportsOf(t)).toEqual([]);
    expect(screenshotFiles(t)).toEqual([]);
  });
});

describe('report rate limits', () => {
  it('refuses the N+1-th report of a user in the window with 429 and Retry-After, writing nothing', async () => {
    const t = await makeApp({ SIGNUP: 'open', REPORT_LIMIT_PER_USER: '3', REPORT_LIMIT_PER_CLIENT: '100' });
    const ann = await signIn(t, 'ann@example.com');
    const screenshot = { name: 'Screenshot', value: PNG_1X1, filename: 's.png' };
    // Error and bug reports share the allowance.
    expect((await injectReport(t, [{ name: 'Message', value: 'one' }, screenshot], { cookie: ann })).status).toBe(201);
    expect((await call(t.server, 'POST', '/api/bug-reports', { cookie: ann, body: { message: 'two' } })).status).toBe(
      201,
    );
    expect((await trpcMutation(t, 'feedback.bugReport', { message: 'three' }, ann)).status).toBe(200);
    t.clock.advance(5 * 60_000);

    const refused = await injectReport(t, [{ name: 'Message', value: 'four' }, screenshot], { cookie: ann });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: 'Too many reports sent. Try again in 10 minutes.' });
    expect(refused.headers['retry-after']).toBe(String(10 * 60));
    const bug = await call(t.server, 'POST', '/api/bug-reports', { cookie: ann, body: { message: 'five' } });
    expect(expectError(bug, 429)).toBe('Too many reports sent. Try again in 10 minutes.');
    const viaTrpc = await trpcMutation<TrpcError>(t, 'feedback.bugReport', { message: 'six' }, ann);
    expect(viaTrpc.status).toBe(429);
    expect(viaTrpc.body.error.message).toBe('Too many reports sent. Try again in 10 minutes.');
    expect(viaTrpc.headers['retry-after']).toBe(String(10 * 60));

    expect((await reportsOf(t)).map((r) => r.message).sort()).toEqual(['one', 'three', 'two']);
    expect(screenshotFiles(t)).toHaveLength(1);

    // Another user is not held back by Ann's count, and Ann may send again once the window passes.
    const bob = await signIn(t, 'bob@example.com');
    expect((await injectReport(t, [{ name: 'Message', value: 'bob' }], { cookie: bob })).status).toBe(201);
    t.clock.advance(10 * 60_000);
    expect((await injectReport(t, [{ name: 'Message', value: 'later' }], { cookie: ann })).status).toBe(201);
  });

  it('bounds a flood with the default limits: 10 reports of a user per 15 minutes', async () => {
    const t = await makeApp();
    const ann = await signIn(t, 'ann@example.com');
    const screenshot = { name: 'Screenshot', value: PNG_1X1, filename: 's.png' };
    const statuses: number[] = [];
    for (let i = 0; i < 25; i += 1) {
      statuses.push((await injectReport(t, [{ name: 'Message', value: `r${i}` }, screenshot], { cookie: ann })).status);
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    expect(await reportsOf(t)).toHaveLength(10);
    expect(screenshotFiles(t)).toHaveLength(10);
  });

  it('counts per client address across users, by the socket address unless TRUST_PROXY is set', async () => {
    const t = await makeApp({ SIGNUP: 'open', REPORT_LIMIT_PER_USER: '100', REPORT_LIMIT_PER_CLIENT: '2' });
    const cookies = [
      await signIn(t, 'a@example.com'),
      await signIn(t, 'b@example.com'),
      await signIn(t, 'c@example.com'),
    ];
    const send = (cookie: string, ip: string) =>
      call(t.server, 'POST', '/api/bug-reports', {
        cookie,
        headers: { 'x-forwarded-for': ip },
        body: { message: 'Boom' },
      });
    expect((await send(cookies[0] ?? '', '10.0.0.1')).status).toBe(201);
    expect((await send(cookies[1] ?? '', '10.0.0.2')).status).toBe(201);
    // A forged X-Forwarded-For does not make a new client.
    const third = await send(cookies[2] ?? '', '10.0.0.3');
    expect(expectError(third, 429)).toMatch(/^Too many reports sent\./);
    expect(third.headers['retry-after']).toBe(String(15 * 60));

    const proxied = await makeApp({
      SIGNUP: 'open',
      TRUST_PROXY: 'true',
      REPORT_LIMIT_PER_USER: '100',
      REPORT_LIMIT_PER_CLIENT: '1',
    });
    const x = await signIn(proxied, 'x@example.com');
    const sendProxied = (ip: string) =>
      call(proxied.server, 'POST', '/api/bug-reports', {
        cookie: x,
        headers: { 'x-forwarded-for': ip },
        body: { message: 'Boom' },
      });
    expect((await sendProxied('10.0.0.1')).status).toBe(201);
    expect((await sendProxied('10.0.0.2')).status).toBe(201);
    expect((await sendProxied('10.0.0.2')).status).toBe(429);
  });
});

describe('bug reports need a signed-in user', () => {
  it('refuses a signed-out widget over REST and tRPC, storing nothing', async () => {
    const t = await makeApp();
    const rest = await call(t.server, 'POST', '/api/bug-reports', { body: { message: 'Anonymous' } });
    expect(expectError(rest, 401)).toBe('Sign in to send a report.');
    const trpc = await trpcMutation<TrpcError>(t, 'feedback.bugReport', { message: 'Anonymous' });
    expect(trpc.status).toBe(401);
    expect(trpc.body.error.message).toBe('Sign in to send a report.');
    expect(await reportsOf(t)).toEqual([]);
  });

  it('names the limit of an over-long message or page', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'ann@example.com');
    const long = await call(t.server, 'POST', '/api/bug-reports', { cookie, body: { message: 'x'.repeat(10_001) } });
    expect(expectError(long, 400)).toBe('message: Message must be at most 10,000 characters.');
    const page = await call(t.server, 'POST', '/api/bug-reports', {
      cookie,
      body: { message: 'Boom', page: `/${'p'.repeat(2_000)}` },
    });
    expect(expectError(page, 400)).toBe('page: page must be at most 2,000 characters.');
    expect(await reportsOf(t)).toEqual([]);
  });
});
