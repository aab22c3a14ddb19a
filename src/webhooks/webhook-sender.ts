// Delivers the webhook outbox: at least once, retried with back-off for up to 3 days, signed with
// the merchant's signing secret. Several instances can run it: each delivery is leased by one.
import type { AppContext } from '../context.js';
import { periodicJob, type Job } from '../jobs/periodic-job.js';
import { signWebhook } from '../client/signatures.js';
import { signingSecret } from '../merchants/signing-secret.js';
import { formatTimestamp } from '../http/timestamp.js';
import { allowsPrivateAddress, nextAttemptAt, shouldGiveUp } from './delivery-rules.js';
import { postWebhook, type PostResult } from './post-webhook.js';
import { claimDueDeliveries, recordDeliveryResult, type WebhookDelivery } from './webhook-store.js';

const BATCH = 20;
const LEASE_SECONDS = 60;

export interface WebhookSenderOptions {
  onResult?: (delivery: WebhookDelivery, result: PostResult) => void;
  onError: (error: unknown) => void;
}

/** The JSON body of an event, as sent (and as signed). */
export function webhookBody(delivery: WebhookDelivery, timeZone: string): string {
  return JSON.stringify({
    id: delivery.event_id,
    type: delivery.type,
    created: formatTimestamp(delivery.created_at, timeZone),
    environment: delivery.environment,
    data: delivery.payload,
  });
}

export function webhookSender(ctx: AppContext, options: WebhookSenderOptions): Job {
  async function deliver(delivery: WebhookDelivery): Promise<void> {
    const body = webhookBody(delivery, ctx.config.timeZone);
    const secret = await signingSecret(ctx.db, delivery.merchant_id, delivery.environment);
    const sentAt = ctx.clock.now();
    const result = await postWebhook(
      delivery.url,
      body,
      { 'bhuktani-signature': signWebhook(body, secret, Math.floor(sentAt.getTime() / 1000)), 'bhuktani-event-id': delivery.event_id },
      { allowPrivate: allowsPrivateAddress(ctx.config.webhookPrivateAddresses, delivery.environment) },
    );
    options.onResult?.(delivery, result);
    const now = ctx.clock.now();
    const ok = result.status !== undefined && result.status >= 200 && result.status < 300;
    ctx.metrics.webhookDeliveries.inc({ result: ok ? 'delivered' : 'failed' });
    await recordDeliveryResult(ctx.db, delivery.id, {
      status: ok ? 'delivered' : shouldGiveUp(delivery.created_at, now) ? 'failed' : 'pending',
      httpStatus: result.status,
      response: result.body,
      error: result.error,
      nextAttemptAt: ok ? now : nextAttemptAt(delivery.attempts, now),
      at: now,
    });
  }

  const runOnce = async () => {
    let total = 0;
    for (;;) {
      const due = await claimDueDeliveries(ctx.db, ctx.clock.now(), BATCH, LEASE_SECONDS);
      await Promise.all(due.map((delivery) => deliver(delivery).catch(options.onError)));
      total += due.length;
      if (due.length < BATCH) return total;
    }
  };

  return periodicJob({ runOnce, intervalMs: ctx.config.webhookIntervalMs, onError: options.onError });
}
