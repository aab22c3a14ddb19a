// Khalti's sandbox as a simulator: the v2 web checkout's initiate, lookup and
// refund under PUBLIC_URL/sandbox/khalti, with Khalti's shapes, and its payment page, where the
// developer picks what happens. It answers only to the sandbox's own key.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { csrfToken, csrfValid } from '../../http/csrf.js';
import type { SimulatorTools } from '../simulator-tools.js';
import { sendSimulatorPage } from '../simulator-page.js';
import { addSimulationDetails, countStatusCheck, findSimulation, findSimulationByTransaction, insertSimulation, pickOutcome, refundSimulation, simulatedOutcomes, simulatedStatus, type SimulatedOutcome } from '../simulator-store.js';

const field = (body: unknown, name: string): unknown => (body as Record<string, unknown> | undefined)?.[name];
const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

export function registerKhaltiSimulator(app: FastifyInstance, { ctx, csrfSecret, silence, sandboxSetup }: SimulatorTools) {
  const base = `${ctx.config.publicUrl}/sandbox/khalti`;

  async function authorized(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const expected = Buffer.from(`Key ${(await sandboxSetup()).credentials.secret_key}`);
    const given = Buffer.from(String(request.headers.authorization ?? ''));
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
    reply.code(401).send({ detail: 'Invalid token.', status_code: 401 });
    return false;
  }

  app.post('/sandbox/khalti/api/v2/epayment/initiate/', async (request, reply) => {
    if (!(await authorized(request, reply))) return reply;
    const body = request.body;
    const amount = Number(text(field(body, 'amount')));
    const fields: Record<string, string[]> = {};
    for (const name of ['return_url', 'website_url', 'purchase_order_id', 'purchase_order_name']) if (!text(field(body, name))) fields[name] = ['This field is required.'];
    // Khalti's least, and its words for it (docs.khalti.com, Web Checkout, initiate's errors).
    if (!Number.isSafeInteger(amount)) fields.amount = ['A valid integer is required.'];
    else if (amount < 1000) fields.amount = ['Amount should be greater than Rs. 10, that is 1000 paisa.'];
    if (Object.keys(fields).length) return reply.code(400).send({ ...fields, error_key: 'validation_error' });
    const pidx = ctx.ids.random(16);
    const now = ctx.clock.now();
    await insertSimulation(ctx.db, {
      provider: 'khalti',
      reference: pidx,
      amount,
      details: {
        return_url: text(field(body, 'return_url')),
        purchase_order_id: text(field(body, 'purchase_order_id')),
        name: text(field(body, 'purchase_order_name')),
        // Kept as Khalti keeps whom it bills (shown to developers who look).
        customer_info: JSON.stringify(field(body, 'customer_info') ?? null),
      },
      created_at: now,
    });
    const expiresIn = ctx.config.paymentTtlSeconds;
    return { pidx, payment_url: `${base}/pay?pidx=${pidx}`, expires_at: new Date(now.getTime() + expiresIn * 1000).toISOString(), expires_in: expiresIn };
  });

  app.post('/sandbox/khalti/api/v2/epayment/lookup/', async (request, reply) => {
    if (!(await authorized(request, reply))) return reply;
    const pidx = text(field(request.body, 'pidx'));
    const simulation = pidx ? await findSimulation(ctx.db, 'khalti', pidx) : undefined;
    if (!simulation) return reply.code(404).send({ detail: 'Not found.', error_key: 'validation_error' });
    const status = simulatedStatus(simulation, await countStatusCheck(ctx.db, 'khalti', pidx));
    if (status === 'silent') return silence().then(() => reply.code(504).send({ detail: 'Gateway timeout.' }));
    const paid = status === 'paid';
    const name = paid ? (simulation.refunded === 0 ? 'Completed' : simulation.refunded === simulation.amount ? 'Refunded' : 'Partially refunded') : { open: 'Initiated', canceled: 'User canceled', undecided: 'Pending' }[status];
    return reply.code(status === 'canceled' ? 400 : 200).send({
      pidx,
      total_amount: simulation.amount,
      status: name,
      transaction_id: paid ? simulation.transaction_id : null,
      fee: 0,
      refunded: simulation.refunded > 0,
    });
  });

  app.post('/sandbox/khalti/api/merchant-transaction/:transactionId/refund/', async (request, reply) => {
    if (!(await authorized(request, reply))) return reply;
    const simulation = await findSimulationByTransaction(ctx.db, 'khalti', (request.params as { transactionId: string }).transactionId);
    if (!simulation || simulatedStatus(simulation, 99) !== 'paid') return reply.code(404).send({ detail: 'Not found.', error_key: 'validation_error' });
    // A payment made from a bank is refunded to a Khalti account: its refund API requires the mobile (docs.khalti.com, Refund API).
    if (simulation.details.paid_from === 'bank' && !/^9\d{9}$/.test(text(field(request.body, 'mobile')))) {
      return reply.code(400).send({ mobile: ['This field is required.'], error_key: 'validation_error' });
    }
    if (simulation.details.paid_from === 'bank') await addSimulationDetails(ctx.db, 'khalti', simulation.reference, { refunded_to: text(field(request.body, 'mobile')) });
    const given = field(request.body, 'amount');
    const amount = given === undefined ? simulation.amount - simulation.refunded : Number(text(given));
    if (!Number.isSafeInteger(amount) || amount <= 0 || !(await refundSimulation(ctx.db, 'khalti', simulation.reference, amount))) {
      return reply.code(400).send({ detail: 'Refund amount exceeds the refundable amount.', error_key: 'validation_error' });
    }
    return { detail: 'Transaction refund successful.' };
  });

  app.get('/sandbox/khalti/pay', async (request, reply) => {
    const pidx = text((request.query as Record<string, unknown>).pidx);
    const simulation = pidx ? await findSimulation(ctx.db, 'khalti', pidx) : undefined;
    if (!simulation) return reply.code(404).send({ detail: 'Not found.' });
    const csrf = csrfToken(request, reply, csrfSecret, { binding: `sandbox:khalti:${pidx}`, secure: ctx.config.publicUrl.startsWith('https:') });
    return sendSimulatorPage(reply, {
      label: 'Khalti',
      simulation,
      action: '/sandbox/khalti/pay',
      fields: [['pidx', pidx]],
      csrf,
      returnOrigins: [new URL(simulation.details.return_url).origin],
      moreChoices: [['paid', 'Pay from a bank', 'The payment succeeds from a bank account: Khalti refunds it only with the payer’s mobile.', [['paid_from', 'bank']]]],
    });
  });

  // The payer's choice; then back to return_url with Khalti's callback parameters.
  app.post('/sandbox/khalti/pay', async (request, reply) => {
    const pidx = text(field(request.body, 'pidx'));
    const outcome = text(field(request.body, 'outcome')) as SimulatedOutcome;
    if (!csrfValid(request, csrfSecret, `sandbox:khalti:${pidx}`) || !simulatedOutcomes.includes(outcome)) return reply.code(400).send({ detail: 'Bad request.' });
    if (text(field(request.body, 'paid_from')) === 'bank' && (await findSimulation(ctx.db, 'khalti', pidx))?.outcome === 'open') await addSimulationDetails(ctx.db, 'khalti', pidx, { paid_from: 'bank' });
    const simulation = await pickOutcome(ctx.db, 'khalti', pidx, outcome, ctx.ids.random(16));
    if (!simulation) return reply.code(404).send({ detail: 'Not found.' });
    const canceled = simulation.outcome === 'canceled';
    const status = canceled ? 'User canceled' : simulation.outcome === 'pending_then_paid' ? 'Pending' : 'Completed';
    const url = new URL(simulation.details.return_url);
    const transactionId = canceled ? '' : (simulation.transaction_id ?? '');
    for (const [name, value] of Object.entries({
      pidx,
      transaction_id: transactionId,
      tidx: transactionId,
      // Khalti's sample callbacks: txnId after a payment only.
      ...(canceled ? {} : { txnId: transactionId }),
      amount: String(simulation.amount),
      total_amount: String(simulation.amount),
      mobile: canceled ? '' : '98XXXXXXX1',
      status,
      purchase_order_id: simulation.details.purchase_order_id,
      purchase_order_name: simulation.details.name,
    })) {
      url.searchParams.set(name, value);
    }
    return reply.code(303).redirect(url.toString());
  });
}
