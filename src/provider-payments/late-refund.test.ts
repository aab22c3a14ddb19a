// A refund request that reaches Khalti late, after Bhuktani gave up on it: Khalti's record says "not
// refunded" until it lands, so the refund is not asked for again until PROVIDER_REFUND_QUIET_SECONDS
// have passed since it left; it is made once. (The fault simulator found the double refund this
// replaces: test/faults/, docs/testing.md.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, refund, validInitiate } from '../../test/api-client.js';
import { callbackParams } from '../../test/portal-client.js';
import { providerPayer } from '../../test/provider-payer.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { routeProviderCalls, TransportError, type HttpRequest, type Transport } from '../providers/provider-http.js';
import { reconcileAttempts } from './reconcile-attempts.js';

let t: TestApp;
let key: string;

beforeAll(async () => {
  // A store of its own: the reconciliation job acts on the whole store.
  t = await startTestApp({ ownDb: true, config: { providerRefundQuietSeconds: 600 } });
  key = (await newMerchant(t.ctx)).test_secret_key;
});
afterAll(() => t.close());

/** Khalti's calls, in process; its refund requests held back while `holding`, as a slow network holds them. */
function lateRefunds() {
  const held: HttpRequest[] = [];
  let holding = true;
  let refundsSent = 0;
  const deliver = async (request: HttpRequest) => {
    const url = new URL(request.url);
    const answer = await t.app.inject({ method: request.method, url: url.pathname + url.search, headers: request.headers, payload: request.body });
    return { status: answer.statusCode, contentType: String(answer.headers['content-type'] ?? ''), text: answer.body };
  };
  const transport: Transport = async (request) => {
    if (!request.url.includes('/refund/')) return deliver(request);
    refundsSent += 1;
    if (!holding) return deliver(request);
    held.push(request);
    throw new TransportError('no answer within 10000 ms');
  };
  return {
    transport,
    get refundsSent() {
      return refundsSent;
    },
    /** The held requests reach Khalti now; later ones go through. */
    async land() {
      holding = false;
      for (const request of held.splice(0)) await deliver(request);
    },
    /** The held requests are lost for good; later ones go through. */
    drop() {
      holding = false;
      held.splice(0);
    },
  };
}

async function paidThroughKhalti(amount: number) {
  const { body } = await merchantApi(t.app, key).initiate(validInitiate({ amount }));
  const back = await providerPayer(t.app).pay(body.pidx, 'khalti', 'paid');
  return { pidx: body.pidx as string, transactionId: callbackParams(back.location!).transaction_id };
}

const khaltiRefunded = async (pidx: string) =>
  Number(
    (await t.db.query<{ refunded: number }>("SELECT refunded FROM provider_simulations WHERE provider = 'khalti' AND transaction_id = (SELECT provider_transaction_id FROM provider_attempts WHERE pidx = $1)", [pidx]))[0]
      .refunded,
  );
const refundsOf = (pidx: string) =>
  t.db.query<{ state: string; tries: number }>('SELECT r.state, r.tries FROM provider_refunds r JOIN provider_attempts a ON a.id = r.attempt_id WHERE a.pidx = $1 ORDER BY r.id', [pidx]);

describe('a refund request that reaches the provider late', () => {
  it('is not sent again while it may still land: made once, then marked from Khalti’s record', async () => {
    const { pidx, transactionId } = await paidThroughKhalti(5000);
    const network = lateRefunds();
    routeProviderCalls(t.ctx, network.transport);
    expect(await refund(t.app, key, transactionId, { amount: 2000 })).toMatchObject({ status: 200 });
    await reconcileAttempts(t.ctx);
    expect(network.refundsSent).toBe(1);
    // The job's next tries, within the quiet period: Khalti's lookup says "not refunded", and nothing is sent.
    for (const seconds of [61, 120, 300]) {
      t.clock.advance(seconds);
      await reconcileAttempts(t.ctx);
    }
    expect(network.refundsSent).toBe(1);
    expect(await refundsOf(pidx)).toEqual([{ state: 'Queued', tries: 1 }]);
    // The request lands, 8 minutes late; the next question finds it made.
    await network.land();
    t.clock.advance(200);
    await reconcileAttempts(t.ctx);
    expect(await refundsOf(pidx)).toMatchObject([{ state: 'Refunded' }]);
    expect(network.refundsSent).toBe(1);
    expect(await khaltiRefunded(pidx)).toBe(2000);
  });

  it('is asked for again once the quiet period has passed and Khalti still has no refund: made once', async () => {
    const { pidx, transactionId } = await paidThroughKhalti(6000);
    const network = lateRefunds();
    routeProviderCalls(t.ctx, network.transport);
    expect(await refund(t.app, key, transactionId)).toMatchObject({ status: 200 });
    await reconcileAttempts(t.ctx);
    network.drop();
    t.clock.advance(599);
    await reconcileAttempts(t.ctx);
    expect(network.refundsSent).toBe(1);
    t.clock.advance(2);
    await reconcileAttempts(t.ctx);
    expect(network.refundsSent).toBe(2);
    expect(await refundsOf(pidx)).toMatchObject([{ state: 'Refunded' }]);
    expect(await khaltiRefunded(pidx)).toBe(6000);
  });
});
