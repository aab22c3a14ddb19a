// An operator's freeze stops a payer wallet paying: at the MPIN step, at the OTP
// step when the freeze came between the two, and in the paying statement itself when the freeze
// came after the OTP step had read the wallet.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { operatorWallet, otpSentFor, payerBrowser, payWithLiveWallet, walletBalanceOf } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { listAudit } from '../audit/audit-store.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { confirmPayment } from '../payments/confirm-payment.js';
import { findCheckout } from '../portal/checkout-store.js';
import { freezeWallet, unfreezeWallet } from './freeze-wallet.js';
import { en } from '../language/en.js';
import { findWallet } from './wallet-store.js';

let t: TestApp;
let live: ReturnType<typeof merchantApi>;
const operator = { kind: 'operator', id: 7, label: 'support@example.com' } as const;
const frozenMessage = en.payerErrors.wallet_frozen;

beforeAll(async () => {
  t = await startTestApp();
  live = merchantApi(t.app, (await newMerchant(t.ctx)).live_secret_key);
});
afterAll(() => t.close());
afterEach(async () => {
  expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
});

async function statusOf(pidx: string): Promise<string> {
  return (await live.lookup(pidx)).body.status;
}

describe('a frozen wallet', () => {
  it('is refused at the MPIN step, and pays again once unfrozen', async () => {
    const payer = await operatorWallet(t.ctx, { balance: 50_000 });
    await freezeWallet(t.ctx, { actor: operator, walletIdx: payer.wallet.idx, reason: 'card reported stolen' });
    const { body } = await live.initiate(validInitiate({ amount: 1000 }));
    const refused = await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, body.pidx, payer);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain(frozenMessage);
    expect(t.sentOtps.filter((m) => m.pidx === body.pidx)).toEqual([]);
    expect(await walletBalanceOf(t.ctx, payer.wallet)).toBe(50_000);

    await unfreezeWallet(t.ctx, { actor: operator, walletIdx: payer.wallet.idx, reason: 'card found' });
    const paid = await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, body.pidx, payer);
    expect(paid.status).toBe(303);
    expect(await statusOf(body.pidx)).toBe('Completed');
    expect(await walletBalanceOf(t.ctx, payer.wallet)).toBe(49_000);

    const audit = await listAudit(t.db, { objectType: 'wallet', objectId: payer.wallet.idx, limit: 10 });
    expect(audit.map((e) => [e.action, e.reason, e.actor.label])).toEqual([
      ['wallet.unfreeze', 'card found', 'support@example.com'],
      ['wallet.freeze', 'card reported stolen', 'support@example.com'],
      ['wallet.topup', undefined, 'cli'],
      ['wallet.create', undefined, 'cli'],
    ]);
  });

  it('frozen between the MPIN and the OTP step is refused at the OTP step, the money left where it was', async () => {
    const payer = await operatorWallet(t.ctx, { balance: 50_000 });
    const { body } = await live.initiate(validInitiate({ amount: 1000 }));
    const browser = payerBrowser(t.app);
    await browser.open(body.pidx);
    const otpStep = await browser.wallet(body.pidx, payer.mobile, payer.mpin);
    expect(otpStep.body).toContain('name="otp"');
    await freezeWallet(t.ctx, { actor: operator, walletIdx: payer.wallet.idx, reason: 'fraud suspected' });
    const refused = await browser.otp(body.pidx, otpSentFor(t.sentOtps, body.pidx));
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('This wallet is frozen and cannot pay.');
    expect(await statusOf(body.pidx)).toBe('Initiated');
    expect(await walletBalanceOf(t.ctx, payer.wallet)).toBe(50_000);
  });

  it('frozen after the OTP step read the wallet is refused by the paying statement itself', async () => {
    const payer = await operatorWallet(t.ctx, { balance: 50_000 });
    const { body } = await live.initiate(validInitiate({ amount: 1000 }));
    const browser = payerBrowser(t.app);
    await browser.open(body.pidx);
    await browser.wallet(body.pidx, payer.mobile, payer.mpin);
    const token = browser.confirmFields('').attempt;
    // What the OTP step read before the operator's freeze committed: the wallet not yet frozen.
    const loaded = (await findCheckout(t.db, body.pidx, token))!;
    expect(loaded.wallet!.frozen_at).toBeNull();
    await freezeWallet(t.ctx, { actor: operator, walletIdx: payer.wallet.idx, reason: 'fraud suspected' });
    await expect(confirmPayment(t.ctx, loaded, otpSentFor(t.sentOtps, body.pidx))).rejects.toMatchObject({ code: 'wallet_frozen' });
    expect(await statusOf(body.pidx)).toBe('Initiated');
    expect(await walletBalanceOf(t.ctx, payer.wallet)).toBe(50_000);
    expect(await t.db.query('SELECT 1 FROM journals WHERE pidx = $1', [body.pidx])).toEqual([]);
  });

  it('needs a reason, cannot be frozen twice, and sandbox wallets are never frozen', async () => {
    const payer = await operatorWallet(t.ctx);
    await expect(freezeWallet(t.ctx, { actor: operator, walletIdx: payer.wallet.idx, reason: '  ' })).rejects.toMatchObject({ code: 'validation_error' });
    await freezeWallet(t.ctx, { actor: CLI_ACTOR, walletIdx: payer.wallet.idx, reason: 'lost phone' });
    await expect(freezeWallet(t.ctx, { actor: operator, walletIdx: payer.wallet.idx, reason: 'again' })).rejects.toMatchObject({ code: 'conflict' });
    await unfreezeWallet(t.ctx, { actor: operator, walletIdx: payer.wallet.idx, reason: 'found' });
    await expect(unfreezeWallet(t.ctx, { actor: operator, walletIdx: payer.wallet.idx, reason: 'again' })).rejects.toMatchObject({ code: 'conflict' });

    const shared = (await findWallet(t.db, 'test', '9800000001'))!;
    await expect(freezeWallet(t.ctx, { actor: operator, walletIdx: shared.idx, reason: 'no' })).rejects.toMatchObject({ code: 'bad_request' });
    expect((await findWallet(t.db, 'test', '9800000001'))!.frozen_at).toBeNull();
    await expect(freezeWallet(t.ctx, { actor: operator, walletIdx: 'no-such-wallet', reason: 'x' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
