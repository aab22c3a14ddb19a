import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { callerOf } from '../http/authenticate.js';
import { fieldSchema } from '../http/field-schema.js';
import { object, text } from '../http/fields.js';
import { paymentStatuses } from './payment-status.js';
import { lookupPayment } from './lookup-payment.js';

const lookupRequest = object({ pidx: text({ required: true, description: 'The pidx returned by initiate.' }) });

export const lookupResponse = {
  type: 'object',
  required: ['pidx', 'total_amount', 'status', 'transaction_id', 'fee', 'refunded'],
  properties: {
    pidx: { type: 'string' },
    total_amount: { type: 'integer', description: 'Paisa.' },
    status: { type: 'string', enum: [...paymentStatuses] },
    transaction_id: { type: ['string', 'null'] },
    fee: { type: 'integer', description: 'Paisa.' },
    refunded: { type: 'boolean' },
    purchase_order_id: { type: 'string' },
    expires_at: { type: 'string', format: 'date-time' },
    refunded_amount: { type: 'integer', description: 'Paisa refunded so far.' },
  },
} as const;

export function registerLookup(app: FastifyInstance, ctx: AppContext) {
  app.post(
    '/v2/epayment/lookup/',
    {
      config: { errors: ['not_found'] },
      schema: {
        summary: 'Look a payment up',
        description: 'The final check of a payment. 200 for Initiated, Pending, Completed, Partially refunded and Refunded; 400 (with the same shape) for Expired and User canceled.',
        operationId: 'lookupPayment',
        body: fieldSchema(lookupRequest, [{ pidx: 'bZQLD9wRVWo4CdESSfuSsB' }]),
        response: { 200: lookupResponse, 400: { ...lookupResponse, description: 'Expired or User canceled (or a validation error).', additionalProperties: true } },
      },
    },
    async (request, reply) => {
      const { pidx } = request.body as { pidx: string };
      const { httpStatus, body } = await lookupPayment(ctx, callerOf(request), pidx);
      return reply.code(httpStatus).send(body);
    },
  );
}
