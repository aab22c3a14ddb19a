// The settlements API: request a payout, list them, read one with its records.
// Secret key, rate budget and test/live separation come from the API plugin; a request is idempotent
// with an Idempotency-Key, like initiate.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { callerOf } from '../http/authenticate.js';
import type { ApiCaller } from '../merchants/merchant.js';
import { fieldSchema } from '../http/field-schema.js';
import { integer, object } from '../http/fields.js';
import { paginatedSchema } from '../http/paginated.js';
import { pagingOf, pageQuerySchema } from '../transactions/list-query.js';
import { getPayoutWithRecords, listPayoutPage } from './list-payouts.js';
import { payoutJson, payoutSchema, payoutWithRecordsSchema } from './payout-json.js';
import { requestPayout } from './request-payout.js';

const SETTLEMENTS_PATH = '/api/v2/settlements/';

const payoutRequest = object({
  amount: integer({ min: 1, description: 'Paisa to pay out; without it, all that is available.' }),
});

const payoutPageSchema = paginatedSchema(payoutSchema);

const ownerOf = (caller: ApiCaller) => ({ merchantId: caller.merchant.id, environment: caller.environment });

export function registerSettlements(app: FastifyInstance, ctx: AppContext) {
  app.post(
    '/v2/settlements/',
    {
      config: { idempotent: true, errors: ['bad_request', 'validation_error', 'forbidden'] },
      schema: {
        summary: 'Request a payout to the bank account',
        description:
          'Moves `amount` (or all that is available) out of the available balance. Test payouts go through NPI’s simulator and become Paid by themselves within seconds; live payouts need an approved merchant with a bank account and go through the operator’s payout rail (NCHL’s NPI, or a bank file). A payout that cannot go yet stays Requested and says why in `waiting_reason`.',
        operationId: 'requestPayout',
        body: fieldSchema(payoutRequest, [{ amount: 500000 }, {}]),
        response: { 201: payoutSchema },
      },
    },
    async (request, reply) => {
      const { amount } = (request.body ?? {}) as { amount?: number };
      const payout = await requestPayout(ctx, { ...ownerOf(callerOf(request)), amount, requestedBy: 'api' });
      return reply.code(201).send(payoutJson(payout, ctx.config.timeZone));
    },
  );

  app.get(
    '/v2/settlements/',
    {
      config: { errors: ['invalid_page'] },
      schema: {
        summary: "List the merchant's payouts",
        description: 'Newest first, for the environment of the key used, in the paginated shape of the transaction list.',
        operationId: 'listPayouts',
        querystring: pageQuerySchema,
        response: { 200: payoutPageSchema },
      },
    },
    async (request) => {
      return listPayoutPage(ctx, ownerOf(callerOf(request)), pagingOf(request.query as Record<string, unknown>, { publicUrl: ctx.config.publicUrl, path: SETTLEMENTS_PATH }));
    },
  );

  app.get(
    '/v2/settlements/:idx/',
    {
      config: { errors: ['not_found'] },
      schema: {
        summary: 'One payout with the records it settles',
        description: 'The payments (with their fees) and refunds the payout settles, and totals that add up to its amount.',
        operationId: 'getPayout',
        params: { type: 'object', properties: { idx: { type: 'string' } }, required: ['idx'] },
        response: { 200: payoutWithRecordsSchema },
      },
    },
    async (request) => getPayoutWithRecords(ctx, ownerOf(callerOf(request)), (request.params as { idx: string }).idx),
  );
}
