// OTP_SENDER=sms against a real HTTP receiver in this process: what reaches the gateway, the payment
// completed with it, nothing of it in the log, and gateways that fail (500, no answer, refused).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { merchantBrowser, pageText } from '../../test/dashboard-client.js';
import { callbackParams, operatorWallet, payerBrowser } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { webhookReceiver } from '../../test/webhook-receiver.js';
import { loadConfig } from '../config.js';
import { OtpNotSentError } from './otp-sender.js';
import { smsOtpSender } from './sms-gateway.js';

let gateway: Awaited<ReturnType<typeof webhookReceiver>>;
let t: TestApp;
let liveApi: ReturnType<typeof merchantApi>;
let merchantEmail: string;

const MERCHANT = 'Himalayan "Tea" & Co';
const quietLog = { warn: () => {} };

/** What SMS_GATEWAY_* give, through the start-up checks. */
const gatewayOf = (env: Record<string, string>) => loadConfig({ OTP_SENDER: 'sms', ...env }).smsGateway!;

beforeAll(async () => {
  gateway = await webhookReceiver();
  const sms = gatewayOf({ SMS_GATEWAY_URL: gateway.url, SMS_GATEWAY_AUTH: 'Bearer gateway-secret', SMS_GATEWAY_TIMEOUT_MS: '2000' });
  t = await startTestApp({ config: { otpSender: 'sms', smsGateway: sms }, otp: (log) => smsOtpSender(sms, log) });
  const created = await newMerchant(t.ctx, { name: MERCHANT });
  liveApi = merchantApi(t.app, created.live_secret_key);
  merchantEmail = created.merchant.email;
});
afterAll(async () => {
  await t.close();
  await gateway.close();
});
beforeEach(() => {
  gateway.answerWith(200);
  gateway.received.length = 0;
});

/** A funded live payer on the hosted page of a new live payment, before the wallet step. */
async function payerOnPage(amount: number) {
  const payer = await operatorWallet(t.ctx, { balance: 500_000 });
  const { status, body } = await liveApi.initiate(validInitiate({ amount }));
  expect(status).toBe(200);
  const browser = payerBrowser(t.app);
  await browser.open(body.pidx);
  return { payer, pidx: body.pidx as string, browser, walletStep: () => browser.wallet(body.pidx, payer.mobile, payer.mpin) };
}

/** The OTP the gateway was asked to text, read from its JSON body as the payer's phone would show it. */
function textedOtp(): { to: string; text: string; otp: string } {
  const sms = JSON.parse(gateway.received.at(-1)!.body) as { to: string; text: string };
  return { ...sms, otp: /your OTP is (\d{6})\./.exec(sms.text)![1] };
}

const otpSends = async (result: 'sent' | 'failed') =>
  Number(new RegExp(`bhuktani_otp_sends_total\\{result="${result}"\\} (\\d+)`).exec(await t.ctx.metrics.registry.metrics())?.[1] ?? 0);

/** A log line holding the OTP as a number of its own (not a digit run inside a longer one). */
const logsHolding = (otp: string) => t.logs.filter((line) => new RegExp(`(?<![\\dA-Za-z])${otp}(?![\\dA-Za-z])`).test(line));

async function attempts(pidx: string): Promise<number> {
  const [row] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_attempts WHERE pidx = $1', [pidx]);
  return row.n;
}

