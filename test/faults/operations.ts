// What each step of a schedule does, as the people and programs around Bhuktani do it: the
// merchant's server (initiate, refund, lookup, payouts, links; retrying a 5xx with the same
// Idempotency-Key, as docs/integrations.md asks), payers in their browsers (a wallet, a provider's
// page or its QR, and back), an attacker forging returns from one address, and each instance's jobs.
// A step names a payment by a number, taken among the payments its operation applies to (those a payer
// could still pay, those at a provider, those paid): mostly one of the newest, as people go on with
// what they just started.
import type { InjectOptions } from 'fastify';
import { expirySweep } from '../../src/jobs/expiry-sweep.js';
import { saveBankAccount } from '../../src/merchants/bank-account-store.js';
import { runPayoutRails } from '../../src/jobs/payout-rails-job.js';
import { paymentPath } from '../../src/payments/payment-url.js';
import { stepAction } from '../../src/portal/checkout-address.js';
import { reconcileAttempts } from '../../src/provider-payments/reconcile-attempts.js';
import { returnUrl } from '../../src/provider-payments/start-attempt.js';
import { webhookSender } from '../../src/webhooks/webhook-sender.js';
import { INITIATE_PATH, LOOKUP_PATH } from '../api-client.js';
import { codeOf, LINKS_PATH, linkPayer } from '../link-client.js';
import type { PortalResponse } from '../portal-client.js';
import { formOf, providerPayer } from '../provider-payer.js';
import type { Step } from './schedule.js';
import { PUBLIC_URL, type World } from './world.js';

export const RETURN_URL = 'https://shop.example.com/return';
/** The attacker's one address; payers have their own. */
export const ATTACKER = '203.0.113.66';

interface ProviderAttempt {
  provider: string;
  way: 'page' | 'qr';
  /** The provider's page the payer is on (page way). */
  page?: PortalResponse;
  /** The QR page's attempt and the sandbox bank app that pays it (QR way). */
  qr?: { idx: string; bankApp: string };
  /** Where the provider sent the payer back, once the payer decided there. */
  returnUrl?: string;
}

export interface PaymentHandle {
  pidx: string;
  amount: number;
  link?: string;
  payer: ReturnType<typeof providerPayer>;
  attempt?: ProviderAttempt;
  /** The callbacks the merchant's return_url received (their parameters). */
  callbacks: Record<string, string>[];
}

interface LinkHandle {
  idx: string;
  code: string;
}

/** What a step did, in a word, for the run's log; and the status checks a flood of forged returns caused. */
export interface StepResult {
  note: string;
  /** Answers of 5xx to forged returns. */
  serverErrors?: number;
  flood?: { provider: string; reference: string; returns: number; statusChecks: number };
}

const local = (url: string) => (url.startsWith(PUBLIC_URL) ? url.slice(PUBLIC_URL.length) : url);

export class Driver {
  readonly payments: PaymentHandle[] = [];
  readonly links: LinkHandle[] = [];
  private made = 0;
  private payers = 0;
  private ticks = 0;

  constructor(private readonly world: World) {}

  private get key() {
    return this.world.merchant.test_secret_key;
  }

