// Fonepay's sandbox as a simulator (docs/fonepay.md), written from Fonepay's documents and not from
// the connector: under PUBLIC_URL/sandbox/fonepay, the web checkout (/api/merchantRequest, its page,
// the signed return to RU, verificationMerchant's XML) and the dynamic QR API
// (thirdPartyDynamicQrDownload with an EMVCo QR message, thirdPartyDynamicQrGetStatus, the QR's
// WebSocket notifications), with a bank app's page that pays a QR. It answers to Fonepay's published
// test merchant (fonepay123).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { escapeHtml } from '../../http/html.js';
import { csrfToken, csrfValid } from '../../http/csrf.js';
import { FONEPAY_TEST_MERCHANT } from '../../providers/fonepay/test-merchant.js';
import type { SimulatorTools } from '../simulator-tools.js';
import { addSimulationDetails, countStatusCheck, findSimulation, findSimulationByDetail, insertSimulation, namesLivePayment, pickOutcome, simulatedStatus, type Simulation } from '../simulator-store.js';
import { dataValidation, dataValidationMatches } from '../../protocols/fonepay/data-validation.js';
import { buildQrMessage, parseQrMessage } from '../../protocols/emvco/merchant-qr.js';
import { isFonepayChoice, sendBankAppDone, sendBankAppPage, sendCheckoutPage, type FonepayChoice } from './simulator-pages.js';
import { registerQrSockets, SOCKET_PATH } from './simulator-socket.js';

const MERCHANT_NAME = 'Bhuktani sandbox';

const FONEPAY = 'fonepay';

const text = (source: unknown, name: string) => {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
};

/** Rupees as Fonepay's fields carry them (`30`, `20.0`, `150.50`) to paisa; undefined otherwise. */
function paisa(amount: string): number | undefined {
  const match = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(amount);
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : undefined;
}

/** "Invalid Request": the page Fonepay shows for a request it refuses; it does not send the payer back. */
const invalidRequest = (reply: FastifyReply, why: string) => reply.code(400).type('text/html; charset=utf-8').send(`<!doctype html><title>Fonepay</title><h1>Invalid Request</h1><p>${escapeHtml(why)}</p>`);

/** A number for a trace id, from the context's ids (deterministic in tests). */
const traceId = (ctx: AppContext) => `1${ctx.ids.random(6).replace(/./g, (c) => String(c.charCodeAt(0) % 10))}`;

/** A PRN's trace id: one for its whole life (issued with it), pending, paid or declined. */
const traceOf = (simulation: Simulation, ctx: AppContext) => simulation.transaction_id ?? simulation.details.trace ?? traceId(ctx);

/**
 * The PRN's length. Both documents say 25 (web 3–25, QR 1–25), but the QR document's own example
 * signs a 36-character UUID and the web document's Java sample sends a 32-character one: the limit
 * is soft, and the simulator takes up to 36.
 */
const PRN_MOST = 36;

/**
 * The QR's remarks, "AN" in the QR document (1–25). Read as the integrations send order names
 * (`Order-12`, `Order #12`, `Tea (500 g)`): letters, digits, spaces and the marks of a name; never a
 * comma, which would make the DV's comma-joined message ambiguous.
 */
