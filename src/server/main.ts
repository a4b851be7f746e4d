// libuv sizes its thread pool once, on first use, from UV_THREADPOOL_SIZE (default 4), and every running
// DuckDB query holds one of those threads; set unless already set, before any module can queue fs work.
// ES modules evaluate their imports in order before this file's code, so this import must stay first.
import './warehouse/threadpool-init';
import { buildApp } from './app';
import { ensureClientBuild } from './client-build';
import { ConfigError, loadConfig } from './config';
import { CLIENT_DIST } from './http/client-assets';

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
  const outbox = config.smtpUrl ? '' : `\n  No SMTP_URL set: sign-in links appear at ${config.publicUrl}/dev/outbox`;
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
