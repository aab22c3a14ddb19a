import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { callerOf } from '../http/authenticate.js';
import { fieldSchema } from '../http/field-schema.js';
import { formatTimestamp } from '../http/timestamp.js';
import { initiatePayment, type InitiateInput } from './initiate-payment.js';
import { initiateRequest } from './initiate-request.js';

export const initiateResponse = {
  type: 'object',
  required: ['pidx', 'payment_url', 'expires_at', 'expires_in'],
  properties: {
    pidx: { type: 'string', description: 'The payment identifier, used for every later reference.' },
    payment_url: { type: 'string', format: 'uri', description: 'Redirect the payer here.' },
    expires_at: { type: 'string', format: 'date-time' },
    expires_in: { type: 'integer', description: 'Seconds until the payment link expires.' },
  },
  additionalProperties: true,
  description: 'Also echoes every merchant_* field of the request.',
} as const;

export function registerInitiate(app: FastifyInstance, ctx: AppContext) {
  app.post(
    '/v2/epayment/initiate/',
    { config: { idempotent: true }, schema: { summary: 'Initiate a payment', body: fieldSchema(initiateRequest(ctx.config.maxAmountPaisa)), response: { 200: initiateResponse } } },
    async (request) => {
      const result = await initiatePayment(ctx, callerOf(request), request.body as InitiateInput);
      return {
        pidx: result.pidx,
        payment_url: result.payment_url,
        expires_at: formatTimestamp(result.expires_at, ctx.config.timeZone),
        expires_in: result.expires_in,
        ...result.merchant_fields,
      };
    },
  );
}
