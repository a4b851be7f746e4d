import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PNG_1X1, call, listen, makeApp, me, signIn, type TestApp } from './helpers';

function form(fields: { Message?: string; AdditionalContext?: string; Screenshot?: Blob }): FormData {
  const data = new FormData();
  if (fields.Message !== undefined) data.append('Message', fields.Message);
  if (fields.AdditionalContext !== undefined) data.append('AdditionalContext', fields.AdditionalContext);
  if (fields.Screenshot) data.append('Screenshot', fields.Screenshot, 'screenshot.png');
  return data;
}

async function post(base: string, body: FormData, cookie?: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${base}/api/error-reports`, { method: 'POST', body, headers: cookie ? { cookie } : {} });
  return { status: res.status, body: await res.json() };
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

  it('accepts a report without screenshot, and from a signed-out page', async () => {
    const t = await makeApp();
    const base = await listen(t);
    const res = await post(base, form({ Message: 'Boom' }));
    expect(res.status).toBe(201);
    const [row] = await reportsOf(t);
    expect(row).toMatchObject({ message: 'Boom', account_id: null, user_id: null, screenshot_file: null });
    expect(row?.additional_context).toBeNull();
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
    const base = await listen(t);
    const blank = await post(base, form({ Message: ' \n\t ', Screenshot: new Blob([PNG_1X1]) }));
    expect(blank).toEqual({ status: 400, body: { message: 'Message: Message cannot be empty.' } });
    const missing = await post(base, form({ AdditionalContext: 'ctx' }));
    expect(missing.status).toBe(400);
    expect(await reportsOf(t)).toEqual([]);
    expect(screenshotFiles(t)).toEqual([]);
  });

  it('refuses a screenshot over 5 MB with a 413', async () => {
    const t = await makeApp();
    const base = await listen(t);
    const big = new Blob([PNG_1X1, Buffer.alloc(5 * 1024 * 1024)], { type: 'image/png' });
    const res = await post(base, form({ Message: 'Boom', Screenshot: big }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: expect.any(String) });
    expect(await reportsOf(t)).toEqual([]);
  });
});

describe('POST /api/error-reports through app.inject', () => {
  it('reads a hand-built multipart body', async () => {
    const t = await makeApp();
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
    const res = await call(t.server, 'POST', '/api/error-reports', { body: { Message: 'Boom' } });
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
