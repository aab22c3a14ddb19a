// The Khalti connector against Khalti's own published examples (fixtures/kpg-2.ts, each with its
// page and section): the initiate it sends and the answers to it, the callback, the lookup's answer
// for each status Khalti documents, its generic errors, and the refund API.
import { describe, expect, it } from 'vitest';
import { answering, attemptToStart } from '../../../test/connector-harness.js';
import type { ProviderSetup } from '../provider-setup.js';
import { CALLBACKS, GENERIC_ERRORS, INITIATE, INITIATE_ERRORS, LOOKUP, REFUND_API, SANDBOX } from './fixtures/kpg-2.js';
import { khaltiConnector } from './khalti-connector.js';

const SECRET = 'live_secret_key_0123456789abcdef';
const setup = { name: 'khalti', environment: 'test', enabled: true, sandbox: false, settings: { base_url: SANDBOX.base_url }, credentials: { secret_key: SECRET } } satisfies ProviderSetup;


const toStart = (amount = 1000) =>
  attemptToStart({
    idx: 'test12',
    amount,
    orderName: 'test',
    websiteUrl: 'https://example.com/',
    customer: { name: 'Khalti Bahadur', email: 'example@gmail.com', phone: '9800000123' },
    returnUrl: () => 'https://example.com/payment/',
  });
/** The attempt once Khalti gave it `pidx`. */
const attempt = (amount: number, pidx: string) => ({ ...toStart(amount), providerReference: { pidx } });

describe('initiate', () => {
  it('sends what Khalti reads, as its example does, and goes to the payment_url of Khalti’s answer', async () => {
    const { asked, transport } = answering(INITIATE.answer);
    const started = await khaltiConnector(setup, transport).start(toStart());
    expect(asked).toHaveLength(1);
    const [request] = asked;
    expect(request).toMatchObject({ url: INITIATE.url, method: 'POST' });
    expect(request.headers).toMatchObject({ authorization: INITIATE.authorization.replace('<LIVE_SECRET_KEY>', SECRET), 'content-type': 'application/json' });
    const body = JSON.parse(request.body!);
    for (const name of INITIATE.required) expect(body[name], name).toBeTruthy();
    // Nothing Khalti does not read.
    const documented: readonly string[] = [...INITIATE.required, ...INITIATE.optional];
    expect(Object.keys(body).filter((name) => !documented.includes(name) && !name.startsWith(INITIATE.extraPrefix))).toEqual([]);
    expect(body).toMatchObject({ return_url: 'https://example.com/payment/', website_url: 'https://example.com/', amount: 1000, purchase_order_id: 'test12', purchase_order_name: 'test' });
    expect(Number.isSafeInteger(body.amount)).toBe(true);
    expect(started).toEqual({ redirect: { method: 'GET', url: INITIATE.answer.payment_url }, providerReference: { pidx: INITIATE.answer.pidx } });
  });

  it.each(Object.entries(INITIATE_ERRORS.answers))('“%s” is not a started attempt', async (_what, body) => {
    await expect(khaltiConnector(setup, answering(body, 400).transport).start(toStart())).rejects.toThrow();
  });

  it('“Invalid token.” (a wrong key) is not a started attempt', async () => {
    await expect(khaltiConnector(setup, answering(GENERIC_ERRORS.invalidKey.body, GENERIC_ERRORS.invalidKey.code).transport).start(toStart())).rejects.toThrow();
  });
});

describe('the callback', () => {
  const query = (text: string) => Object.fromEntries(new URLSearchParams(text));
  const connector = khaltiConnector(setup, answering({}).transport);

  it('a Completed callback claims paid for the attempt it returns to', () => {
    expect(connector.readReturn(['A1', 'success'], query(CALLBACKS.completed))).toEqual({ attemptIdx: 'A1', claim: 'paid' });
  });

  it('a User canceled callback claims canceled', () => {
    expect(connector.readReturn(['A1', 'success'], query(CALLBACKS.canceled))).toEqual({ attemptIdx: 'A1', claim: 'canceled' });
  });
});

