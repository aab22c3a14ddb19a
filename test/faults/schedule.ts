// What a run of the fault simulator does, drawn from its seed: a list of steps, each an operation a
// merchant, a payer, an attacker, a job or the clock performs, on one of two Bhuktani instances,
// with the faults its calls meet at the providers' boundary and the store's. The same seed draws
// the same schedule (fast-check's generator, seeded), so a failing run is replayed by its seed.
import fc from 'fast-check';
import type { ProviderName } from '../../src/providers/registry.js';

/**
 * At the providers' boundary. `late`: processed after Bhuktani gave up on it (its timeout), up to the
 * quiet period later; `lost`: processed, its answer lost; `duplicate`: delivered twice (never a
 * refund: see provider-boundary.ts); `throttled`: 429 with Retry-After, not processed; `error`: a
 * 5xx, processed or not; `reset`: the connection reset, not processed; `slow-body`: processed, its
 * answer arriving past the timeout; `garbage`: an HTML error page for an answer; `foreign`: another
 * payment's answer from the same address; `kill`: processed, and the instance that asked dies.
 */
export const providerFaults = ['late', 'lost', 'duplicate', 'throttled', 'error', 'reset', 'slow-body', 'garbage', 'foreign', 'kill'] as const;
export type ProviderFault = (typeof providerFaults)[number];

/**
 * At the store. `cut-before-commit`: the connection drops before the commit's answer and nothing is
 * committed; `cut-after-commit`: committed, and the answer lost; `statement-timeout`: a statement
 * cancelled; `kill`: the instance dies at a statement (its open transaction rolled back).
 */
export const storeFaults = ['cut-before-commit', 'cut-after-commit', 'statement-timeout', 'kill'] as const;
export type StoreFault = (typeof storeFaults)[number];

/**
 * `nth`: at the store, the fault meets the step's nth statement or commit (counted from 0 on the
 * step's instance), if the step makes that many; at the providers, the nth call from the step on of
 * the kind it names (`call`: any, or only a start, a status check or a refund). `processed` (error):
 * whether the provider acted before its 5xx. `lateSeconds` (late): when the held request reaches the
 * provider, in the simulated clock.
 */
export type Fault =
  | { at: 'provider'; nth: number; call: 'any' | 'start' | 'status' | 'refund'; kind: ProviderFault; processed: boolean; lateSeconds: number }
  | { at: 'store'; nth: number; kind: StoreFault };

export const webProviders = ['khalti', 'esewa', 'connectips', 'fonepay'] as const satisfies readonly ProviderName[];

export type Operation =
  | { op: 'initiate'; amount: number }
  | { op: 'create-link'; amount: number; places: number }
  | { op: 'link-payment'; link: number }
  | { op: 'pay-wallet'; payment: number }
  | { op: 'choose-provider'; payment: number; provider: (typeof webProviders)[number]; way: 'page' | 'qr' }
  | { op: 'decide-at-provider'; payment: number; outcome: 'paid' | 'canceled' | 'pending_then_paid' }
  /** The three above as one payer does them: choose, decide there, come back (or, for a QR, wait). */
  | { op: 'pay-at-provider'; payment: number; provider: (typeof webProviders)[number]; way: 'page' | 'qr'; outcome: 'paid' | 'canceled' | 'pending_then_paid' }
  | { op: 'return'; payment: number }
  | { op: 'forge-returns'; payment: number; count: number }
  | { op: 'qr-wait'; payment: number }
  | { op: 'refund'; payment: number; whole: boolean }
  | { op: 'lookup'; payment: number }
  | { op: 'reconcile' }
  | { op: 'sweep' }
  | { op: 'webhooks' }
  | { op: 'payout' }
  /** The merchant's settlement account: one NPI credits (0001) or one whose credit fails after the debit (0004). */
  | { op: 'bank-account'; lastFour: '0001' | '0004' }
  | { op: 'advance'; seconds: number };

export interface Step {
  operation: Operation;
  /** Which of the two instances behind the load balancer serves it. */
  instance: 0 | 1;
  faults: Fault[];
}

const index = fc.nat({ max: 40 });
/** Amounts every provider takes (Khalti's least is Rs 10), in whole rupees. */
const amount = fc.integer({ min: 10, max: 500 }).map((rupees) => rupees * 100);

