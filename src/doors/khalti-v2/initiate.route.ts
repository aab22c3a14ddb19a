import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { callerOf } from '../../http/authenticate.js';
import { fieldSchema } from '../../http/field-schema.js';
import { formatTimestamp } from '../../http/timestamp.js';
import { answerInTransaction } from '../../http/idempotency.js';
import { initiatePayment, type InitiateInput, type InitiateResult } from '../../payments/initiate-payment.js';
import { initiateRequest } from './initiate-request.js';

export const initiateResponse = {
  type: 'object',
  required: ['pidx', 'payment_url', 'expires_at', 'expires_in'],
  properties: {
    pidx: { type: 'string', description: 'The payment identifier, used for every later reference.' },
    payment_url: {
      type: 'string',
      format: 'uri',
      description: 'Redirect the payer here: the hosted page, with the payment in its query as on the real gateway (`<PUBLIC_URL>/pay/?pidx=<pidx>`). Addresses given out before (`/pay/<pidx>`) keep working.',
      examples: ['http://localhost:8080/pay/?pidx=bZQLD9wRVWo4CdESSfuSsB'],
    },
    expires_at: { type: 'string', format: 'date-time' },
    expires_in: { type: 'integer', description: 'Seconds until the payment link expires.' },
  },
  additionalProperties: true,
  description: 'Also echoes every merchant_* field of the request.',
} as const;

export const initiateExamples = [
  {
    return_url: 'https://shop.example.com/payment/return',
    website_url: 'https://shop.example.com',
    amount: 1300,
    purchase_order_id: 'order-1001',
    purchase_order_name: 'Green tea, 500 g',
    customer_info: { name: 'Sita Sharma', email: 'sita@example.com', phone: '9800000001' },
    amount_breakdown: [
      { label: 'Mark price', amount: 1000 },
      { label: 'VAT', amount: 300 },
    ],
    product_details: [{ identity: 'tea-500', name: 'Green tea, 500 g', total_price: 1300, quantity: 1, unit_price: 1300 }],
    merchant_username: 'tea-shop',
    merchant_extra: 'cart-77',
  },
  { return_url: 'https://shop.example.com/return', website_url: 'https://shop.example.com', amount: '1000', purchase_order_id: 'order-1002', purchase_order_name: 'Black tea' },
];

export function registerInitiate(app: FastifyInstance, ctx: AppContext) {
  app.post(
    '/v2/epayment/initiate/',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Initiate a payment',
        description:
          'Stores a payment and answers its `pidx` and the hosted `payment_url` to send the payer to (`<PUBLIC_URL>/pay/?pidx=<pidx>`). `merchant_*` fields are echoed. ' +
          'When the payer is done, their browser is sent (303) to `return_url` with `pidx`, `transaction_id`, `tidx`, `txnId` (the last three one value, empty on cancel), ' +
          '`amount`, `total_amount`, `mobile` (masked), `status`, `purchase_order_id`, `purchase_order_name` and `signature` added to its query.',
        operationId: 'initiatePayment',
        body: fieldSchema(initiateRequest(ctx.config.maxAmountPaisa), initiateExamples),
        response: { 200: initiateResponse },
      },
    },
    async (request) => {
      const answerOf = (result: InitiateResult) => ({
        pidx: result.pidx,
        payment_url: result.payment_url,
        expires_at: formatTimestamp(result.expires_at, ctx.config.timeZone),
        expires_in: result.expires_in,
        ...result.merchant_fields,
      });
      const result = await initiatePayment(ctx, callerOf(request), request.body as InitiateInput, (made) => answerInTransaction(request, 200, answerOf(made)));
      return answerOf(result);
    },
  );
}
