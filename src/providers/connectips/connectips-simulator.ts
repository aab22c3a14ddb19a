// connectIPS's sandbox as a simulator (contract section 13): the login page's signed form and the
// validation API (validatetxn: basic authentication, a signed token) under PUBLIC_URL/sandbox/connectips,
// with NCHL's shapes, and its payment page, where the developer picks what happens. It checks every
// TOKEN against the sandbox merchant's certificate, as NCHL checks a merchant's.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { csrfToken, csrfValid } from '../../http/csrf.js';
import type { SimulatorTools } from '../provider.js';
import { sendSimulatorPage } from '../simulator-page.js';
import { countStatusCheck, findSimulation, insertSimulation, pickOutcome, simulatedOutcomes, simulatedStatus, type SimulatedOutcome } from '../simulator-store.js';
import { formFieldOrder, formTokenMessage, readPfx, tokenValid, validationTokenMessage, type FormFields } from './connectips-token.js';

const text = (source: unknown, name: string) => {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
};

export function registerConnectipsSimulator(app: FastifyInstance, { ctx, csrfSecret, silence, sandboxSetup }: SimulatorTools) {
  const merchant = async () => {
    const setup = await sandboxSetup();
    return { setup, publicKey: readPfx(Buffer.from(setup.credentials.pfx, 'base64'), '').publicKey };
  };
  const back = (outcome: 'success' | 'failure', txnId: string) => `${ctx.config.publicUrl}/pay/return/connectips/${outcome}?TXNID=${encodeURIComponent(txnId)}`;

  app.post('/sandbox/connectips/connectipswebgw/loginpage', async (request, reply) => {
    const { setup, publicKey } = await merchant();
    const fields = Object.fromEntries(formFieldOrder.map((name) => [name, text(request.body, name)])) as FormFields;
    const missing = formFieldOrder.filter((name) => !fields[name]);
    if (missing.length) return reply.code(400).type('text/plain').send(`Missing ${missing.join(', ')}`);
    if (fields.MERCHANTID !== setup.settings.merchant_id || fields.APPID !== setup.settings.app_id) return reply.code(400).type('text/plain').send('Invalid merchant or application');
    if (!tokenValid(publicKey, formTokenMessage(fields), text(request.body, 'TOKEN'))) return reply.code(400).type('text/plain').send('Invalid token');
    const amount = Number(fields.TXNAMT);
    if (!/^\d{1,15}$/.test(fields.TXNAMT) || fields.TXNID.length > 20) return reply.code(400).type('text/plain').send('Invalid TXNAMT or TXNID');
    await insertSimulation(ctx.db, { provider: 'connectips', reference: fields.TXNID, amount, details: { name: fields.REMARKS }, created_at: ctx.clock.now() });
    return reply.code(302).redirect(`/sandbox/connectips/pay?txn=${encodeURIComponent(fields.TXNID)}`);
  });

  app.get('/sandbox/connectips/pay', async (request, reply) => {
    const ref = text(request.query, 'txn');
    const simulation = ref ? await findSimulation(ctx.db, 'connectips', ref) : undefined;
    if (!simulation) return reply.code(404).type('text/plain').send('Not found');
    const csrf = csrfToken(request, reply, csrfSecret, { binding: `sandbox:connectips:${ref}`, secure: ctx.config.publicUrl.startsWith('https:') });
    return sendSimulatorPage(reply, { label: 'connectIPS', simulation, action: '/sandbox/connectips/pay', fields: [['txn', ref]], csrf, returnOrigins: [new URL(ctx.config.publicUrl).origin] });
  });

  app.post('/sandbox/connectips/pay', async (request, reply) => {
    const ref = text(request.body, 'txn');
    const outcome = text(request.body, 'outcome') as SimulatedOutcome;
    if (!csrfValid(request, csrfSecret, `sandbox:connectips:${ref}`) || !simulatedOutcomes.includes(outcome)) return reply.code(400).type('text/plain').send('Bad request');
    const simulation = await pickOutcome(ctx.db, 'connectips', ref, outcome, ref);
    if (!simulation) return reply.code(404).type('text/plain').send('Not found');
    return reply.code(303).redirect(back(simulation.outcome === 'canceled' ? 'failure' : 'success', ref));
  });

  const basicAuthorized = (request: FastifyRequest, appId: string, password: string) => {
    const expected = Buffer.from(`Basic ${Buffer.from(`${appId}:${password}`).toString('base64')}`);
    const given = Buffer.from(String(request.headers.authorization ?? ''));
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  app.post('/sandbox/connectips/connectipswebws/api/creditor/validatetxn', async (request, reply) => {
    const { setup, publicKey } = await merchant();
    if (!basicAuthorized(request, setup.settings.app_id, setup.credentials.password)) return reply.code(401).send({ error: 'Unauthorized' });
    const body = request.body;
    const request_ = { merchantId: text(body, 'merchantId'), appId: text(body, 'appId'), referenceId: text(body, 'referenceId'), txnAmt: text(body, 'txnAmt') };
    const answer = (status: string, statusDesc: string) => ({ merchantId: Number(request_.merchantId), appId: request_.appId, referenceId: request_.referenceId, txnAmt: request_.txnAmt, token: null, status, statusDesc });
    if (!tokenValid(publicKey, validationTokenMessage(request_), text(body, 'token'))) return answer('ERROR', 'INVALID TOKEN');
    const simulation = await findSimulation(ctx.db, 'connectips', request_.referenceId);
    if (!simulation || String(simulation.amount) !== request_.txnAmt) return answer('FAILED', 'TRANSACTION NOT FOUND');
    const status = simulatedStatus(simulation, await countStatusCheck(ctx.db, 'connectips', request_.referenceId));
    if (status === 'silent') return silence().then(() => reply.code(504).send({ error: 'Gateway timeout' }));
    if (status === 'paid') return answer('SUCCESS', 'TRANSACTION SUCCESSFUL');
    if (status === 'undecided') return answer('ERROR', 'TRANSACTION STATUS UNKNOWN');
    return answer('FAILED', status === 'canceled' ? 'TRANSACTION CANCELLED' : 'TRANSACTION NOT COMPLETED');
  });
}
