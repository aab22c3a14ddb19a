// The one interface every upstream rail implements (contract section 13). The hosted page and the
// reconciliation job know only this: start an attempt, read where the payer's browser came back,
// ask the provider's own server for the attempt's status, refund. Each provider's signing, status
// names and addresses live in its folder, beside its simulator.
import type { Environment } from '../environment.js';

export const providerNames = ['khalti', 'esewa', 'connectips'] as const;
export type ProviderName = (typeof providerNames)[number];

export const isProviderName = (value: unknown): value is ProviderName => typeof value === 'string' && (providerNames as readonly string[]).includes(value);

/** What the payer reads on the hosted page's button, and the list's `type.name`. */
export const providerLabels: Record<ProviderName, string> = { khalti: 'Khalti', esewa: 'eSewa', connectips: 'connectIPS' };
export const recordTypeOfProvider = { khalti: 'Khalti payment', esewa: 'eSewa payment', connectips: 'connectIPS payment' } as const;
/** The owner id of a provider's ledger accounts. */
export const providerNumbers: Record<ProviderName, number> = { khalti: 1, esewa: 2, connectips: 3 };

/** How the payer's browser goes to the provider: a redirect, or a form it posts there. */
export type ProviderRedirect = { method: 'GET'; url: string } | { method: 'POST'; url: string; fields: [string, string][] };

/** An attempt as a connector sees it. */
export interface AttemptRef {
  idx: string;
  amount: number;
  environment: Environment;
  /** The provider's own id of the attempt, when it gave one at the start (Khalti's pidx). */
  providerReference: string | null;
  createdAt: Date;
}

export interface AttemptToStart extends AttemptRef {
  pidx: string;
  orderName: string;
  merchantName: string;
  websiteUrl: string;
  customer: { name?: string; email?: string; phone?: string } | null;
  /** Where the provider sends the payer back (Bhuktani's return addresses for this attempt). */
  returnUrl: (outcome: 'success' | 'failure') => string;
}

/**
 * What the provider's own server said about an attempt, for the same amount and reference:
 * paid; failed (final, no money taken); open (not paid yet, may still be); unknown (no answer,
 * an error, an answer that does not fit, or one the provider itself calls undecided).
 */
export type ProviderAnswer =
  | { kind: 'paid'; transactionId: string; fee: number; detail: string }
  | { kind: 'failed'; detail: string }
  | { kind: 'open'; detail: string }
  /** `fault`: the provider did not answer as it should (no answer, an error, garbage): counts against its health. */
  | { kind: 'unknown'; detail: string; fault?: boolean };

/** What a returning browser says happened: a hint for the page only, never money. */
export interface ProviderReturn {
  attemptIdx?: string;
  claim: 'paid' | 'canceled' | 'unclear';
  /**
   * What the attempt's reference becomes once the return is the provider's own (its signature holds):
   * the id its status check asks by, when only the return carries it (Fonepay's trace id).
   */
  providerReference?: string;
}

export type RefundAnswer = { kind: 'refunded'; reference?: string; detail: string } | { kind: 'refused'; detail: string } | { kind: 'unknown'; detail: string; fault?: boolean };

export interface Provider {
  readonly name: ProviderName;
  /** Starts the attempt at the provider; a ProviderUnavailableError when it does not answer as it should. */
  start(attempt: AttemptToStart): Promise<{ redirect: ProviderRedirect; providerReference?: string }>;
  /** The attempt named by the payer's return (`path`: what follows /pay/return/<provider>/), unverified. */
  readReturn(path: string[], query: Record<string, string>): ProviderReturn;
  /** Asks the provider's own server; never throws for what the provider does. */
  status(attempt: AttemptRef): Promise<ProviderAnswer>;
  /**
   * A QR the provider issues for the attempt, which the hosted page shows and any bank app pays
   * (Fonepay's dynamic QR); its reference says how to ask about it. A ProviderUnavailableError as for start.
   */
  startQr?(attempt: AttemptToStart): Promise<{ qrMessage: string; providerReference: string }>;
  /** The provider's refund API, for providers that have one; `key` makes a retry the same refund. */
  refund?(attempt: AttemptRef & { providerTransactionId: string }, refund: { key: string; amount: number; whole: boolean }): Promise<RefundAnswer>;
}

/** The provider did not start the attempt (no answer, an error, an answer that does not fit). */
export class ProviderUnavailableError extends Error {}
