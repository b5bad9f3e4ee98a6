import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig } from './config/app-config';
import { loadEnvFile } from './config/env-file';
import { createApp, shutdownApp } from './bootstrap/create-app';
import { CREATE_ADMIN_HINT, SET_PASSWORD_COMMAND, startupSummary } from './bootstrap/startup-summary';
import { listenError } from './bootstrap/listen-error';
import { StartupError } from './bootstrap/startup-error';
import { DEMO_LOGIN, DemoSeedRegistry, NO_ADMIN, type DemoLogin } from './database/seed/demo-seed.registry';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const fromFile = loadEnvFile();
  const config = loadConfig();
  const app = await createApp(config);
  const log = app.getHttpAdapter().getInstance().log;

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => {
      log.error('graceful shutdown timed out; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    shutdownApp(app)
      .then(() => {
        log.info('shutdown complete');
        process.exit(0);
      })
      .catch((error: unknown) => {
        log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  // Fastify's own listen: Nest's would log the error before main() can say what it means.
  const fastify: FastifyInstance = app.getHttpAdapter().getInstance();
  await fastify.listen({ port: config.port, host: config.host }).catch(async (error: unknown) => {
    await app.close().catch(() => undefined);
    throw listenError(error, config) ?? error;
  });
  if (fromFile.length) log.info({ settings: fromFile }, 'read .env');
  if (config.publicUrlFromRequest) {
    log.warn(
      `HOST=${config.host} and no PUBLIC_URL: URLs in responses follow each request's Host header (X-Forwarded-Host/Proto only from proxies TRUST_PROXY trusts). Set PUBLIC_URL to the address clients use.`,
    );
  }
  const seeds = app.get(DemoSeedRegistry);
  const accounts = { demo: seeds.get<DemoLogin>(DEMO_LOGIN), noAdmin: seeds.get<boolean>(NO_ADMIN) === true };
  if (config.logFormat === 'pretty') {
    process.stdout.write(startupSummary(config, accounts));
  } else {
    // No password in a log record: JSON logs are kept and shipped.
    log.info(
      {
        api: `${config.publicUrl}/api/2.0`,
        docs: `${config.publicUrl}/api/2.0/docs`,
        demoAccounts: accounts.demo?.accounts,
        setPassword: SET_PASSWORD_COMMAND,
      },
      'listening',
    );
    if (accounts.noAdmin) log.warn(CREATE_ADMIN_HINT);
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StartupError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
