import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.js';
import { callerOf } from '../../http/authenticate.js';
import { fieldSchema } from '../../http/field-schema.js';
import { object, text } from '../../http/fields.js';
import type { ApiCaller } from '../../merchants/merchant.js';
import { paymentStatuses } from '../../payments/payment-status.js';
import { lookupPayment } from '../../payments/lookup-payment.js';

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

const lookupResponses = {
  200: lookupResponse,
  400: { ...lookupResponse, description: 'Expired or User canceled (or a validation error).', additionalProperties: true },
};

export function registerLookup(app: FastifyInstance, ctx: AppContext) {
  const answer = async (caller: ApiCaller, pidx: string, reply: FastifyReply) => {
    const { httpStatus, body } = await lookupPayment(ctx, caller, pidx);
    return reply.code(httpStatus).send(body);
  };

  app.post(
    '/v2/epayment/lookup/',
    {
      config: { errors: ['not_found'] },
      schema: {
        summary: 'Look a payment up',
        description: 'The final check of a payment. 200 for Initiated, Pending, Completed, Partially refunded and Refunded; 400 (with the same shape) for Expired and User canceled.',
        operationId: 'lookupPayment',
        body: fieldSchema(lookupRequest, [{ pidx: 'bZQLD9wRVWo4CdESSfuSsB' }]),
        response: lookupResponses,
      },
    },
    async (request, reply) => answer(callerOf(request), (request.body as { pidx: string }).pidx, reply),
  );

  // Clients of the gateway that look up with GET and a query string.
  app.get(
    '/v2/epayment/lookup/',
    {
      config: { errors: ['not_found', 'validation_error'] },
      schema: {
        summary: 'Look a payment up (query string)',
        description: 'The same lookup as the POST, for clients that send `pidx` in the query string: the same bodies and status codes.',
        operationId: 'lookupPaymentByQuery',
        querystring: fieldSchema(lookupRequest),
        response: lookupResponses,
      },
    },
    async (request, reply) => answer(callerOf(request), (request.query as { pidx: string }).pidx, reply),
  );
}
