// The HTTP server on an open store: the background jobs, the routes, `listen`, and a clean stop on
// SIGTERM/SIGINT. serve.ts loads this module while the store opens.
import { buildApp } from './app.js';
import { cryptoIds, systemClock } from './clock.js';
import { ConfigError, type Config } from './config.js';
import { serveBackups } from './db/backup-socket.js';
import type { ServerStore } from './db/store-thread.js';
import { announceDemoShop, ensureDemoMerchant } from './demo/ensure-demo-merchant.js';
import { createLogger } from './http/logger.js';
import { startMetricsListener } from './http/metrics-routes.js';
import { createMetrics } from './http/metrics.js';
import { rateLimiter } from './http/rate-limiter.js';
import { expirySweep } from './jobs/expiry-sweep.js';
import { payoutScheduleJob } from './jobs/payout-schedule-job.js';
import { providerReconcileJob } from './jobs/provider-reconcile-job.js';
import { payoutRailsJob } from './jobs/payout-rails-job.js';
import { createMailer } from './mail/mailer.js';
import { checkLiveProviderKeys } from './providers/provider-setup.js';
import { checkLivePayoutRailKeys } from './settlements/payout-rail-setup.js';
import { providerPaymentsPort } from './provider-payments/port.js';
import { otpSenderFor, senderOnceChosen } from './wallets/otp-sender-for.js';
import { webhookSender } from './webhooks/webhook-sender.js';

export async function runServer(config: Config, store: ServerStore): Promise<void> {
  const { db } = store;
  const logger = createLogger(config);
  const refuse = async (error: unknown): Promise<never> => {
    await db.close().catch(() => {});
    throw error;
  };
  // The start-up checks ask the store, which may still be opening on its own thread: the routes are
  // built meanwhile. Nothing is served before both are done.
  const choosingOtp = otpSenderFor(config, db, logger);
  choosingOtp.catch(() => {}); // awaited below
  const ctx = { db, clock: systemClock, ids: cryptoIds, config, otp: senderOnceChosen(choosingOtp), metrics: createMetrics(db), limiter: rateLimiter(config), mailer: createMailer(config, logger), providerPayments: providerPaymentsPort };
  // The demo merchant is made (or found) once the server listens: only the demo shop needs it, and
  // its pages wait for it.
  let makeDemo!: () => void;
  const demoMade = new Promise<void>((resolve) => (makeDemo = resolve)).then(() => ensureDemoMerchant(ctx));
  const building = buildApp(ctx, { logger, demoMerchant: demoMade, warmUp: true });
  building.catch(() => {}); // awaited below
  try {
    // Both checks asked at once, so the store answers them back to back once open. Live provider
    // credentials open only with the key that sealed them: refuse to start without it.
    const [, , keyProblem, railKeyProblem] = await Promise.all([store.opened, choosingOtp, checkLiveProviderKeys(ctx), checkLivePayoutRailKeys(ctx)]);
    if (keyProblem ?? railKeyProblem) throw new ConfigError((keyProblem ?? railKeyProblem)!);
  } catch (error) {
    return refuse(error);
  }
  const app = await building;
  const sweep = expirySweep(ctx, (error) => logger.error({ err: error }, 'expiry sweep failed'));
  const bank = payoutRailsJob(ctx, (error) => logger.error({ err: error }, 'payout rails failed'));
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
    await Promise.all([app.close(), metricsListener?.close(), backups?.close()]);
    clearInterval(reapIdle);
    await ctx.limiter.close();
    await ctx.mailer.close();
    await db.close();
    app.log.info('stopped');
    process.exit(0);
  };
  let metricsListener: Awaited<ReturnType<typeof startMetricsListener>> | undefined;
  // The embedded store's copies for `bhuktani backup`, while the server holds it.
  const { copy } = store;
  const backups = copy && !config.databaseUrl
    ? await serveBackups(config.dataDir, copy, () => systemClock.now()).catch((error: unknown) => {
        logger.warn({ err: error }, '`bhuktani backup` cannot reach this server (DATA_DIR/backup.sock): stop the server to back up');
        return undefined;
      })
    : undefined;
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
  makeDemo();
  demoMade.then(
    (demo) => demo && announceDemoShop(app.log, demo, config.publicUrl),
    (error: unknown) => app.log.error({ err: error }, 'the demo merchant could not be made: the demo shop is off'),
  );
}

