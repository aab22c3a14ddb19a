// GET /api/epay/transaction/status/: ePay v2's status check. No authorization, as on eSewa; it
// answers only for the product code's own payments, and an unknown product code is NOT_FOUND like
// an unknown payment, so it tells nobody which codes exist.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { EsewaCredentialResolver } from '../../merchants/esewa-credentials.js';
import { effectiveStatus } from '../../payments/payment.js';
import { findDoorPaymentStatus, type DoorPaymentStatus } from '../../payments/payment-store.js';
import { doorCaller } from './door-caller.js';
import { readFields, requestFields, rupeesField } from './esewa-fields.js';
import { refusal } from './esewa-errors.js';
import { esewaStatuses, esewaStatusOf, type EsewaStatus } from './esewa-status.js';
import { esewaRupees } from '../../protocols/esewa-epay/rupees.js';

const LIMITS = { product_code: 64, total_amount: 20, transaction_uuid: 100 };

const statusAnswer = {
  type: 'object',
  required: ['product_code', 'transaction_uuid', 'total_amount', 'status', 'ref_id'],
  properties: {
    product_code: { type: 'string' },
    transaction_uuid: { type: 'string' },
    total_amount: { type: 'number', description: 'Rupees.' },
    status: { type: 'string', enum: [...esewaStatuses] },
    ref_id: { type: ['string', 'null'], description: "The transaction code once paid (eSewa's data carries it as transaction_code), else null." },
  },
  examples: [{ product_code: 'EPAYTEST', transaction_uuid: '241028', total_amount: 110, status: 'COMPLETE', ref_id: 'x7Qm3Lr8YbN2cT5wZk9aFd' }],
} as const;

const refusalAnswer = {
  type: 'object',
  required: ['code', 'error_message'],
  properties: { code: { const: 0 }, error_message: { type: 'string' } },
  description: 'A parameter missing, repeated, blank, too long, or a total that is not rupees with at most two decimals.',
  examples: [{ code: 0, error_message: 'transaction_uuid is required. total_amount must be an amount in rupees such as 100 or 100.50: digits, at most two decimals, no sign.' }],
} as const;

const paid: readonly EsewaStatus[] = ['COMPLETE', 'PARTIAL_REFUND', 'FULL_REFUND'];

interface StatusAnswer {
  product_code: string;
  transaction_uuid: string;
  /** Paisa. */
  total_amount: number;
  status: EsewaStatus;
  ref_id: string | null;
}

/** The answer as eSewa writes it: the total a JSON number of rupees with one decimal at least (`110.0`), which JSON.stringify would write `110`. */
function statusJson(a: StatusAnswer): string {
  const json = JSON.stringify;
  return `{"product_code":${json(a.product_code)},"transaction_uuid":${json(a.transaction_uuid)},"total_amount":${esewaRupees(a.total_amount)},"status":${json(a.status)},"ref_id":${json(a.ref_id)}}`;
}

export function registerStatus(app: FastifyInstance, ctx: AppContext, resolve: EsewaCredentialResolver) {
  app.get(
    '/api/epay/transaction/status/',
    {
      config: { esewa: true },
      schema: {
        summary: 'eSewa ePay: check a payment (status check)',
        description:
          "eSewa's ePay v2 status check, for payments started through `POST /api/epay/main/v2/form`: no `Authorization`, the product code decides the merchant and environment. " +
          '`total_amount` in any of the forms clients send (`100`, `100.0`, `100.00`). COMPLETE (Completed), PENDING (Initiated, Pending), FULL_REFUND, PARTIAL_REFUND, ' +
          'CANCELED (User canceled, Expired), NOT_FOUND (no such payment for that product code, or another amount). Errors are eSewa\'s shape, `{"code":0,"error_message":…}`.',
        operationId: 'esewaStatusCheck',
        querystring: {
          type: 'object',
          required: ['product_code', 'total_amount', 'transaction_uuid'],
          properties: {
            product_code: { type: 'string', maxLength: 64, description: 'The merchant’s eSewa product code of the environment (or EPAYTEST for the sandbox demo).' },
            total_amount: { type: 'string', maxLength: 20, description: 'The total in rupees, as sent in the form.' },
            transaction_uuid: { type: 'string', maxLength: 100, description: 'The transaction_uuid of the form.' },
          },
        },
        response: { 200: statusAnswer, 400: refusalAnswer, 429: { ...refusalAnswer, description: 'More than RATE_LIMIT_TEST (or _LIVE) checks a second for one product code; see Retry-After.' } },
      },
    },
    async (request, reply) => {
      const { fields, problems } = readFields(requestFields(request), LIMITS);
      const asked = rupeesField('total_amount', fields.total_amount, problems);
      if (problems.length > 0) throw refusal(problems.join(' '));
      const answer = (status: EsewaStatus, payment?: DoorPaymentStatus) =>
        reply.type('application/json; charset=utf-8').serializer(statusJson).send({
          product_code: fields.product_code,
          transaction_uuid: fields.transaction_uuid,
          total_amount: payment?.amount ?? asked!,
          status,
          ref_id: payment && paid.includes(status) ? payment.transaction_id : null,
        });
      const caller = await doorCaller(ctx, resolve, fields.product_code);
      if (!caller) return answer('NOT_FOUND');
      const payment = await findDoorPaymentStatus(ctx.db, { merchantId: caller.merchantId, environment: caller.environment, door: 'esewa-v2', purchaseOrderId: fields.transaction_uuid });
      if (!payment || payment.product_code !== caller.productCode || payment.amount !== asked) return answer('NOT_FOUND');
      return answer(esewaStatusOf(effectiveStatus(payment, ctx.clock.now())), payment);
    },
  );
}
