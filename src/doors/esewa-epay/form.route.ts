// POST /api/epay/main/v2/form: ePay v2's form, posted by the payer's browser (or by a server that
// follows the 302): form-encoded, multipart or JSON, or in the query string. Accepted: 302 to the
// hosted page.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { EsewaCredentialResolver } from '../../merchants/esewa-credentials.js';
import { formCaller } from './door-caller.js';
import { requestFields } from './esewa-fields.js';
import { checkSignature, formOrder, readForm } from './form-request.js';
import { startEsewaPayment } from './start-esewa-payment.js';

export function registerForm(app: FastifyInstance, ctx: AppContext, resolve: EsewaCredentialResolver) {
  app.post('/api/epay/main/v2/form', async (request, reply) => {
    const fields = readForm(requestFields(request));
    const caller = await formCaller(ctx, resolve, fields.product_code);
    checkSignature(fields, caller.secretKeys);
    const order = formOrder(fields, ctx.config.maxAmountPaisa);
    return reply.redirect(await startEsewaPayment(ctx, caller, order), 302);
  });
}