describe('a live OTP by SMS', () => {
  it('reaches the gateway with the method, Authorization and JSON body configured, naming the merchant and amount; the payment completes with it and the log never holds it', async () => {
    const sentBefore = await otpSends('sent');
    const { payer, pidx, browser, walletStep } = await payerOnPage(123_456);
    const step = await walletStep();
    expect(step.status).toBe(200);
    expect(step.body).toContain('name="otp"');

    expect(gateway.received).toHaveLength(1);
    const request = gateway.received[0];
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hooks');
    expect(request.headers.authorization).toBe('Bearer gateway-secret');
    expect(request.headers['content-type']).toBe('application/json');
    const sms = textedOtp();
    expect(sms.to).toBe(payer.mobile);
    expect(sms.text).toBe(`Rs. 1,234.56 to ${MERCHANT}: your OTP is ${sms.otp}. Valid 5 minutes; never share it.`);
    expect(await otpSends('sent')).toBe(sentBefore + 1);

    const paid = await browser.otp(pidx, sms.otp);
    expect(paid.status).toBe(303);
    expect(callbackParams(paid.location!).status).toBe('Completed');
    expect(logsHolding(sms.otp)).toEqual([]);
    expect(t.logs.filter((line) => line.includes('your OTP is') || line.includes('gateway-secret'))).toEqual([]);
  });

  it('a gateway answering 500 gives the payer a clear message, leaves the payment payable, is counted, and a retry completes it', async () => {
    const failedBefore = await otpSends('failed');
    const { payer, pidx, browser, walletStep } = await payerOnPage(2_000);
    gateway.answerWith(500);
    const failed = await walletStep();
    expect(failed.status).toBe(503);
    expect(failed.body).toContain('We could not send the OTP to your phone. Please try again in a moment.');
    expect(failed.body).toContain('name="mpin"');
    expect(failed.body).toContain(`value="${payer.mobile}"`);
    expect(gateway.received).toHaveLength(1);
    const lost = textedOtp().otp;
    expect(await otpSends('failed')).toBe(failedBefore + 1);
    expect((await liveApi.lookup(pidx)).body.status).toBe('Initiated');
    expect(await attempts(pidx)).toBe(0);
    const warning = t.logs.filter((line) => line.includes('OTP not sent') && line.includes(pidx));
    expect(warning).toHaveLength(1);
    expect(JSON.parse(warning[0])).toMatchObject({ level: 40, status: 500, pidx });
    expect(logsHolding(lost)).toEqual([]);
    const dashboard = merchantBrowser(t.app);
    await dashboard.logIn(merchantEmail, 'correct horse battery');
    await dashboard.useEnvironment('live');
    expect(pageText((await dashboard.get(`/dashboard/payments/${pidx}`)).body)).toContain(`OTP not sent The SMS gateway failed to send the OTP from 97XXXXXXX${payer.mobile.at(-1)}; the payer can try again.`);

    gateway.answerWith(200);
    expect((await walletStep()).body).toContain('name="otp"');
    const { otp } = textedOtp();
    const paid = await browser.otp(pidx, otp);
    expect(callbackParams(paid.location!).status).toBe('Completed');
    expect(logsHolding(otp)).toEqual([]);
  });

  it('a gateway that does not answer in time is a failed send too, and the payment stays payable', async () => {
    const { pidx, browser, walletStep } = await payerOnPage(2_000);
    gateway.answerWith('none');
    const failed = await walletStep();
    expect(failed.status).toBe(503);
    expect(failed.body).toContain('We could not send the OTP');
    expect(await attempts(pidx)).toBe(0);
    expect(t.logs.some((line) => line.includes('no answer within 2000 ms') && line.includes(pidx))).toBe(true);

    gateway.answerWith(200);
    await walletStep();
    const paid = await browser.otp(pidx, textedOtp().otp);
    expect(callbackParams(paid.location!).status).toBe('Completed');
  });

  it('a gateway nobody listens on is a failed send, said without the URL or the message', async () => {
    const closed = await webhookReceiver();
    await closed.close();
    const lines: unknown[] = [];
    const sender = smsOtpSender(gatewayOf({ SMS_GATEWAY_URL: `${closed.url}?key=query-secret` }), { warn: (line: unknown) => lines.push(line) });
    const sending = sender.send({ mobile: '9841000001', otp: '123456', message: 'your OTP is 123456', pidx: 'p1', expiresAt: new Date() });
    await expect(sending).rejects.toThrow(OtpNotSentError);
    await expect(sending).rejects.toThrow('connection failed (ECONNREFUSED)');
    expect(JSON.stringify(lines)).not.toMatch(/123456|query-secret/);
    expect(lines).toEqual([{ pidx: 'p1', mobile: '98XXXXXXX1', reason: 'connection failed (ECONNREFUSED)' }]);
  });
});

describe('the body template', () => {
  const message = 'Rs. 1.00 to A&B "Tea" + 100% = {mobile}: your OTP is 123456';

  it('is form-encoded when it is not JSON: each value percent-encoded, so & = + and quotes arrive as sent', async () => {
    const sender = smsOtpSender(gatewayOf({ SMS_GATEWAY_URL: gateway.url, SMS_GATEWAY_BODY: 'to={mobile}&msg={message}&from=Bhuktani' }), quietLog);
    await sender.send({ mobile: '9841000001', otp: '123456', message, pidx: 'p1', expiresAt: new Date() });
    const request = gateway.received.at(-1)!;
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({ to: '9841000001', msg: message, from: 'Bhuktani' });
  });

  it('with GET, goes in the URL: the placeholders of SMS_GATEWAY_URL percent-encoded, no body', async () => {
    const sender = smsOtpSender(gatewayOf({ SMS_GATEWAY_URL: `${gateway.url}?token=t1&to={mobile}&text={message}`, SMS_GATEWAY_METHOD: 'GET', SMS_GATEWAY_AUTH: 'Basic dTpw' }), quietLog);
    await sender.send({ mobile: '9841000001', otp: '123456', message, pidx: 'p1', expiresAt: new Date() });
    const request = gateway.received.at(-1)!;
    expect(request.method).toBe('GET');
    expect(request.body).toBe('');
    expect(request.headers.authorization).toBe('Basic dTpw');
    expect(Object.fromEntries(new URL(request.url, 'http://x').searchParams)).toEqual({ token: 't1', to: '9841000001', text: message });
  });

  it('is JSON-escaped when it is JSON, whatever the message holds', async () => {
    const sender = smsOtpSender(gatewayOf({ SMS_GATEWAY_URL: gateway.url, SMS_GATEWAY_BODY: '{"sms":{"to":["{mobile}"],"body":"{message}\\n"}}' }), quietLog);
    const tricky = `${message}\\ "\n\u0001`;
    await sender.send({ mobile: '9841000001', otp: '123456', message: tricky, pidx: 'p1', expiresAt: new Date() });
    expect(JSON.parse(gateway.received.at(-1)!.body)).toEqual({ sms: { to: ['9841000001'], body: `${tricky}\n` } });
  });
});
