// libuv sizes its thread pool once, on first use, from UV_THREADPOOL_SIZE (default 4), and every running
// DuckDB query holds one of those threads; set unless already set, before any module can queue fs work.
// ES modules evaluate their imports in order before this file's code, so this import must stay first.
import './warehouse/threadpool-init';
import path from 'node:path';
import { buildApp } from './app';
import { ensureClientBuild } from './client-build';
import { ConfigError, loadConfig, type Config } from './config';
import { CLIENT_DIST } from './http/client-assets';
import { OUTBOX_FILE } from './mail/mailer';

/** Where sign-in links go while no mail server is set: this console, the outbox file, and a page for this machine. */
function outboxHelp(config: Config): string {
  const file = path.join(config.dataDir, OUTBOX_FILE);
  const page =
    config.nodeEnv === 'production'
      ? ''
      : `\n  or open http://localhost:${config.port}/dev/outbox in a browser on this machine`;
  return `\n  No SMTP_URL set: sign-in links are printed here and written to ${file}${page}`;
}

/** `npm start` (built client) or `npm run dev` (--dev: Vite middleware with hot reload). */
async function main(): Promise<void> {
  const dev = process.argv.includes('--dev');
  const config = loadConfig();
  if (!dev) await ensureClientBuild();
  const { server } = await buildApp(config, { client: dev ? { kind: 'vite' } : { kind: 'static', dir: CLIENT_DIST } });

  const shutdown = async (signal: string) => {
    server.log.info(`${signal} received, shutting down`);
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await server.listen({ port: config.port, host: config.host });
  const outbox = config.smtpUrl ? '' : outboxHelp(config);
  console.log(`\n  Workspace is running at ${config.publicUrl}\n  Data folder: ${config.dataDir}${outbox}\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('The server could not start:', error);
  }
  process.exit(1);
});
