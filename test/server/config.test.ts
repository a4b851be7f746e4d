import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { ConfigError, loadConfig } from '../../src/server/config';
import { call, makeApp, signIn } from './helpers';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('runs on embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      publicUrl: 'http://localhost:3000',
      secureCookies: false,
      smtpUrl: null,
      sessionSecret: null,
      nodeEnv: 'development',
      signup: 'invite',
      loginLimits: { perAddress: 5, perClient: 30, windowMs: 15 * 60_000 },
      reportLimits: { perUser: 10, perClient: 30, windowMs: 15 * 60_000 },
      bodyLimitBytes: 1_048_576,
      trustProxy: false,
    });
  });

  it('reads the variables it is given, and treats blank ones as unset', () => {
    const config = loadConfig({
      PORT: '8080',
      PUBLIC_URL: 'https://data.example.com/',
      SMTP_URL: 'smtps://user:pw@mail.example.com:465',
      SIGNUP: 'open',
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(32),
      LOGIN_LIMIT_WINDOW_MINUTES: '2',
      DATA_DIR: '',
    });
    expect(config).toMatchObject({
      port: 8080,
      publicUrl: 'https://data.example.com',
      secureCookies: true,
      smtpUrl: 'smtps://user:pw@mail.example.com:465',
      signup: 'open',
      nodeEnv: 'production',
      sessionSecret: 's'.repeat(32),
      dataDir: path.resolve('./data'),
    });
    expect(config.loginLimits.windowMs).toBe(120_000);
    expect(
      loadConfig({ REPORT_LIMIT_PER_USER: '3', REPORT_LIMIT_PER_CLIENT: '7', REPORT_LIMIT_MINUTES: '60' }).reportLimits,
    ).toEqual({ perUser: 3, perClient: 7, windowMs: 3_600_000 });
    expect(() => loadConfig({ REPORT_LIMIT_PER_USER: '0' })).toThrow(/REPORT_LIMIT_PER_USER/);
    expect(loadConfig({ PORT: '4000' }).publicUrl).toBe('http://localhost:4000');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '3.5'],
    ['PUBLIC_URL', 'ftp://x'],
    ['PUBLIC_URL', 'not a url'],
    ['SESSION_SECRET', 'too-short'],
    ['SMTP_URL', 'http://mail.example.com'],
    ['NODE_ENV', 'staging'],
    ['SIGNUP', 'maybe'],
    ['LOGIN_LIMIT_PER_ADDRESS', '0'],
    ['LOGIN_LIMIT_PER_CLIENT', 'many'],
    ['BODY_LIMIT_BYTES', '-1'],
    ['LOG_LEVEL', 'loud'],
  ])('throws a ConfigError naming %s for %j', (name, value) => {
    const error = configError({ [name]: value });
    expect(error.message).toMatch(/^Invalid configuration:/);
    expect(error.message).toContain(`  ${name}: `);
  });

  it('lets connectors reach private networks by default only with SIGNUP=invite', () => {
    expect(loadConfig({}).outbound.privateNetworks).toBe(true);
    expect(loadConfig({ SIGNUP: 'open' }).outbound.privateNetworks).toBe(false);
    expect(loadConfig({ SIGNUP: 'open', CONNECTOR_PRIVATE_NETWORKS: 'true' }).outbound.privateNetworks).toBe(true);
    expect(loadConfig({ CONNECTOR_PRIVATE_NETWORKS: 'false' }).outbound.privateNetworks).toBe(false);
    expect(loadConfig({ SIGNUP: 'open', CONNECTOR_PRIVATE_NETWORKS: '' }).outbound.privateNetworks).toBe(false);
    expect(configError({ CONNECTOR_PRIVATE_NETWORKS: 'sometimes' }).message).toContain(
      '  CONNECTOR_PRIVATE_NETWORKS: CONNECTOR_PRIVATE_NETWORKS must be true or false',
    );
  });

  it('explains the fix for PUBLIC_URL and SESSION_SECRET, and lists every bad variable', () => {
    const error = configError({ PORT: 'abc', PUBLIC_URL: 'ftp://x', SESSION_SECRET: 'short' });
    const lines = error.message.split('\n').slice(1);
    expect(lines).toHaveLength(3);
    expect(error.message).toContain('PUBLIC_URL: PUBLIC_URL must be an http(s) URL');
    expect(error.message).toContain('SESSION_SECRET: SESSION_SECRET must be at least 32 characters');
    expect(error.message).toMatch(/PORT: /);
  });
});

describe('the server secret', () => {
  it('is created as a key file on first start and reused, so sessions survive a restart', async () => {
    const t = await makeApp();
    const keyFile = path.join(t.dataDir, 'secret.key');
    expect(fs.readFileSync(keyFile, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    const cookie = await signIn(t, 'ann@example.com');
    await t.server.close();

    const restarted = await buildApp(loadConfig({ DATA_DIR: t.dataDir }), { logger: false, clock: t.clock.now });
    try {
      const res = await call<{ email: string }>(restarted.server, 'GET', '/api/me', { cookie });
      expect(res.status).toBe(200);
      expect(res.body.email).toBe('ann@example.com');
    } finally {
      await restarted.server.close();
    }
  });

  it('comes from SESSION_SECRET when set, with no key file written', async () => {
    const t = await makeApp({ SESSION_SECRET: 'k'.repeat(40) });
    expect(fs.existsSync(path.join(t.dataDir, 'secret.key'))).toBe(false);
    const cookie = await signIn(t, 'ann@example.com');
    expect((await call(t.server, 'GET', '/api/me', { cookie })).status).toBe(200);
  });
});
