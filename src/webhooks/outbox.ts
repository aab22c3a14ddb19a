// Webhook events are written by the statement that moves the payment (a CTE over its RETURNING
// rows), so an event exists exactly when the move committed: never lost, never invented.
export const webhookEventTypes = ['payment.completed', 'payment.pending', 'payment.canceled', 'payment.expired', 'refund.completed', 'payout.paid', 'payout.failed'] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/**
 * The body of a CTE named `outbox` that queues one delivery per moved row whose merchant has an endpoint for
 * the environment. `moved` is the CTE with the updated payments; the parameters are SQL
 * placeholders for the event type, the time and the move's detail (JSON).
 */
export function outboxInsert(p: { type: string; now: string; detail: string }): string {
  return `
    INSERT INTO webhook_deliveries (event_id, merchant_id, environment, type, pidx, payload, url, next_attempt_at, created_at)
    SELECT 'evt_' || replace(gen_random_uuid()::text, '-', ''), moved.merchant_id, moved.environment, ${p.type}::text, moved.pidx,
           jsonb_build_object(
             'pidx', moved.pidx,
             'status', moved.status,
             'transaction_id', CASE WHEN moved.status IN ('User canceled', 'Expired') THEN NULL ELSE moved.transaction_id END,
             'total_amount', moved.amount,
             'fee', moved.fee,
             'refunded_amount', moved.refunded_amount,
             'purchase_order_id', moved.purchase_order_id,
             'purchase_order_name', moved.purchase_order_name
           ) || CASE WHEN ${p.type}::text = 'refund.completed'
                     THEN jsonb_build_object('refund_amount', (${p.detail}::jsonb ->> 'amount')::bigint) ELSE '{}'::jsonb END
             || CASE WHEN moved.payment_link IS NOT NULL THEN jsonb_build_object('payment_link', moved.payment_link) ELSE '{}'::jsonb END,
           w.url, ${p.now}, ${p.now}
      FROM moved JOIN webhook_endpoints w ON w.merchant_id = moved.merchant_id AND w.environment = moved.environment`;
}