const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 10, arbitrary: amount.map((a) => ({ op: 'initiate', amount: a }) as const) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('create-link' as const), amount, places: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('link-payment' as const), link: index }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('pay-wallet' as const), payment: index }) },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('choose-provider' as const), payment: index, provider: fc.constantFrom(...webProviders), way: fc.constantFrom('page' as const, 'page' as const, 'qr' as const) }) },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('decide-at-provider' as const), payment: index, outcome: fc.constantFrom('paid' as const, 'paid' as const, 'canceled' as const, 'pending_then_paid' as const) }) },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('return' as const), payment: index }) },
  {
    weight: 8,
    arbitrary: fc.record({
      op: fc.constant('pay-at-provider' as const),
      payment: index,
      // Khalti twice as often: the one with a refund API, whose refunds meet the faults too.
      provider: fc.constantFrom(...webProviders, 'khalti' as const),
      way: fc.constantFrom('page' as const, 'page' as const, 'qr' as const),
      outcome: fc.constantFrom('paid' as const, 'paid' as const, 'paid' as const, 'canceled' as const, 'pending_then_paid' as const),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('forge-returns' as const), payment: index, count: fc.constantFrom(1, 3, 12, 40) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('qr-wait' as const), payment: index }) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant('refund' as const), payment: index, whole: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('lookup' as const), payment: index }) },
  { weight: 7, arbitrary: fc.constant({ op: 'reconcile' } as const) },
  { weight: 1, arbitrary: fc.constant({ op: 'sweep' } as const) },
  { weight: 2, arbitrary: fc.constant({ op: 'webhooks' } as const) },
  { weight: 1, arbitrary: fc.constant({ op: 'payout' } as const) },
  { weight: 5, arbitrary: fc.constantFrom(1, 3, 20, 61, 130, 400, 900).map((seconds) => ({ op: 'advance', seconds }) as const) },
);

/** Seconds after it was sent that a late request reaches the provider: within the quiet period no request outlives (PROVIDER_REFUND_QUIET_SECONDS, 600). */
const lateSeconds = fc.constantFrom(15, 45, 75, 150, 300, 540);

const fault: fc.Arbitrary<Fault> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      at: fc.constant('provider' as const),
      nth: fc.constantFrom(0, 0, 0, 1, 2),
      call: fc.constantFrom('any' as const, 'any' as const, 'any' as const, 'start' as const, 'status' as const, 'refund' as const, 'refund' as const),
      kind: fc.constantFrom<ProviderFault>(...providerFaults, 'late', 'late'),
      processed: fc.boolean(),
      lateSeconds,
    }),
  },
  { weight: 2, arbitrary: fc.record({ at: fc.constant('store' as const), nth: fc.constantFrom(0, 1, 1, 2, 3, 5, 8), kind: fc.constantFrom(...storeFaults) }) },
);

/**
 * The payouts' profile: money comes in by wallet, and payouts go out through NPI (the test
 * environment's rail) while the clock moves, so most of NPI's calls (tokens, postings, reports) meet
 * the faults: answers lost, postings late or duplicated, 5xx, resets, garbage, another batch's
 * answer, an instance killed mid-posting, and access tokens expiring as the clock passes them.
 */
const payoutOperation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 4, arbitrary: amount.map((a) => ({ op: 'initiate', amount: a }) as const) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('pay-wallet' as const), payment: index }) },
  { weight: 6, arbitrary: fc.constant({ op: 'payout' } as const) },
  { weight: 1, arbitrary: fc.constantFrom('0001' as const, '0004' as const).map((lastFour) => ({ op: 'bank-account', lastFour }) as const) },
  { weight: 2, arbitrary: fc.constant({ op: 'webhooks' } as const) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('refund' as const), payment: index, whole: fc.boolean() }) },
  { weight: 4, arbitrary: fc.constantFrom(1, 3, 20, 61, 130, 400, 900).map((seconds) => ({ op: 'advance', seconds }) as const) },
);

const stepOf = (operations: fc.Arbitrary<Operation>): fc.Arbitrary<Step> =>
  fc.record({
    operation: operations,
    instance: fc.constantFrom(0 as const, 1 as const),
    faults: fc.oneof({ weight: 3, arbitrary: fc.constant<Fault[]>([]) }, { weight: 2, arbitrary: fc.array(fault, { minLength: 1, maxLength: 2 }) }),
  });

/** Every operation (`all`), or the payouts' profile (`payouts`). */
export const profiles = { all: stepOf(operation), payouts: stepOf(payoutOperation) };
export type Profile = keyof typeof profiles;

/** The schedule a seed draws: `length` steps of `profile`. */
export function scheduleOf(seed: number, length: number, profile: Profile = 'all'): Step[] {
  return fc.sample(fc.array(profiles[profile], { minLength: length, maxLength: length }), { seed, numRuns: 1 })[0];
}

/** A step in a line, for the log of a run. */
export function describeStep(s: Step): string {
  const { op, ...rest } = s.operation;
  const args = Object.entries(rest).map(([k, v]) => `${k}=${v}`).join(' ');
  const faults = s.faults.map((f) => (f.at === 'provider' ? `provider#${f.nth}${f.call === 'any' ? '' : ` ${f.call}`}:${f.kind}${f.kind === 'late' ? `(${f.lateSeconds}s)` : f.kind === 'error' ? `(${f.processed ? 'processed' : 'not processed'})` : ''}` : `store#${f.nth}:${f.kind}`));
  return `${op}${args ? ` ${args}` : ''} on ${s.instance}${faults.length ? ` !! ${faults.join(', ')}` : ''}`;
}