  /**
   * The merchant's server: a request with its key, a 5xx tried again up to twice with the same
   * Idempotency-Key, a minute later each time: past the minute a request whose answer was lost (its
   * instance dead, or the store's answer to it cut) holds its key (src/http/idempotency-store.ts),
   * which a retry sooner waits out in real time.
   */
  private async merchant(method: 'GET' | 'POST', url: string, payload?: object, idempotencyKey?: string) {
    let last = { status: 0, body: {} as Record<string, unknown> };
    for (let tries = 0; tries < 3; tries++) {
      const request: InjectOptions = { method, url, headers: { authorization: `Key ${this.key}`, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) }, ...(payload ? { payload } : {}) };
      const answer = await this.world.front.inject(request);
      last = { status: answer.statusCode, body: answer.json() as Record<string, unknown> };
      if (answer.statusCode < 500) return last;
      await this.wait(61);
    }
    return last;
  }

  /**
   * Time passes as it does for running instances: the held requests due meanwhile reach their
   * providers, and every PROVIDER_RECONCILE_INTERVAL_SECONDS the reconciliation job runs (on each
   * instance in turn), in the order they come.
   */
  private async wait(seconds: number): Promise<void> {
    const { clock, boundary, config } = this.world;
    const until = clock.now().getTime() + seconds * 1000;
    const interval = config.providerReconcileIntervalSeconds * 1000;
    for (;;) {
      const now = clock.now().getTime();
      const tick = (Math.floor(now / interval) + 1) * interval;
      const next = Math.min(tick, boundary.nextDue() ?? Infinity);
      if (next > until) break;
      clock.advance((next - now) / 1000);
      await boundary.deliverDue();
      if (next === tick) {
        this.ticks += 1;
        await this.job(async (ctx) => `reconciled ${await reconcileAttempts(ctx)}`, this.ticks % 2);
      }
    }
    clock.advance((until - clock.now().getTime()) / 1000);
  }

  private newPayer() {
    this.payers += 1;
    return providerPayer(this.world.front, PUBLIC_URL, { remoteAddress: `10.0.${Math.floor(this.payers / 250)}.${(this.payers % 250) + 1}` });
  }

  /** Mostly one of the three newest of `among` (a payer goes on with the payment just made), now and then an older one. */
  private pick<T>(n: number, among: T[]): T | undefined {
    const count = among.length;
    if (!count) return undefined;
    return n % 8 === 7 ? among[n % count] : among[count - 1 - (n % Math.min(count, 3))];
  }

  private payment(n: number): PaymentHandle | undefined {
    return this.pick(n, this.payments);
  }

  /** A payment a payer could still pay (its books say Initiated, in time), as payers come to pay. */
  private async payable(n: number): Promise<PaymentHandle | undefined> {
    const open = new Set(
      (await this.world.db.query<{ pidx: string }>(`SELECT pidx FROM payments WHERE merchant_id = $1 AND status = 'Initiated' AND expires_at > $2`, [this.world.merchant.merchant.id, this.world.clock.now()])).map((r) => r.pidx),
    );
    return this.pick(n, this.payments.filter((p) => open.has(p.pidx)));
  }

  /** A payment whose payer is at a provider (`decided`: and has decided there, or waits on a QR). */
  private atProvider(n: number, decided: boolean): PaymentHandle | undefined {
    return this.pick(n, this.payments.filter((p) => p.attempt && (p.attempt.qr || Boolean(p.attempt.returnUrl) === decided)));
  }

  /** Keeps the parameters of a redirect to the merchant's return_url. */
  private callback(handle: PaymentHandle, location: string | undefined): string {
    if (!location?.startsWith(RETURN_URL)) return location ? `on to ${local(location).slice(0, 40)}` : 'no redirect';
    handle.callbacks.push(Object.fromEntries(new URL(location).searchParams));
    return `back at the merchant: ${new URL(location).searchParams.get('status')}`;
  }

  async run(step: Step): Promise<StepResult> {
    const o = step.operation;
    switch (o.op) {
      case 'initiate': {
        const n = ++this.made;
        const answer = await this.merchant('POST', INITIATE_PATH, { return_url: RETURN_URL, website_url: 'https://shop.example.com', amount: o.amount, purchase_order_id: `order-${n}`, purchase_order_name: `Order (${n})` }, `initiate-${n}`);
        if (answer.status !== 200) return { note: `initiate answered ${answer.status}` };
        this.payments.push({ pidx: String(answer.body.pidx), amount: o.amount, payer: this.newPayer(), callbacks: [] });
        return { note: 'initiated' };
      }
      case 'create-link': {
        const answer = await this.merchant('POST', LINKS_PATH, { name: `Seats ${this.links.length + 1}`, amount: o.amount, max_payments: o.places });
        if (answer.status !== 201 && answer.status !== 200) return { note: `link answered ${answer.status}` };
        this.links.push({ idx: String(answer.body.idx), code: codeOf(String(answer.body.url)) });
        return { note: 'link made' };
      }
      case 'link-payment': {
        const link = this.links.length ? this.links[o.link % this.links.length] : undefined;
        if (!link) return { note: 'no link yet' };
        const payer = this.newPayer();
        const started = await linkPayer(this.world.front, { remoteAddress: `10.1.0.${(this.payers % 250) + 1}` }).start(link.code);
        if (!started.pidx) return { note: `the link answered ${started.answer.status}` };
        const [row] = await this.world.db.query<{ amount: number }>('SELECT amount FROM payments WHERE pidx = $1', [started.pidx]);
        this.payments.push({ pidx: started.pidx, amount: Number(row.amount), link: link.idx, payer, callbacks: [] });
        return { note: 'link payment started' };
      }
      case 'pay-wallet': {
        const handle = await this.payable(o.payment);
        if (!handle) return { note: 'nothing to pay' };
        const answer = await handle.payer.browser.pay(handle.pidx);
        return { note: answer.status === 303 ? this.callback(handle, answer.location) : `wallet: ${answer.status}` };
      }
      case 'choose-provider': {
        const handle = await this.payable(o.payment);
        return handle ? this.choose(handle, o.provider, o.way) : { note: 'nothing to pay' };
      }
      case 'decide-at-provider': {
        const handle = this.atProvider(o.payment, false);
        return handle ? this.decide(handle, o.outcome) : { note: 'nobody at a provider' };
      }
      case 'return': {
        const handle = this.atProvider(o.payment, true);
        return handle ? this.comeBack(handle) : { note: 'nobody to come back' };
      }
      case 'pay-at-provider': {
        const handle = await this.payable(o.payment);
        if (!handle) return { note: 'nothing to pay' };
        const chosen = await this.choose(handle, o.provider, o.way);
        if (!chosen.note.startsWith('on ')) return chosen;
        const decided = await this.decide(handle, o.outcome);
        const back = await this.comeBack(handle);
        return { note: `${chosen.note}; ${decided.note}; ${back.note}` };
      }
      case 'qr-wait': {
        const handle = this.pick(o.payment, this.payments.filter((p) => p.attempt?.qr));
        return handle ? this.qrWait(handle, handle.attempt!.qr!.idx) : { note: 'no QR' };
      }
      case 'forge-returns':
        return this.forge(o.payment, o.count);
      case 'refund': {
        // The merchant refunds one of its paid payments, the newest mostly (its books know which are
        // paid); every other refund one paid through Khalti, whose refunds Bhuktani makes itself.
        const paid = await this.world.db.query<{ pidx: string; amount: number; transaction_id: string; refunded_amount: number }>(
          `SELECT p.pidx, p.amount, p.transaction_id, p.refunded_amount FROM payments p
             LEFT JOIN provider_attempts a ON a.transaction_id = p.transaction_id
            WHERE p.merchant_id = $1 AND p.status IN ('Completed', 'Partially refunded') AND ($2 OR a.provider = 'khalti')
            ORDER BY p.created_at DESC, p.pidx`,
          [this.world.merchant.merchant.id, o.payment % 2 === 1],
        );
        const row = paid[o.payment % 8 === 7 ? o.payment % Math.max(paid.length, 1) : o.payment % Math.min(paid.length, 2)];
        if (!row) return { note: 'nothing to refund' };
        const left = Number(row.amount) - Number(row.refunded_amount);
        const amount = o.whole || left < 200 ? undefined : Math.floor(left / 200) * 100;
        const n = ++this.made;
        const answer = await this.merchant('POST', `/api/merchant-transaction/${encodeURIComponent(row.transaction_id)}/refund/`, amount === undefined ? undefined : { amount }, `refund-${n}`);
        return { note: `refund of ${amount ?? 'the rest'}: ${answer.status}` };
      }
      case 'lookup': {
        const handle = this.payment(o.payment);
        if (!handle) return { note: 'no payment yet' };
        const answer = await this.merchant('POST', LOOKUP_PATH, { pidx: handle.pidx });
        return { note: `lookup: ${answer.status} ${String(answer.body.status)}` };
      }
      case 'reconcile':
        return this.job(async (ctx) => `reconciled ${await reconcileAttempts(ctx)}`);
      case 'sweep':
        return this.job(async (ctx) => `swept ${await expirySweep(ctx, () => {}).runOnce()}`);
      case 'webhooks': {
        if (step.faults.length) this.world.webhooks.failNext();
        const result = await this.job(async (ctx) => `delivered ${await webhookSender(ctx, { onError: () => {} }).runOnce()}`);
        this.world.webhooks.healthy();
        return result;
      }
      case 'bank-account': {
        // Test payouts go to the merchant's account (the simulator answers it by its last four digits).
        const account = { bankName: 'Nepal Bank Ltd.', branch: 'New Road', accountName: this.world.merchant.merchant.name, accountNumber: `0123456789${o.lastFour}`, bankCode: '0401', updatedAt: this.world.clock.now() };
        await saveBankAccount(this.world.providers.ctx.db, this.world.merchant.merchant.id, account);
        return { note: `account …${o.lastFour}` };
      }
      case 'payout': {
        const answer = await this.merchant('POST', '/api/v2/settlements/', {});
        const moved = await this.job(async (ctx) => `NPI moved ${await runPayoutRails(ctx)}`);
        return { note: `payout: ${answer.status}; ${moved.note}` };
      }
      case 'advance':
        await this.wait(o.seconds);
        return { note: `+${o.seconds}s` };
    }
  }

  /** A job's run in the step's instance (or `instance`); a store fault it meets is the job's error, as the periodic job logs it. */
  private async job(run: (ctx: World['instances'][number]['ctx']) => Promise<string>, instance?: number): Promise<StepResult> {
    try {
      const done = await this.world.inInstance((serving) => run(serving.ctx), instance);
      return { note: done === 'died' ? 'the instance died' : done };
    } catch (error) {
      return { note: `job failed: ${(error as Error).message.slice(0, 80)}` };
    }
  }

  /** The payer presses the provider's button (or its QR's) on the hosted page and lands on its page. */
  private async choose(handle: PaymentHandle, provider: string, way: 'page' | 'qr'): Promise<StepResult> {
    if (way === 'qr' && provider === 'fonepay') return this.chooseQr(handle);
    const page = await handle.payer.choose(handle.pidx, provider as 'khalti');
    if (page.status !== 200 || !page.body.includes('name="outcome"')) return { note: `${provider}: ${page.status}` };
    handle.attempt = { provider, way: 'page', page };
    return { note: `on ${provider}'s page` };
  }

  /** The payer decides on the provider's page, or in the bank app that scanned the QR. */
  private async decide(handle: PaymentHandle, outcome: 'paid' | 'canceled' | 'pending_then_paid'): Promise<StepResult> {
    const attempt = handle.attempt!;
    if (attempt.qr) {
      const bank = await handle.payer.browser.get(local(attempt.qr.bankApp));
      const form = [...bank.body.matchAll(/<form method="post"[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => f.includes(`value="${outcome}"`));
      if (bank.status !== 200 || !form) return { note: `bank app: ${bank.status}` };
      const { action, fields } = formOf(form);
      const done = await handle.payer.browser.post(local(action), fields);
      return { note: `bank app ${outcome}: ${done.status}` };
    }
    try {
      attempt.returnUrl = await handle.payer.pick(attempt.page!, outcome);
    } catch (error) {
      return { note: `the provider's page: ${(error as Error).message.slice(0, 60)}` };
    }
    return { note: `${outcome} at ${attempt.provider}` };
  }

  /** The payer comes back from the provider (again, if they did before), or the QR page asks. */
  private async comeBack(handle: PaymentHandle): Promise<StepResult> {
    const attempt = handle.attempt!;
    if (attempt.qr) return this.qrWait(handle, attempt.qr.idx);
    if (!attempt.returnUrl) return { note: 'not decided at the provider' };
    const back = await handle.payer.back(attempt.returnUrl);
    return { note: back.status >= 500 ? `return: ${back.status}` : this.callback(handle, back.location) };
  }

  private async chooseQr(handle: PaymentHandle): Promise<StepResult> {
    const browser = handle.payer.browser;
    await browser.get(paymentPath(handle.pidx));
    const chosen = await browser.post(stepAction('provider', handle.pidx), { provider: 'fonepay', way: 'qr' });
    if (chosen.status !== 303 || !chosen.location?.startsWith('/pay/qr/')) return { note: `QR: ${chosen.status}` };
    const page = await browser.get(chosen.location);
    const bankApp = /href="([^"]*\/sandbox\/fonepay\/bank-app\?qr=[^"]+)"/.exec(page.body)?.[1];
    if (page.status !== 200 || !bankApp) return { note: `QR page: ${page.status}` };
    handle.attempt = { provider: 'fonepay', way: 'qr', qr: { idx: chosen.location.split('/')[3], bankApp: bankApp.replaceAll('&amp;', '&') } };
    return { note: 'on the QR page' };
  }

  private async qrWait(handle: PaymentHandle, idx: string): Promise<StepResult> {
    const answer = await this.world.front.inject({ method: 'GET', url: `/pay/qr/${idx}/wait` });
    if (answer.statusCode !== 200) return { note: `QR wait: ${answer.statusCode}` };
    const { next } = answer.json() as { next?: string };
    return { note: next ? this.callback(handle, next) : 'waiting' };
  }

  /**
   * `count` forged returns at once for the payment's newest attempt, from the attacker's address: each
   * claims it was paid, with no signature of the provider's. None may be a 5xx unless a fault met the
   * step (run.ts).
   */
  private async forge(n: number, count: number): Promise<StepResult> {
    const handle = this.payment(n);
    if (!handle) return { note: 'no payment yet' };
    const [attempt] = await this.world.db.query<{ idx: string; provider: string; provider_reference: string | null }>("SELECT idx, provider, provider_reference->>'pidx' AS provider_reference FROM provider_attempts WHERE pidx = $1 ORDER BY id DESC LIMIT 1", [handle.pidx]);
    if (!attempt) return { note: 'no attempt to forge a return for' };
    const url = forgedReturn(attempt, handle.amount);
    const before = this.world.boundary.calls.length;
    const answers = await Promise.all(Array.from({ length: count }, () => this.world.front.inject({ method: 'GET', url, remoteAddress: ATTACKER })));
    const reference = attempt.provider === 'khalti' ? (attempt.provider_reference ?? '') : attempt.idx;
    const statusChecks = this.world.boundary.calls.slice(before).filter((c) => c.kind === 'status' && c.reference === reference).length;
    const serverErrors = answers.filter((a) => a.statusCode >= 500).length;
    return { note: `${count} forged returns: ${[...new Set(answers.map((a) => a.statusCode))].join('/')}`, serverErrors, flood: { provider: attempt.provider, reference, returns: count, statusChecks } };
  }
}

/** A return claiming the attempt was paid, in the provider's words, with no signature of its own. */
export function forgedReturn(attempt: { idx: string; provider: string; provider_reference: string | null }, amount: number): string {
  const path = local(returnUrl(PUBLIC_URL, attempt.provider as 'khalti', attempt.idx, 'success'));
  const rupees = (amount / 100).toFixed(2);
  switch (attempt.provider) {
    case 'khalti':
      return `${path}?${new URLSearchParams({ pidx: attempt.provider_reference ?? '', status: 'Completed', transaction_id: 'FORGED', amount: String(amount), total_amount: String(amount), purchase_order_id: attempt.idx })}`;
    case 'esewa':
      return `${path}?data=${encodeURIComponent(Buffer.from(JSON.stringify({ status: 'COMPLETE', transaction_uuid: attempt.idx, total_amount: rupees, product_code: 'EPAYTEST', signed_field_names: 'transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names', transaction_code: 'FORGED', signature: 'Zm9yZ2Vk' })).toString('base64'))}`;
    case 'connectips':
      return `/pay/return/connectips/success?TXNID=${attempt.idx}`;
    default:
      return `${path}?${new URLSearchParams({ PRN: attempt.idx, PID: 'fonepay123', PS: 'true', RC: 'successful', UID: '12345', BC: 'NICENPKA', INI: '9800000001', P_AMT: rupees, R_AMT: rupees, DV: 'FORGED' })}`;
  }
}
