// ePay v1, still posted by older plugins: POST /epay/main (the form; 302 to the hosted page) and
// /epay/transrec (the verification, answering XML; POST as eSewa documents it, GET as some
// plugins send it). No signature, as on eSewa.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { EsewaCredentialResolver } from '../../merchants/esewa-credentials.js';
import { findPaidDoorPayment } from '../../payments/payment-store.js';
import { doorCaller, formCaller } from './door-caller.js';
import { requestFields } from './esewa-fields.js';
import { esewaErrorOf } from './esewa-door-errors.js';
import { doorFieldsOf } from './esewa-return.js';
import { startEsewaPayment } from './start-esewa-payment.js';
import { readV1Form, readVerification, v1Order } from './v1-request.js';

const verdict = (reply: FastifyReply, status: number, code: 'Success' | 'failure') =>
  reply.code(status).type('text/xml; charset=utf-8').send(`<response><response_code>${code}</response_code></response>`);

export function registerV1(app: FastifyInstance, ctx: AppContext, resolve: EsewaCredentialResolver) {
  // POST as eSewa documents it; GET as v1 integrations send the browser (the fields in the query).
  const start = async (request: FastifyRequest, reply: FastifyReply) => {
    const fields = readV1Form(requestFields(request));
    const caller = await formCaller(ctx, resolve, fields.scd);
    return reply.redirect(await startEsewaPayment(ctx, caller, v1Order(fields, ctx.config.maxAmountPaisa)), 302);
  };
  app.post('/epay/main', start);
  app.get('/epay/main', start);

  // The verification speaks only XML: a malformed request is a 400 `failure`, anything that does not
  // match a paid payment a 200 `failure`, as eSewa answers it.
  app.register(async (transrec) => {
    transrec.setErrorHandler((error, request, reply) => {
      const answer = esewaErrorOf(error, request);
      if (answer.status >= 500) request.log.error({ err: error }, 'request failed');
      return verdict(reply.headers(answer.headers), answer.status, 'failure');
    });
    const verify = async (request: FastifyRequest, reply: FastifyReply) => {
      const read = readVerification(requestFields(request));
      if ('problems' in read) return verdict(reply, 400, 'failure');
      const { fields, paisa } = read;
      const caller = await doorCaller(ctx, resolve, fields.scd);
      if (!caller) return verdict(reply, 200, 'failure');
      const payment = await findPaidDoorPayment(ctx.db, { merchantId: caller.merchantId, environment: caller.environment, door: 'esewa-v1', purchaseOrderId: fields.pid });
      // Paid, and not wholly refunded: the payment still stands.
      const stands = payment?.status === 'Completed' || payment?.status === 'Partially refunded';
      const matches = stands && doorFieldsOf(payment).product_code === caller.productCode && payment.amount === paisa && payment.transaction_id === fields.rid;
      return verdict(reply, 200, matches ? 'Success' : 'failure');
    };
    transrec.post('/epay/transrec', verify);
    transrec.get('/epay/transrec', verify);
  });
}