describe('lookup', () => {
  const pidx = LOOKUP.request.pidx;

  it('asks for the pidx as Khalti’s Request Data does', async () => {
    const { asked, transport } = answering(LOOKUP.answers.Completed.body);
    await khaltiConnector(setup, transport).status(attempt(1000, pidx));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ url: LOOKUP.url, method: 'POST' });
    expect(asked[0].headers).toMatchObject({ authorization: `Key ${SECRET}` });
    expect(JSON.parse(asked[0].body!)).toEqual(LOOKUP.request);
  });

  // What each documented status means for an attempt: only Completed is paid; Pending is "hold";
  // a refund Bhuktani did not make is for an operator; Expired and User canceled took no money.
  const meaning = { Completed: 'paid', Pending: 'unknown', Initiated: 'open', Refunded: 'unknown', 'Partially refunded': 'unknown', Expired: 'failed', 'User canceled': 'failed' } as const;

  it.each(Object.entries(LOOKUP.answers))('%s, answered as Khalti documents it', async (status, { code, body }) => {
    const answer = await khaltiConnector(setup, answering(body, code).transport).status(attempt(body.total_amount, body.pidx));
    expect(answer.kind).toBe(meaning[status as keyof typeof meaning]);
    if (answer.kind === 'paid') expect(answer).toEqual({ kind: 'paid', transactionId: body.transaction_id, fee: body.fee, detail: 'Khalti: Completed' });
    // Khalti's own answer, not a fault of Khalti's.
    if (answer.kind === 'unknown') expect(answer.fault).toBeFalsy();
  });

  it('a documented Completed for another amount, or another pidx, is not a payment', async () => {
    const { body } = LOOKUP.answers.Completed;
    expect((await khaltiConnector(setup, answering(body).transport).status(attempt(1300, pidx))).kind).toBe('unknown');
    expect((await khaltiConnector(setup, answering(body).transport).status(attempt(1000, 'H889Er9gq4j92oCrePrDwf'))).kind).toBe('unknown');
  });

  it.each([
    ['Invalid token.', GENERIC_ERRORS.invalidKey.body, GENERIC_ERRORS.invalidKey.code],
    ['Authentication credentials were not provided.', GENERIC_ERRORS.noKeyPrefix.body, GENERIC_ERRORS.noKeyPrefix.code],
    ['Not found. (as 404)', GENERIC_ERRORS.unknownPidx.body, 404],
    ['Not found. (as 400)', GENERIC_ERRORS.unknownPidx.body, 400],
  ])('the generic error “%s” is an unknown outcome', async (_what, body, code) => {
    expect((await khaltiConnector(setup, answering(body, code).transport).status(attempt(1000, pidx))).kind).toBe('unknown');
  });
});

describe('refund', () => {
  const paid = { ...attempt(1000, LOOKUP.request.pidx), providerTransactionId: LOOKUP.answers.Completed.body.transaction_id };

  it('a whole refund posts to the transaction’s refund address with no amount; Khalti’s answer is a refund', async () => {
    const { asked, transport } = answering(REFUND_API.answer);
    const answer = await khaltiConnector(setup, transport).refund!(paid, { amount: 1000, whole: true });
    expect(asked[0]).toMatchObject({ url: REFUND_API.url(paid.providerTransactionId), method: 'POST' });
    expect(asked[0].headers).toMatchObject({ authorization: `Key ${SECRET}` });
    expect(JSON.parse(asked[0].body!)).not.toHaveProperty('amount');
    expect(answer.kind).toBe('refunded');
  });

  it('a part posts its amount in paisa', async () => {
    const { asked, transport } = answering(REFUND_API.answer);
    await khaltiConnector(setup, transport).refund!(paid, { amount: 500, whole: false });
    expect(JSON.parse(asked[0].body!)).toMatchObject({ amount: 500 });
  });
});
