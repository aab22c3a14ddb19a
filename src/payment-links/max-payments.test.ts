// A payment link's max_payments: "exactly that many complete", whatever races.
// Payers who all started before the last place was taken confirm their OTPs at the same moment: one
// payment completes, the others are told the link took all its payments and are not charged (their
// wallets keep every paisa, no journal, no record). A held (Pending) payment takes a place; the
// operator's cancel gives it back.
import { afterAll, describe, expect, it } from 'vitest';
import { codeOf, linkApi, linkPayer, pathOf } from '../../test/link-client.js';
import { operatorWallet, otpSentFor, walletBalanceOf } from '../../test/portal-client.js';
import { newMerchant, startTestApp } from '../../test/test-app.js';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { resolvePayment } from '../payments/resolve-payment.js';

const t = await startTestApp();
afterAll(() => t.close());

const linkStatusOf = async (idx: string) => (await t.db.query<{ payments_taken: number }>('SELECT payments_taken FROM payment_links WHERE idx = $1', [idx]))[0].payments_taken;
const statusesOf = async (idx: string) =>
  (await t.db.query<{ status: string }>('SELECT status FROM payments WHERE payment_link = $1', [idx])).map((p) => p.status).sort();

describe('racing payers on a link with one payment left', () => {
  it('exactly max_payments complete; the others are refused at the OTP, uncharged, and told so', async () => {
    const merchant = await newMerchant(t.ctx, { name: 'Exam Fees' });
    const links = linkApi(t.app, merchant.live_secret_key);
    const { body: link } = await links.create({ name: 'Exam form', amount: 50_000, max_payments: 3 });
    const code = codeOf(link.url);

    // Two places taken the ordinary way.
    for (let i = 0; i < 2; i++) {
      const payer = await operatorWallet(t.ctx, { balance: 100_000 });
      const browser = linkPayer(t.app);
      const { pidx } = await browser.start(code);
      await browser.browser.open(pidx!);
      await browser.browser.wallet(pidx!, payer.mobile, payer.mpin);
      expect((await browser.browser.otp(pidx!, otpSentFor(t.sentOtps, pidx!))).status).toBe(303);
    }
    expect(await linkStatusOf(link.idx)).toBe(2);

    // Eight payers, each on the OTP step of a payment of their own, confirm at once.
    const racers = [];
    for (let i = 0; i < 8; i++) {
      const wallet = await operatorWallet(t.ctx, { balance: 100_000 });
      const browser = linkPayer(t.app);
      const { pidx } = await browser.start(code);
      await browser.browser.open(pidx!);
      const step = await browser.browser.wallet(pidx!, wallet.mobile, wallet.mpin);
      expect(step.body).toContain('name="otp"');
      racers.push({ wallet, browser, pidx: pidx! });
    }
    const answers = await Promise.all(racers.map((r) => r.browser.browser.otp(r.pidx, otpSentFor(t.sentOtps, r.pidx))));

    const won = answers.flatMap((a, i) => (a.status === 303 ? [i] : []));
    expect(won, answers.map((a) => `${a.status} ${a.body.slice(0, 80)}`).join('\n')).toHaveLength(1);
    expect(answers[won[0]].location).toMatch(new RegExp(`/l/${code}/paid\\?`));
    for (const [i, answer] of answers.entries()) {
      if (i === won[0]) continue;
      expect(answer.status).toBe(409);
      expect(answer.body).toContain('No more payments');
      expect(answer.body).toContain('You have not been charged.');
    }
    for (const [i, racer] of racers.entries()) expect(await walletBalanceOf(t.ctx, racer.wallet.wallet)).toBe(i === won[0] ? 50_000 : 100_000);

    expect(await linkStatusOf(link.idx)).toBe(3);
    expect(await statusesOf(link.idx)).toEqual([...Array(3).fill('Completed'), ...Array(7).fill('Initiated')]);
    const [{ n: records }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE payment_link = $1', [link.idx]);
    expect(records).toBe(3);
    expect((await links.get(link.idx)).body).toMatchObject({ status: 'used_up', payments_count: 3, payments_total: 150_000 });

    // A loser who tries again is stopped before the MPIN; the link's page says it takes no more.
    const loser = racers[(won[0] + 1) % racers.length];
    const again = await loser.browser.browser.open(loser.pidx);
    expect(again.status).toBe(409);
    expect(again.body).not.toContain('name="mpin"');
    const retry = await loser.browser.browser.post(`/pay/wallet?pidx=${loser.pidx}`, { mobile: loser.wallet.mobile, mpin: loser.wallet.mpin });
    expect(retry.status).toBe(409);
    expect(t.sentOtps.filter((m) => m.pidx === loser.pidx)).toHaveLength(1);
    const page = await linkPayer(t.app).open(code);
    expect(page.status).toBe(410);
    expect(page.body).toContain('has taken all the payments it was made for');

    expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  });

  it('thirty payers racing for a link of three are each answered once: no step sends a second reply', async () => {
    const merchant = await newMerchant(t.ctx);
    const { body: link } = await linkApi(t.app, merchant.test_secret_key).create({ name: 'Three seats', amount: 2_000, max_payments: 3 });
    const code = codeOf(link.url);
    const logged = t.logs.length;
    // At the addresses of the path (`/pay/<pidx>`, `/pay/<pidx>/confirm`), as pages served before gave them out.
    const answers = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const payer = linkPayer(t.app);
        const { pidx } = await payer.start(code);
        const page = await payer.browser.get(`/pay/${pidx}`);
        const step = await payer.browser.post(`/pay/${pidx}/wallet`, { mobile: '9800000001', mpin: '1111' });
        if (step.status !== 303) return [page.status, step.status];
        await payer.browser.get(step.location!);
        return [page.status, step.status, (await payer.browser.post(`/pay/${pidx}/confirm`, { attempt: payer.browser.confirmFields('987654').attempt, otp: '987654' })).status];
      }),
    );
    expect(answers.filter((a) => a.at(-1) === 303)).toHaveLength(3);
    expect(answers.filter((a) => a.at(-1) !== 303).every((a) => a.at(-1) === 409)).toBe(true);
    expect(await linkStatusOf(link.idx)).toBe(3);
    // Fastify logs a second reply as FST_ERR_REP_ALREADY_SENT ("Reply was already sent").
    expect(t.logs.slice(logged).filter((line) => line.includes('FST_ERR_REP_ALREADY_SENT'))).toEqual([]);
  });

  it('a held payment takes a place until the operator cancels it; completing it keeps the place', async () => {
    const merchant = await newMerchant(t.ctx);
    const links = linkApi(t.app, merchant.test_secret_key);
    const { body: link } = await links.create({ name: 'One seat', amount: 2_000, max_payments: 1 });
    const code = codeOf(link.url);

    const held = linkPayer(t.app);
    const { pidx: heldPidx } = await held.start(code);
    const waiting = linkPayer(t.app);
    const { pidx: waitingPidx } = await waiting.start(code);
    const { done } = await held.pay(heldPidx!, '9800000007');
    expect(done.location).toContain('status=Pending');
    expect(await linkStatusOf(link.idx)).toBe(1);
    expect((await waiting.browser.open(waitingPidx!)).status).toBe(409);

    await resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx: heldPidx!, resolution: 'User canceled' });
    expect(await linkStatusOf(link.idx)).toBe(0);
    const { done: paid, receipt } = await waiting.pay(waitingPidx!);
    expect(paid.status).toBe(303);
    expect(receipt!.body).toContain('Payment complete');
    expect(await linkStatusOf(link.idx)).toBe(1);

    // Another link, its one place held and then completed by the operator: still taken.
    const { body: other } = await links.create({ name: 'One more seat', amount: 2_000, max_payments: 1 });
    const payer = linkPayer(t.app);
    const { pidx } = await payer.start(codeOf(other.url));
    await payer.pay(pidx!, '9800000007');
    await resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx: pidx!, resolution: 'Completed' });
    expect(await linkStatusOf(other.idx)).toBe(1);
    expect((await linkPayer(t.app).open(codeOf(other.url))).status).toBe(410);
    expect(pathOf(other.url)).toBe(`/l/${codeOf(other.url)}`);
  });
});
