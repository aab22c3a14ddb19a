// eSewa's sandbox as a simulator: ePay v2's signed form and status check under
// PUBLIC_URL/sandbox/esewa, with eSewa's shapes and signature, and its payment page, where the
// developer picks what happens. It answers to eSewa's published test pair (EPAYTEST). It is eSewa's
// side, written from eSewa's pages, never from the connector: only the signature and the amounts
// come from the one module every side of ePay shares, held to eSewa's published vectors.
import type { FastifyInstance } from 'fastify';
import { csrfToken, csrfValid } from '../../http/csrf.js';
import type { SimulatorTools } from '../simulator-tools.js';
import { ESEWA_TEST_PAIR } from '../../providers/esewa/test-pair.js';
import { sendSimulatorPage } from '../simulator-page.js';
import { countStatusCheck, findSimulation, insertSimulation, namesLivePayment, pickOutcome, simulatedOutcomes, simulatedStatus, type SimulatedOutcome } from '../simulator-store.js';
import { esewaRupees, paisaOf } from '../../protocols/esewa-epay/rupees.js';
import { signedBy, signedFieldNames, signFields } from '../../protocols/esewa-epay/signature.js';

const text = (source: unknown, name: string) => {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

const FORM_FIELDS = ['amount', 'tax_amount', 'total_amount', 'transaction_uuid', 'product_code', 'product_service_charge', 'product_delivery_charge', 'success_url', 'failure_url', 'signed_field_names', 'signature'];
const RETURN_SIGNED = 'transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names';

export function registerEsewaSimulator(app: FastifyInstance, { ctx, csrfSecret, silence }: SimulatorTools) {
  const { product_code: productCode, secret_key: secretKey } = ESEWA_TEST_PAIR;

  app.post('/sandbox/esewa/api/epay/main/v2/form', async (request, reply) => {
    const body = request.body;
    const missing = FORM_FIELDS.filter((name) => !text(body, name));
    if (missing.length) return reply.code(400).send({ code: 0, error_message: `${missing.join(', ')} required` });
    if (text(body, 'product_code') !== productCode) return reply.code(400).send({ code: 0, error_message: 'Unable to fetch merchant key. Please try again later.' });
    const fields = Object.fromEntries(FORM_FIELDS.map((name) => [name, text(body, name)]));
    if (!signedBy([secretKey], fields)) return reply.code(400).send({ code: 'ES104', message: 'Invalid payload signature.' });
    const amount = paisaOf(fields.total_amount);
    if (amount === undefined || amount < 10) return reply.code(400).send({ code: 0, error_message: 'Invalid total_amount.' });
    if (await namesLivePayment(ctx.db, fields.transaction_uuid)) return reply.code(400).send({ code: 0, error_message: 'Invalid transaction_uuid.' });
    await insertSimulation(ctx.db, {
      provider: 'esewa',
      reference: fields.transaction_uuid,
      amount,
      details: { success_url: fields.success_url, failure_url: fields.failure_url, name: `eSewa payment ${fields.transaction_uuid}` },
      created_at: ctx.clock.now(),
    });
    return reply.code(302).redirect(`/sandbox/esewa/pay?ref=${encodeURIComponent(fields.transaction_uuid)}`);
  });

  app.get('/sandbox/esewa/pay', async (request, reply) => {
    const ref = text(request.query, 'ref');
    const simulation = ref ? await findSimulation(ctx.db, 'esewa', ref) : undefined;
    if (!simulation) return reply.code(404).send({ code: 0, error_message: 'Not found.' });
    const csrf = csrfToken(request, reply, csrfSecret, { binding: `sandbox:esewa:${ref}`, secure: ctx.config.publicUrl.startsWith('https:') });
    const origins = [simulation.details.success_url, simulation.details.failure_url].map((u) => new URL(u).origin);
    return sendSimulatorPage(reply, { label: 'eSewa', simulation, action: '/sandbox/esewa/pay', fields: [['ref', ref]], csrf, returnOrigins: origins });
  });

  // The payer's choice; then to success_url with the signed `data`, or to failure_url.
  app.post('/sandbox/esewa/pay', async (request, reply) => {
    const ref = text(request.body, 'ref');
    const outcome = text(request.body, 'outcome') as SimulatedOutcome;
    if (!csrfValid(request, csrfSecret, `sandbox:esewa:${ref}`) || !simulatedOutcomes.includes(outcome)) return reply.code(400).send({ code: 0, error_message: 'Bad request.' });
    const simulation = await pickOutcome(ctx.db, 'esewa', ref, outcome, ctx.ids.random(8).toUpperCase());
    if (!simulation) return reply.code(404).send({ code: 0, error_message: 'Not found.' });
    const canceled = simulation.outcome === 'canceled';
    const data: Record<string, string> = {
      ...(canceled ? {} : { transaction_code: simulation.transaction_id ?? '' }),
      status: canceled ? 'CANCELED' : simulation.outcome === 'pending_then_paid' ? 'PENDING' : 'COMPLETE',
      total_amount: esewaRupees(simulation.amount),
      transaction_uuid: ref,
      product_code: productCode,
      signed_field_names: canceled ? RETURN_SIGNED.replace('transaction_code,', '') : RETURN_SIGNED,
    };
    data.signature = signFields(secretKey, data, signedFieldNames(data.signed_field_names));
    const target = canceled ? simulation.details.failure_url : simulation.details.success_url;
    return reply.code(303).redirect(`${target}?data=${encodeURIComponent(Buffer.from(JSON.stringify(data)).toString('base64'))}`);
  });

  app.get('/sandbox/esewa/api/epay/transaction/status/', async (request, reply) => {
    const query = request.query;
    const ref = text(query, 'transaction_uuid');
    const simulation = ref && text(query, 'product_code') === productCode ? await findSimulation(ctx.db, 'esewa', ref) : undefined;
    const asked = paisaOf(text(query, 'total_amount'));
    // The total as eSewa writes it in this answer: a JSON number with one decimal at least (`100.0`).
    const answer = (status: string, refId: string | null = null) =>
      reply.type('application/json').send(`{"product_code":${JSON.stringify(text(query, 'product_code'))},"transaction_uuid":${JSON.stringify(ref)},"total_amount":${asked === undefined ? 0 : esewaRupees(asked)},"status":${JSON.stringify(status)},"ref_id":${JSON.stringify(refId)}}`);
    if (!simulation || asked !== simulation.amount) return answer('NOT_FOUND');
    const status = simulatedStatus(simulation, await countStatusCheck(ctx.db, 'esewa', ref));
    if (status === 'silent') return silence().then(() => reply.code(504).send({ code: 0, error_message: 'Gateway timeout.' }));
    if (status === 'paid') return answer(simulation.refunded ? (simulation.refunded === simulation.amount ? 'FULL_REFUND' : 'PARTIAL_REFUND') : 'COMPLETE', simulation.transaction_id);
    return answer({ open: 'PENDING', canceled: 'CANCELED', undecided: 'AMBIGUOUS' }[status]);
  });
}