const remarks = (value: string) => /^[A-Za-z0-9 .\-_#/()&:'+@]{1,25}$/.test(value);

/**
 * A declined payment's choice as the store keeps it: the outcome `canceled`, and how it was declined
 * (`failed`: the bank refused; `cancel`: the payer went back), which the return's RC and the socket say.
 */
const picked = (choice: FonepayChoice, ctx: AppContext) => ({
  outcome: choice === 'failed' ? ('canceled' as const) : choice,
  details: { decided_at: ctx.clock.now().toISOString(), ...(choice === 'failed' ? { declined: 'failed' } : choice === 'canceled' ? { declined: 'cancel' } : {}) },
});

/**
 * RU with Fonepay's result after the merchant's own query, which stays as the merchant wrote it
 * (a WooCommerce return address is `…/?wc-api=WC_Gateway_Fonepay`): Fonepay's fields are added, none
 * of the merchant's is changed or removed, one of the same name (a PRN of its own) included; Fonepay's
 * then comes last. A fragment stays last.
 */
function withResult(ru: string, result: Record<string, string>): string {
  const url = new URL(ru);
  const fragment = url.hash;
  url.hash = '';
  const base = url.href;
  const glue = base.endsWith('?') || base.endsWith('&') ? '' : url.search ? '&' : '?';
  return `${base}${glue}${new URLSearchParams(result)}${fragment}`;
}

export function registerFonepaySimulator(app: FastifyInstance, { ctx, csrfSecret, silence }: SimulatorTools) {
  const { merchant_code: merchantCode, secret_key: secretKey, username, password } = FONEPAY_TEST_MERCHANT;
  const secure = ctx.config.publicUrl.startsWith('https:');

  registerQrSockets(app, { ctx, provider: FONEPAY, merchantCode });

  const webSimulation = async (prn: string) => {
    const simulation = prn ? await findSimulation(ctx.db, FONEPAY, prn) : undefined;
    return simulation?.details.way === 'web' ? simulation : undefined;
  };

  /** Fonepay's page for a web checkout, where the payer picks what happens. */
  const checkoutPage = (request: FastifyRequest, reply: FastifyReply, simulation: Simulation) => {
    const csrf = csrfToken(request, reply, csrfSecret, { binding: `sandbox:fonepay:${simulation.reference}`, secure });
    return sendCheckoutPage(reply, { heading: simulation.details.name, amount: simulation.amount, action: '/sandbox/fonepay/checkout', fields: [['prn', simulation.reference]], csrf, formActionOrigins: [new URL(simulation.details.ru).origin] });
  };

  // The web checkout: the request, by GET (URL-encoded query) or POST (form).
  const merchantRequest = async (request: FastifyRequest, reply: FastifyReply) => {
    const source = request.method === 'GET' ? request.query : request.body;
    const field = (name: string) => text(source, name);
    const missing = ['PID', 'MD', 'PRN', 'AMT', 'CRN', 'DT', 'R1', 'R2', 'RU', 'DV'].filter((name) => !field(name));
    if (missing.length) return invalidRequest(reply, `Missing ${missing.join(', ')}`);
    if (field('PID') !== merchantCode) return invalidRequest(reply, 'Invalid merchant');
    const signed = [field('PID'), field('MD'), field('PRN'), field('AMT'), field('CRN'), field('DT'), field('R1'), field('R2'), field('RU')];
    if (!dataValidationMatches(secretKey, signed, field('DV'))) return invalidRequest(reply, 'Data Validation Failed');
    const amount = paisa(field('AMT'));
    const valid =
      field('MD') === 'P' && field('CRN') === 'NPR' && /^\d{2}\/\d{2}\/\d{4}$/.test(field('DT')) && field('PRN').length >= 3 && field('PRN').length <= PRN_MOST &&
      field('AMT').length <= 18 && amount !== undefined && amount > 0 && field('R1').length <= 160 && field('R2').length <= 50 && field('RU').length <= 150 && URL.canParse(field('RU')) && /^https?:\/\//.test(field('RU'));
    if (!valid) return invalidRequest(reply, 'Invalid parameters');
    if (await namesLivePayment(ctx.db, field('PRN'))) return invalidRequest(reply, 'Invalid PRN');
    const inserted = await insertSimulation(ctx.db, {
      provider: FONEPAY,
      reference: field('PRN'),
      amount: amount!,
      details: { way: 'web', name: field('R1'), ru: field('RU'), amt: field('AMT'), trace: traceId(ctx) },
      created_at: ctx.clock.now(),
    });
    // The same request again (a reload) shows the same page; another request for a PRN used is refused.
    const simulation = (await webSimulation(field('PRN')))!;
    if (!inserted && (simulation.outcome !== 'open' || simulation.details.amt !== field('AMT') || simulation.details.ru !== field('RU'))) return invalidRequest(reply, 'Duplicate PRN');
    return checkoutPage(request, reply, simulation);
  };
  app.get('/sandbox/fonepay/api/merchantRequest', merchantRequest);
  app.post('/sandbox/fonepay/api/merchantRequest', merchantRequest);

  app.get('/sandbox/fonepay/checkout', async (request, reply) => {
    const simulation = await webSimulation(text(request.query, 'prn'));
    if (!simulation) return reply.code(404).type('text/plain').send('Not found');
    return checkoutPage(request, reply, simulation);
  });

  // The payer's choice; then back to RU with the result and its DV (uppercase, as Fonepay sends it).
  app.post('/sandbox/fonepay/checkout', async (request, reply) => {
    const prn = text(request.body, 'prn');
    const choice = text(request.body, 'outcome');
    if (!csrfValid(request, csrfSecret, `sandbox:fonepay:${prn}`) || !isFonepayChoice(choice)) return reply.code(400).type('text/plain').send('Bad request');
    const open = await webSimulation(prn);
    if (!open) return reply.code(404).type('text/plain').send('Not found');
    const { outcome, details } = picked(choice, ctx);
    const simulation = (await pickOutcome(ctx.db, FONEPAY, prn, outcome, traceOf(open, ctx), details))!;
    const paid = simulation.outcome !== 'canceled';
    const result = {
      PRN: prn,
      PID: merchantCode,
      PS: String(paid),
      // The web document's response codes: successful, failed (the bank refused), cancel (the payer went back).
      RC: paid ? 'successful' : simulation.details.declined === 'failed' ? 'failed' : 'cancel',
      // A declined payment still has its trace id at Fonepay (the simulation keeps it in its details).
      UID: traceOf(simulation, ctx),
      BC: paid ? 'NICENPKA' : 'N/A',
      INI: paid ? '9800000001' : 'N/A',
      P_AMT: simulation.details.amt,
      R_AMT: simulation.details.amt,
    };
    const DV = dataValidation(secretKey, [result.PRN, result.PID, result.PS, result.RC, result.UID, result.BC, result.INI, result.P_AMT, result.R_AMT]).toUpperCase();
    return reply.code(303).redirect(withResult(simulation.details.ru, { ...result, DV }));
  });

  const xml = (reply: FastifyReply, fields: Record<string, string>) =>
    reply.type('application/xml').send(`<response>${Object.entries(fields).map(([name, value]) => `<${name}>${escapeHtml(value)}</${name}>`).join('')}</response>`);

  // The server-to-server verification of a payment the return named (DV over PID,AMT,PRN,BID,UID).
  app.get('/sandbox/fonepay/api/merchantRequest/verificationMerchant', async (request, reply) => {
    const q = (name: string) => text(request.query, name);
    const refused = (message: string) => xml(reply, { success: 'false', response_code: 'failed', message });
    if (q('PID') !== merchantCode || !dataValidationMatches(secretKey, [q('PID'), q('AMT'), q('PRN'), q('BID'), q('UID')], q('DV'))) return refused('Data Validation Failed');
    const simulation = await webSimulation(q('PRN'));
    if (!simulation || !simulation.transaction_id || simulation.transaction_id !== q('UID')) return refused('Transaction Not Found');
    if (paisa(q('AMT')) !== simulation.amount) return refused('Amount Mismatch');
    const status = simulatedStatus(simulation, await countStatusCheck(ctx.db, FONEPAY, simulation.reference));
    if (status === 'silent') return silence().then(() => reply.code(504).type('text/plain').send('Gateway Timeout'));
    if (status === 'undecided') return xml(reply, { message: 'Transaction is being processed', response_code: 'pending', statusCode: '202' });
    if (status !== 'paid') return refused('Transaction Failed');
    return xml(reply, {
      amount: simulation.details.amt,
      bankCode: 'NICENPKA',
      initiator: '9800000001',
      message: 'Transaction Verified',
      response_code: 'successful',
      statusCode: '200',
      success: 'true',
      txnAmount: simulation.details.amt,
      uniqueId: simulation.transaction_id,
    });
  });

  // The dynamic QR API: JSON in and out; refusals as Fonepay's "Merchant request Exception".
  const qrApi = '/sandbox/fonepay/api/merchant/merchantDetailsForThirdParty';
  const exception = (reply: FastifyReply, message: string, code = 406) => reply.code(code).send({ documentation: 'Merchant request Exception', errorCode: code, message });
  const authorized = (body: unknown) => text(body, 'username') === username && text(body, 'password') === password;

  app.post(`${qrApi}/thirdPartyDynamicQrDownload`, async (request, reply) => {
    const b = (name: string) => text(request.body, name);
    if (b('merchantCode') !== merchantCode) return exception(reply, 'Invalid Merchant Code');
    if (!authorized(request.body)) return exception(reply, 'Invalid username');
    if (!dataValidationMatches(secretKey, [b('amount'), b('prn'), b('merchantCode'), b('remarks1'), b('remarks2')], b('dataValidation'))) return exception(reply, 'Data Validation Failed');
    const amount = /^\d{1,10}$|^(?=.{1,10}$)\d+\.\d+$/.test(b('amount')) ? paisa(b('amount')) : undefined;
    if (!amount || !new RegExp(`^[\\x21-\\x7e]{1,${PRN_MOST}}$`).test(b('prn')) || !remarks(b('remarks1')) || !remarks(b('remarks2'))) return exception(reply, 'Invalid Request');
    if (await namesLivePayment(ctx.db, b('prn'))) return exception(reply, 'Invalid PRN');
    const terminal = '101';
    const requestId = traceId(ctx).slice(0, 6);
    // The QR's own reference label (EMVCo's 62/05, at most 25; here 22 letters and digits): the bank
    // app finds the payment by the message it scanned, and the label makes every message differ.
    // The PRN (up to 36) would not fit; Fonepay's own QR carries no PRN either.
    const label = ctx.ids.random(16).slice(0, 22);
    const qrMessage = buildQrMessage(
      [
        ['01', '12'],
        ['15', `3791052400520446${`${merchantCode}:${terminal}`.padStart(15, '0').slice(-15)}`],
        ['26', [['00', 'fonepay.com'], ['01', merchantCode], ['02', terminal], ['06', requestId]]],
        ['52', '5999'],
        ['53', '524'],
        ['54', b('amount')],
        ['58', 'NP'],
        ['59', MERCHANT_NAME],
        ['60', 'Kathmandu'],
        ['62', [['05', label], ['07', terminal]]],
      ],
      { lowercaseCrc: true },
    );
    const deviceId = `T${ctx.ids.random(16)}`;
    const details = { way: 'qr', name: b('remarks1'), remarks2: b('remarks2'), amt: b('amount'), qr: qrMessage, device: deviceId, trace: traceId(ctx) };
    const inserted = await insertSimulation(ctx.db, { provider: FONEPAY, reference: b('prn'), amount, details, created_at: ctx.clock.now() });
    if (!inserted) return exception(reply, 'Duplicate PRN', 409);
    const ws = ctx.config.publicUrl.replace(/^http/, 'ws');
    return reply.code(201).send({
      message: 'successfull',
      qrMessage,
      status: 'CREATED',
      statusCode: 201,
      success: true,
      thirdpartyQrWebSocketUrl: `${ws}${SOCKET_PATH}/${deviceId}/${merchantCode}/Y`,
    });
  });

  app.post(`${qrApi}/thirdPartyDynamicQrGetStatus`, async (request, reply) => {
    const b = (name: string) => text(request.body, name);
    if (b('merchantCode') !== merchantCode) return exception(reply, 'Invalid Merchant Code');
    if (!authorized(request.body)) return exception(reply, 'Invalid username');
    if (!dataValidationMatches(secretKey, [b('prn'), b('merchantCode')], b('dataValidation'))) return exception(reply, 'Data Validation Failed');
    const simulation = await findSimulation(ctx.db, FONEPAY, b('prn'));
    if (!simulation || simulation.details.way !== 'qr') return exception(reply, 'Invalid PRN');
    const status = simulatedStatus(simulation, await countStatusCheck(ctx.db, FONEPAY, simulation.reference));
    if (status === 'silent') return silence().then(() => reply.code(504).send({ documentation: 'Gateway Timeout', errorCode: 504, message: 'Gateway Timeout' }));
    const paymentStatus = { paid: 'success', canceled: 'failed', open: 'pending', undecided: 'pending' }[status];
    return { fonepayTraceId: Number(traceOf(simulation, ctx)), merchantCode, paymentStatus, prn: simulation.reference };
  });

  // The bank app: it scans a QR message (here, from the link under the QR), reads it, and pays it.
  // It finds the payment by the message it scanned, as issued (CRC and all).
  const scanned = async (qr: string): Promise<Simulation | undefined> => {
    const simulation = parseQrMessage(qr) ? await findSimulationByDetail(ctx.db, FONEPAY, 'qr', qr) : undefined;
    return simulation?.details.way === 'qr' ? simulation : undefined;
  };
  const facts = (simulation: Simulation): [string, string][] => [
    ['City', parseQrMessage(simulation.details.qr)?.get('60') ?? ''],
    ['Remarks', simulation.details.name],
    ['Remarks 2', simulation.details.remarks2 ?? ''],
  ];

  app.get('/sandbox/fonepay/bank-app', async (request, reply) => {
    const qr = text(request.query, 'qr');
    const simulation = await scanned(qr);
    if (!simulation) return reply.code(404).type('text/plain').send('This is not a Fonepay QR the sandbox issued.');
    // Read: the QR is verified, which the QR's socket tells.
    if (!simulation.details.scanned_at) await addSimulationDetails(ctx.db, FONEPAY, simulation.reference, { scanned_at: ctx.clock.now().toISOString() });
    const csrf = csrfToken(request, reply, csrfSecret, { binding: `sandbox:fonepay:${simulation.reference}`, secure });
    return sendBankAppPage(reply, { payee: parseQrMessage(qr)!.get('59')!, amount: simulation.amount, facts: facts(simulation), action: '/sandbox/fonepay/bank-app', fields: [['qr', qr]], csrf });
  });

  app.post('/sandbox/fonepay/bank-app', async (request, reply) => {
    const qr = text(request.body, 'qr');
    const choice = text(request.body, 'outcome');
    const simulation = await scanned(qr);
    if (!simulation) return reply.code(404).type('text/plain').send('Not found');
    if (!csrfValid(request, csrfSecret, `sandbox:fonepay:${simulation.reference}`) || !isFonepayChoice(choice)) return reply.code(400).type('text/plain').send('Bad request');
    const done = (end: 'paid' | 'failed' | 'canceled' | 'answered', now: Simulation) =>
      sendBankAppDone(reply, { end, amount: now.amount, facts: [['To', parseQrMessage(qr)!.get('59')!], ...facts(now), ['Trace id', end === 'paid' ? traceOf(now, ctx) : '']] });
    if (simulation.outcome !== 'open') return done('answered', simulation);
    const { outcome, details } = picked(choice, ctx);
    const now = (await pickOutcome(ctx.db, FONEPAY, simulation.reference, outcome, traceOf(simulation, ctx), details))!;
    // Another device's answer came first: this one changed nothing.
    if (now.outcome !== outcome) return done('answered', now);
    return done(now.outcome !== 'canceled' ? 'paid' : now.details.declined === 'failed' ? 'failed' : 'canceled', now);
  });
}
