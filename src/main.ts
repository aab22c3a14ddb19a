// `npm start`: configuration, the store, the HTTP server, and a clean stop on SIGTERM/SIGINT.
import { buildApp } from './app.js';
import { cryptoIds, systemClock } from './clock.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirBusyError } from './db/data-dir-lock.js';
import { openDb } from './db/open.js';
import { announceDemoShop, ensureDemoMerchant } from './demo/ensure-demo-merchant.js';
import { createLogger } from './http/logger.js';
import { createMetrics } from './http/metrics.js';
import { rateLimiter } from './http/rate-limiter.js';
import { createMailer } from './mail/mailer.js';
import { expirySweep } from './jobs/expiry-sweep.js';
import { webhookSender } from './webhooks/webhook-sender.js';
import { logOtpSender } from './wallets/otp-sender.js';

async function main() {
  const config = loadConfig();
  const db = await openDb(config, 'server');
  const logger = createLogger(config);
  const ctx = { db, clock: systemClock, ids: cryptoIds, config, otp: logOtpSender(logger), metrics: createMetrics(db), limiter: rateLimiter(config), mailer: createMailer(config, logger) };
  const demo = await ensureDemoMerchant(ctx);
  const app = await buildApp(ctx, { logger });
  const sweep = expirySweep(ctx, (error) => logger.error({ err: error }, 'expiry sweep failed'));
  const webhooks = webhookSender(ctx, {
    onError: (error) => logger.error({ err: error }, 'webhook delivery failed'),
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping');
    // The jobs first (each finishes its run, so no delivery is left leased), then the requests in
    // flight (Fastify's close waits for them), and the store last, when nothing can use it.
    await Promise.all([sweep.stop(), webhooks.stop()]);
    app.log.info('background jobs stopped');
    // A connection whose request finishes during the close stays open for keep-alive, and close
    // would wait for the client to drop it (up to keepAliveTimeout): close such connections as they go idle.
    const reapIdle = setInterval(() => app.server.closeIdleConnections(), 100);
    await app.close();
    clearInterval(reapIdle);
    await ctx.limiter.close();
    await db.close();
    app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  sweep.start();
  webhooks.start();
  app.log.info({ publicUrl: config.publicUrl, store: config.databaseUrl ? db.kind : `pglite:${config.dataDir}` }, 'Bhuktani is ready');
  if (demo) announceDemoShop(app.log, demo, config.publicUrl);
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DataDirBusyError) {
    console.error(`bhuktani: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
