// Concurrent merchants and payers against server processes: initiates, payments and cancels on the
// hosted page, refunds. It records every answer that promised something (a 200 initiate, a 303 paid
// or canceled, a 200 refund), so a suite can check afterwards that each promise was kept.
import { callbackOf, cancelOnPortal, merchantApi, noAnswerKind, payOnPortal, SANDBOX_WALLETS } from './http-client.js';
import { sleep } from './server-process.js';

export interface LoadRecord {
  /** pidx → amount, for every initiate answered 200. */
  initiated: Map<string, number>;
  /** pidx → transaction_id, for every payment whose hosted page sent the payer back with Completed. */
  completed: Map<string, string>;
  /** Payments whose hosted page sent the payer back with User canceled. */
  canceled: Set<string>;
  /** Every refund answered 200. */
  refunds: { pidx: string; transactionId: string; amount: number }[];
  /** Every payout answered 201 (contract section 10). */
  payouts: { idx: string; amount: number }[];
  /** `operation status` (e.g. `initiate 200`, `refund 400`) or `operation no answer: refused` → how many. */
  outcomes: Map<string, number>;
  /** Answers with a 5xx status: operation, status and the start of the body. */
  serverErrors: string[];
  /** Requests answered (any status). */
  answers: number;
}

export interface LoadOptions {
  /** Where each request goes; called per request, so a test can spread them over instances. */
  base: () => string;
  key: string;
  workers: number;
  /** Share of initiated payments paid on the hosted page, and canceled there; the rest are left to expire. */
  payShare?: number;
  cancelShare?: number;
  /** Share of paid payments refunded (half of them in two parts). */
  refundShare?: number;
  /** Share of paid payments followed by a payout request of a fifth of their amount (it may be refused: the balance). */
  payoutShare?: number;
  /** Each worker stops after this many initiates, whatever happens. */
  maxFlowsPerWorker?: number;
  timeoutMs?: number;
}

export interface Load {
  record: LoadRecord;
  /** Stops starting new flows and waits for the ones under way. */
  stop(): Promise<void>;
}

export function emptyRecord(): LoadRecord {
  return { initiated: new Map(), completed: new Map(), canceled: new Set(), refunds: [], payouts: [], outcomes: new Map(), serverErrors: [], answers: 0 };
}

export function startLoad(options: LoadOptions, record: LoadRecord = emptyRecord()): Load {
  const api = merchantApi(options.key, options.timeoutMs);
  const payShare = options.payShare ?? 0.55;
  const cancelShare = options.cancelShare ?? 0.1;
  const refundShare = options.refundShare ?? 0.5;
  const payoutShare = options.payoutShare ?? 0;
  let stopping = false;

  const count = (outcome: string) => record.outcomes.set(outcome, (record.outcomes.get(outcome) ?? 0) + 1);

  /** Runs one request; undefined when it got no answer. */
  async function attempt<T extends { status: number; body: unknown }>(operation: string, run: () => Promise<T>): Promise<T | undefined> {
    try {
      const answer = await run();
      record.answers += 1;
      count(`${operation} ${answer.status}`);
      if (answer.status >= 500) {
        record.serverErrors.push(`${operation} ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
        // As a client told to retry later: not at once.
        await sleep(200 + Math.random() * 200);
      }
      return answer;
    } catch (error) {
      count(`${operation} no answer: ${noAnswerKind(error)}`);
      // The server is gone for a moment (killed, restarting): do not spin.
      await sleep(100 + Math.random() * 200);
      return undefined;
    }
  }

  async function flow(wallet: string) {
    const amount = 1000 + Math.floor(Math.random() * 9000);
    const initiated = await attempt('initiate', () => api.initiate(options.base(), { amount }));
    if (initiated?.status !== 200) return;
    const { pidx } = initiated.body;
    record.initiated.set(pidx, amount);

    const dice = Math.random();
    if (dice < cancelShare) {
      const canceled = await attempt('cancel', () => cancelOnPortal(options.base, pidx, options.timeoutMs));
      if (canceled && callbackOf(canceled)?.status === 'User canceled') record.canceled.add(pidx);
      return;
    }
    if (dice >= cancelShare + payShare) return;
    const paid = await attempt('pay', () => payOnPortal(options.base, pidx, wallet, options.timeoutMs));
    const callback = paid && callbackOf(paid);
    if (callback?.status !== 'Completed') return;
    record.completed.set(pidx, callback.transaction_id);

    if (Math.random() < payoutShare) {
      const payout = await attempt('payout', () => api.payout(options.base(), Math.floor(amount / 5)));
      if (payout?.status === 201) record.payouts.push({ idx: payout.body.idx, amount: payout.body.amount });
    }
    if (Math.random() >= refundShare) return;
    const parts = Math.random() < 0.5 ? [Math.floor(amount / 2), amount - Math.floor(amount / 2)] : [undefined];
    for (const part of parts) {
      const refunded = await attempt('refund', () => api.refund(options.base(), callback.transaction_id, part));
      if (refunded?.status !== 200) return;
      record.refunds.push({ pidx, transactionId: callback.transaction_id, amount: part ?? amount });
    }
  }

  async function worker(index: number) {
    const wallet = SANDBOX_WALLETS[index % SANDBOX_WALLETS.length];
    for (let flows = 0; !stopping && flows < (options.maxFlowsPerWorker ?? 10_000); flows++) {
      await flow(wallet);
    }
  }

  const running = Promise.all(Array.from({ length: options.workers }, (_, i) => worker(i)));
  return {
    record,
    async stop() {
      stopping = true;
      await running;
    },
  };
}

/** The outcomes as one line, for messages and the log. */
export function describeOutcomes(record: LoadRecord): string {
  return [...record.outcomes].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}: ${v}`).join(', ');
}
