// connectIPS's sandbox as a simulator: the login page's signed form and the
// validation API (validatetxn: basic authentication, a signed token) under PUBLIC_URL/sandbox/connectips,
// with NCHL's shapes, and its payment page, where the developer picks what happens. It checks every
// TOKEN against the sandbox merchant's certificate, as NCHL checks a merchant's. It is NCHL's side,
// written from NCHL's pages (fixtures/nchl-gateway.ts), never from the connector's code: the two
// meet only on the wire, and each is held to NCHL's examples.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { csrfToken, csrfValid } from '../../http/csrf.js';
import type { SimulatorTools } from '../simulator-tools.js';
import { sendSimulatorPage } from '../simulator-page.js';
import { countStatusCheck, findSimulation, insertSimulation, namesLivePayment, pickOutcome, simulatedOutcomes, simulatedStatus, type SimulatedOutcome } from '../simulator-store.js';
import { certificateKey } from '../../providers/connectips/sandbox-certificate.js';

/** The login page's fields, in the order NCHL's token message takes them (merchant interface, 3.2 and 3.3.1). */
const LOGIN_FIELDS = ['MERCHANTID', 'APPID', 'APPNAME', 'TXNID', 'TXNDATE', 'TXNCRNCY', 'TXNAMT', 'REFERENCEID', 'REMARKS', 'PARTICULARS'] as const;
type LoginForm = Record<(typeof LOGIN_FIELDS)[number], string>;

/** What a login page's TOKEN signs: NAME=value of each field in that order, then TOKEN=TOKEN. */
const loginMessage = (form: LoginForm) => `${LOGIN_FIELDS.map((name) => `${name}=${form[name]}`).join(',')},TOKEN=TOKEN`;

/** What validatetxn's token signs (payment validation, token string format). */
const validationMessage = (body: { merchantId: string; appId: string; referenceId: string; txnAmt: string }) =>
  `MERCHANTID=${body.merchantId},APPID=${body.appId},REFERENCEID=${body.referenceId},TXNAMT=${body.txnAmt}`;

/** SHA256withRSA, base64: as NCHL checks a token with the merchant's certificate. */
function signedBy(certificate: KeyObject, message: string, token: string): boolean {
  try {
    return verify('sha256', Buffer.from(message, 'utf8'), certificate, Buffer.from(token, 'base64'));
  } catch {
    return false;
  }
}

const text = (source: unknown, name: string) => {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
};

export function registerConnectipsSimulator(app: FastifyInstance, { ctx, csrfSecret, silence, sandboxSetup }: SimulatorTools) {
  // The certificate read once per PFX (node-forge's PKCS#12 decryption is slow).
  let known: { pfx: string; certificate: KeyObject } | undefined;
  const merchant = async () => {
    const setup = await sandboxSetup();
    if (known?.pfx !== setup.credentials.pfx) known = { pfx: setup.credentials.pfx, certificate: certificateKey(Buffer.from(setup.credentials.pfx, 'base64')) };
    return { setup, certificate: known.certificate };
  };
  const back = (outcome: 'success' | 'failure', txnId: string) => `${ctx.config.publicUrl}/pay/return/connectips/${outcome}?TXNID=${encodeURIComponent(txnId)}`;

  app.post('/sandbox/connectips/connectipswebgw/loginpage', async (request, reply) => {
    const { setup, certificate } = await merchant();
    const fields = Object.fromEntries(LOGIN_FIELDS.map((name) => [name, text(request.body, name)])) as LoginForm;
    const missing = LOGIN_FIELDS.filter((name) => !fields[name]);
    if (missing.length) return reply.code(400).type('text/plain').send(`Missing ${missing.join(', ')}`);
    if (fields.MERCHANTID !== setup.settings.merchant_id || fields.APPID !== setup.settings.app_id) return reply.code(400).type('text/plain').send('Invalid merchant or application');
    if (!signedBy(certificate, loginMessage(fields), text(request.body, 'TOKEN'))) return reply.code(400).type('text/plain').send('Invalid token');
    const amount = Number(fields.TXNAMT);
    if (!/^\d{1,15}$/.test(fields.TXNAMT) || fields.TXNID.length > 20) return reply.code(400).type('text/plain').send('Invalid TXNAMT or TXNID');
    if (await namesLivePayment(ctx.db, fields.TXNID)) return reply.code(400).type('text/plain').send('Invalid TXNID');
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
    const { setup, certificate } = await merchant();
    if (!basicAuthorized(request, setup.settings.app_id, setup.credentials.password)) return reply.code(401).send({ error: 'Unauthorized' });
    const body = request.body;
    const request_ = { merchantId: text(body, 'merchantId'), appId: text(body, 'appId'), referenceId: text(body, 'referenceId'), txnAmt: text(body, 'txnAmt') };
    const answer = (status: string, statusDesc: string) => ({ merchantId: Number(request_.merchantId), appId: request_.appId, referenceId: request_.referenceId, txnAmt: request_.txnAmt, token: null, status, statusDesc });
    if (!signedBy(certificate, validationMessage(request_), text(body, 'token'))) return answer('ERROR', 'INVALID TOKEN');
    const simulation = await findSimulation(ctx.db, 'connectips', request_.referenceId);
    if (!simulation || String(simulation.amount) !== request_.txnAmt) return answer('FAILED', 'TRANSACTION NOT FOUND');
    const status = simulatedStatus(simulation, await countStatusCheck(ctx.db, 'connectips', request_.referenceId));
    if (status === 'silent') return silence().then(() => reply.code(504).send({ error: 'Gateway timeout' }));
    // As NCHL's example answer spells it.
    if (status === 'paid') return answer('SUCCESS', 'TRANSACTION SUCESSFULL');
    if (status === 'undecided') return answer('ERROR', 'TRANSACTION STATUS UNKNOWN');
    return answer('FAILED', status === 'canceled' ? 'TRANSACTION CANCELLED' : 'TRANSACTION NOT COMPLETED');
  });
}
