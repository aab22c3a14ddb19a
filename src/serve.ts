// The server: configuration, the store, the HTTP server, and a clean stop on SIGTERM/SIGINT (`npm start` runs it through main.ts).
import { buildApp } from './app.js';
import { cryptoIds, systemClock } from './clock.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirBusyError } from './db/data-dir-lock.js';
import { openDb } from './db/open.js';
import { announceDemoShop, ensureDemoMerchant } from './demo/ensure-demo-merchant.js';
import { createLogger } from './http/logger.js';
import { createMetrics } from './http/metrics.js';
import { startMetricsListener } from './http/metrics-routes.js';
import { rateLimiter } from './http/rate-limiter.js';
import { createMailer } from './mail/mailer.js';
import { expirySweep } from './jobs/expiry-sweep.js';
import { payoutScheduleJob } from './jobs/payout-schedule-job.js';
import { providerReconcileJob } from './jobs/provider-reconcile-job.js';
import { checkLiveProviderKeys } from './providers/provider-setup.js';
import { sandboxBank } from './jobs/sandbox-bank.js';
import { webhookSender } from './webhooks/webhook-sender.js';
import { otpSenderFor } from './wallets/otp-sender-for.js';
import { providerPaymentsPort } from './provider-payments/port.js';

async function main() {
  const config = loadConfig();
  const db = await openDb(config, 'server');
  const logger = createLogger(config);
  const otp = await otpSenderFor(config, db, logger).catch(async (error) => {
    await db.close();
    throw error;
  });
  const ctx = { db, clock: systemClock, ids: cryptoIds, config, otp, metrics: createMetrics(db), limiter: rateLimiter(config), mailer: createMailer(config, logger), providerPayments: providerPaymentsPort };
  // Live provider credentials open only with the key that sealed them: refuse to start without it.
  const keyProblem = await checkLiveProviderKeys(ctx);
  if (keyProblem) {
    await db.close();
    throw new ConfigError(keyProblem);
  }
  const demo = await ensureDemoMerchant(ctx);
  const app = await buildApp(ctx, { logger });
  const sweep = expirySweep(ctx, (error) => logger.error({ err: error }, 'expiry sweep failed'));
  const bank = sandboxBank(ctx, (error) => logger.error({ err: error }, 'sandbox bank failed'));
  const schedules = payoutScheduleJob(ctx, logger, (error) => logger.error({ err: error }, 'payout schedules failed'));
  const reconcile = providerReconcileJob(ctx, logger, (error) => logger.error({ err: error }, 'provider reconciliation failed'));
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
    await Promise.all([sweep.stop(), bank.stop(), schedules.stop(), reconcile.stop(), webhooks.stop()]);
    app.log.info('background jobs stopped');
    // A connection whose request finishes during the close stays open for keep-alive, and close
    // would wait for the client to drop it (up to keepAliveTimeout): close such connections as they go idle.
    const reapIdle = setInterval(() => app.server.closeIdleConnections(), 100);
    await Promise.all([app.close(), metricsListener?.close()]);
    clearInterval(reapIdle);
    await ctx.limiter.close();
    await ctx.mailer.close();
    await db.close();
    app.log.info('stopped');
    process.exit(0);
  };
  let metricsListener: Awaited<ReturnType<typeof startMetricsListener>> | undefined;
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  if (config.metricsPort !== undefined) {
    metricsListener = await startMetricsListener(ctx.metrics, { ...config, metricsPort: config.metricsPort });
    app.log.info({ metrics: `http://${config.metricsHost}:${config.metricsPort}/metrics`, token: config.metricsToken !== undefined }, 'metrics served on their own listener');
    if (config.metricsToken === undefined && !['127.0.0.1', '::1', 'localhost'].includes(config.metricsHost)) {
      app.log.warn(`/metrics is served without a token on ${config.metricsHost}: set METRICS_TOKEN unless only your monitoring network reaches it`);
    }
  } else if (config.metricsToken === undefined) {
    app.log.info('/metrics is not served: set METRICS_PORT or METRICS_TOKEN to scrape it');
  }
  sweep.start();
  bank.start();
  schedules.start();
  reconcile.start();
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
