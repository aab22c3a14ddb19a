// The payment links API: create, list, read one, deactivate and activate.
// Secret key, rate budget and test/live separation come from the API plugin; creating is
// idempotent with an Idempotency-Key, like initiate.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { callerOf } from '../http/authenticate.js';
import { fieldSchema } from '../http/field-schema.js';
import type { ApiCaller } from '../merchants/merchant.js';
import { pagingOf, pageQuerySchema } from '../transactions/list-query.js';
import { createPaymentLink } from './create-payment-link.js';
import { getPaymentLink, listPaymentLinkPage, paymentLinksJson } from './list-payment-links.js';
import { paymentLinkPageSchema, paymentLinkSchema } from './payment-link-json.js';
import { paymentLinkRequest, type PaymentLinkInput } from './payment-link-request.js';
import { setPaymentLinkActive } from './set-payment-link-active.js';

const LINKS_PATH = '/api/v2/payment-links/';

const ownerOf = (caller: ApiCaller) => ({ merchantId: caller.merchant.id, environment: caller.environment });

export const paymentLinkExamples = [
  { name: 'Momo platter', amount: 45000, description: 'Ten steamed buffalo momos with achar.', ask: ['name', 'phone'] },
  { name: 'Tuition, May', min_amount: 100000, max_amount: 1500000, expires_on: '2030-05-31', max_payments: 30, ask: ['name', 'email'] },
];

const idxParams = { type: 'object', properties: { idx: { type: 'string' } }, required: ['idx'] } as const;

export function registerPaymentLinks(app: FastifyInstance, ctx: AppContext) {
  app.post(
    '/v2/payment-links/',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Create a payment link',
        description:
          'A link whose page (`url`, or its QR code) lets payers pay the merchant without a website: a fixed `amount`, or one the payer chooses between `min_amount` and `max_amount`. ' +
          'Each payment made through it is an ordinary payment of this environment (lookup, the list, webhooks, refunds and settlements), whose records and webhooks name the link (`payment_link`).',
        operationId: 'createPaymentLink',
        body: fieldSchema(paymentLinkRequest({ maxAmountPaisa: ctx.config.maxAmountPaisa, timeZone: ctx.config.timeZone, now: () => ctx.clock.now() }), paymentLinkExamples),
        response: { 201: paymentLinkSchema },
      },
    },
    async (request, reply) => {
      const link = await createPaymentLink(ctx, { owner: ownerOf(callerOf(request)), input: request.body as PaymentLinkInput, createdBy: 'api' });
      return reply.code(201).send((await paymentLinksJson(ctx, [link]))[0]);
    },
  );

  app.get(
    '/v2/payment-links/',
    {
      config: { errors: ['invalid_page'] },
      schema: {
        summary: "List the merchant's payment links",
        description: 'Newest first, for the environment of the key used, each with its totals, in the paginated shape of the transaction list.',
        operationId: 'listPaymentLinks',
        querystring: pageQuerySchema,
        response: { 200: paymentLinkPageSchema },
      },
    },
    async (request) => {
      return listPaymentLinkPage(ctx, ownerOf(callerOf(request)), pagingOf(request.query as Record<string, unknown>, { publicUrl: ctx.config.publicUrl, path: LINKS_PATH }));
    },
  );

  app.get(
    '/v2/payment-links/:idx/',
    {
      config: { errors: ['not_found'] },
      schema: {
        summary: 'One payment link, with its totals',
        description: 'Its settings, whether it takes payments now (`status`), and how many paid payments it has taken and for how much.',
        operationId: 'getPaymentLink',
        params: idxParams,
        response: { 200: paymentLinkSchema },
      },
    },
    async (request) => getPaymentLink(ctx, ownerOf(callerOf(request)), (request.params as { idx: string }).idx),
  );

  for (const [verb, active] of [
    ['deactivate', false],
    ['activate', true],
  ] as const) {
    app.post(
      `/v2/payment-links/:idx/${verb}/`,
      {
        config: { errors: ['not_found'] },
        schema: {
          summary: active ? 'Activate a payment link again' : 'Deactivate a payment link',
          description: active
            ? 'Its page takes payments again (unless it has expired or taken max_payments).'
            : 'Its page says it no longer takes payments; payments already started from it may still be paid until they expire. Done again, nothing changes.',
          operationId: active ? 'activatePaymentLink' : 'deactivatePaymentLink',
          params: idxParams,
          response: { 200: paymentLinkSchema },
        },
      },
      async (request) => {
        const link = await setPaymentLinkActive(ctx, { owner: ownerOf(callerOf(request)), idx: (request.params as { idx: string }).idx, active });
        return (await paymentLinksJson(ctx, [link]))[0];
      },
    );
  }
}
