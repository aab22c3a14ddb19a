import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { callerOf } from '../../http/authenticate.js';
import { fieldSchema } from '../../http/field-schema.js';
import { answerInTransaction } from '../../http/idempotency.js';
import { integer, object } from '../../http/fields.js';
import { refundPayment } from '../../payments/refund-payment.js';

const refundRequest = object({
  amount: integer({ min: 1, description: 'Paisa to refund; without it, the whole remaining amount.' }),
});

export function registerRefund(app: FastifyInstance, ctx: AppContext) {
  // Under /api, not /api/v2, as in the gateway this API copies.
  app.post(
    '/merchant-transaction/:transaction_id/refund/',
    {
      config: { idempotent: true, errors: ['bad_request', 'not_found'] },
      schema: {
        summary: 'Refund a completed transaction, whole or in part',
        description: 'Without `amount`, refunds all that is left. Partial refunds move the payment to Partially refunded, the last one to Refunded.',
        operationId: 'refundTransaction',
        params: { type: 'object', properties: { transaction_id: { type: 'string' } }, required: ['transaction_id'] },
        body: fieldSchema(refundRequest, [{ amount: 500 }, {}]),
        response: { 200: { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] } },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { transaction_id } = request.params as { transaction_id: string };
      const { amount } = request.body as { amount?: number };
      const answer = { detail: 'Transaction refund successful.' };
      await refundPayment(ctx, { merchantId: caller.merchant.id, environment: caller.environment }, transaction_id, amount, answerInTransaction(request, 200, answer));
      return answer;
    },
  );
}
