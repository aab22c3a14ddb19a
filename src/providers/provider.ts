// What every upstream rail is, as the rest of Bhuktani knows it. A provider's folder exports one
// `ProviderDescriptor` (registry.ts lists them): its names, its set-up's fields, the amounts it takes,
// its connector, how its returning browser names the attempt, its sandbox set-up, its settlement
// report. The connector is the one interface the hosted page and the reconciliation job call: start
// an attempt, read where the payer's browser came back, ask the provider's own server for the
// attempt's status, refund. Each provider's signing, status names and addresses live in its folder
// (its simulator in src/sandbox/); nothing in a folder imports the registry, so folders never see
// each other.
import type { Static, TSchema } from '@sinclair/typebox';
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { Transport } from './provider-http.js';

/** A provider as the operator set it up (or, in test with nothing set up, its simulator's). */
export interface ProviderSetup {
  name: string;
  environment: Environment;
  enabled: boolean;
  /** Nobody set it up: the test environment's simulator. */
  sandbox: boolean;
  settings: Record<string, string>;
  credentials: Record<string, string>;
}

/**
 * A connector's set-up with the fields it reads: `SetupWith<{ base_url: string }, { secret_key: string }>`.
 * The descriptor's `setup` must give each (the type check fails at the descriptor otherwise), and the
 * registry hands the connector a set-up read through those fields (connectors.ts: `readSetup`).
 */
export type SetupWith<Settings, Credentials> = Omit<ProviderSetup, 'settings' | 'credentials'> & { settings: Settings; credentials: Credentials };

/** The values of `fields` kept as settings (`secret: false`) or as credentials (`secret: true`), by name. */
export type SetupValues<F extends readonly SetupField[], Secret extends boolean> = readonly SetupField[] extends F
  ? Record<string, string>
  : { [K in F[number] as K extends { secret: Secret } ? K['name'] : never]: string };

/** One field of a provider's set-up: a CLI flag (`--` and the name with dashes) and a console input. */
export interface SetupField {
  name: string;
  /** What an operator reads beside the console's input. */
  label: string;
  /** Sealed at rest and never shown back (a credential), or a setting shown on the console. */
  secret: boolean;
  /** `url`: checked as an address (https in live); `file`: the CLI reads a file (`flag`), stored base64. */
  kind?: 'url' | 'file';
  optional?: boolean;
  /** The CLI's flag when it is not the name's. */
  flag?: string;
}

/** The columns of a provider's settlement report (a CSV), matched without regard to case, spaces or underscores. */
export interface ReportColumns {
  /** The column naming the payment, and which of the attempt's ids it holds. */
  key: string[];
  keyField: 'provider_transaction_id' | 'idx';
  amount: string[];
  fee: string[];
  date: string[];
}

/** What a provider's sandbox set-up is made of: its simulator's base address and the store's own secrets. */
export interface SandboxTools {
  base: string;
  db: Queryable;
  /** A secret of this store for `purpose`, the same on every instance (32 hex characters). */
  secret: (purpose: string) => Promise<string>;
}

/**
 * A provider as the registry knows it. `F`: its set-up’s fields (`as const`), whose values its
 * connector, its credentials' check and its sandbox set-up are typed by; `R`: the schema of the
 * reference its connector keeps of an attempt (stored as JSON, read back through it).
 */
export interface ProviderDescriptor<F extends readonly SetupField[] = readonly SetupField[], R extends TSchema = TSchema> {
  /** What the payer reads on the hosted page's button, and operators everywhere. */
  label: string;
  /** The transaction list's `type.name`. */
  recordType: `${string} payment`;
  /** The owner id of the provider's ledger accounts: never reused, never changed. */
  ledgerNumber: number;
  /** The set-up's fields, settings and credentials. */
  setup: F;
  /** A problem with credentials that look right field by field (a key file that does not open), by field. */
  checkCredentials?(credentials: SetupValues<F, true>): Record<string, string> | undefined;
  /** The amounts the provider takes, in paisa: it is not offered for others. */
  amounts: { least: number; most?: number };
  /**
   * Its connector, for a set-up of its fields: one that reads a field they do not give fails the type
   * check here. (Any provider's, as the registry sees it, takes `never`: connectors.ts hands each the
   * set-up it read through that provider's fields.)
   */
  connector: (setup: readonly SetupField[] extends F ? never : SetupWith<SetupValues<F, false>, SetupValues<F, true>>, transport: Transport) => Provider<Static<R>>;
  /**
   * What its connector keeps of an attempt (`providerReference`: Khalti's pidx, Fonepay's QR message
   * or verified trace id), as a TypeBox schema: stored as JSON, and read back through it before the
   * connector sees it (a stored one that does not fit asks nothing). `Type.Null()` when it keeps none.
   */
  reference: R;
  /** The attempt a payer's return names (…/pay/return/<name>/<path>?<query>), read before its set-up is known. */
  returnedAttempt: (path: string[], query: Record<string, string>) => string | undefined;
  /** The test environment's set-up when nobody set one: its simulator. */
  sandboxSetup: (tools: SandboxTools) => Promise<Pick<ProviderSetup, 'settings' | 'credentials'>>;
  settlementReport: ReportColumns;
  /**
   * A second way on the hosted page, when the provider also issues a QR for a payment (Fonepay's
   * dynamic QR): its button's label, and the QR message an attempt's reference holds (the connector's
   * `startQr` gave both). Its return address takes `<attempt>/qr`: the QR page goes on through it.
   * `sandboxBankApp`: where its sandbox simulator serves a bank app that pays a QR it issued (a path
   * under PUBLIC_URL), linked under the test environment's QR; src/sandbox/simulators.test.ts holds
   * each simulator to it. `only`: the provider has no page of its own (its connector no `start`): the
   * hosted page offers its QR alone.
   */
  qr?: { label: string; messageOf(providerReference: Static<R> | null): string | undefined; sandboxBankApp: (qrMessage: string) => string; only?: true };
  /** Refunds go through its API (the connector's `refund`); otherwise to the operators' queue. */
  refundsByApi: boolean;
}

/** How the payer's browser goes to the provider: a redirect, or a form it posts there. */
export type ProviderRedirect = { method: 'GET'; url: string } | { method: 'POST'; url: string; fields: [string, string][] };

/** Whom the payment is billed to, as the merchant gave it at initiate (`customer_info`). */
export type Customer = { name?: string; email?: string; phone?: string } | null;

/** An attempt as a connector sees it; `R`: the reference its connector keeps (the descriptor's `reference`). */
export interface AttemptRef<R = unknown> {
  idx: string;
  amount: number;
  environment: Environment;
  /** What the connector kept of the attempt (Khalti's pidx at the start, Fonepay's trace id from a verified return), or null. */
  providerReference: R | null;
  createdAt: Date;
}

export interface AttemptToStart extends AttemptRef<never> {
  pidx: string;
  orderName: string;
  merchantName: string;
  websiteUrl: string;
  customer: Customer;
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
export interface ProviderReturn<R = unknown> {
  attemptIdx?: string;
  claim: 'paid' | 'canceled' | 'unclear';
  /**
   * The provider signed what the return says, and the signature holds (eSewa's, Fonepay's): a claim
   * of `paid` then comes from a payer who paid. Without it, anyone can send the return.
   */
  signed?: boolean;
  /**
   * What the attempt's reference becomes once the return is the provider's own (its signature holds):
   * the id its status check asks by, when only the return carries it (Fonepay's trace id).
   */
  providerReference?: R;
}

export type RefundAnswer = { kind: 'refunded'; reference?: string; detail: string } | { kind: 'refused'; detail: string } | { kind: 'unknown'; detail: string; fault?: boolean };

/**
 * What the provider's own record of a paid attempt says was refunded of it (Khalti's lookup: its
 * status and `refunded`): some or none, the whole or not, and the amount when it tells it.
 */
export type RefundedRecord =
  | { kind: 'record'; any: boolean; whole: boolean; amount?: number; detail: string }
  | { kind: 'unknown'; detail: string; fault?: boolean };

/** Starts the attempt at the provider; a ProviderUnavailableError when it does not answer as it should, a ProviderRefusedError when it refuses the request as invalid. */
type Start<R> = (attempt: AttemptToStart) => Promise<{ redirect: ProviderRedirect; providerReference?: R }>;
/**
 * A QR the provider issues for the attempt, which the hosted page shows and any bank app pays
 * (Fonepay's dynamic QR); its reference says how to ask about it. A ProviderUnavailableError as for start.
 */
type StartQr<R> = (attempt: AttemptToStart) => Promise<{ qrMessage: string; providerReference: R }>;

/**
 * A connector: a way to start (its own page, `start`; its QR, `startQr`; or both: one at least, or
 * the type check fails), and the rest.
 */
export type Provider<R = unknown> = ProviderCalls<R> & ({ start: Start<R>; startQr?: StartQr<R> } | { start?: undefined; startQr: StartQr<R> });
/** A connector with a page of its own. */
export type PageProvider<R = unknown> = ProviderCalls<R> & { start: Start<R>; startQr?: StartQr<R> };

interface ProviderCalls<R> {
  /** The attempt named by the payer's return (`path`: what follows /pay/return/<provider>/), unverified. */
  readReturn(path: string[], query: Record<string, string>): ProviderReturn<R>;
  /** Asks the provider's own server; never throws for what the provider does. */
  status(attempt: AttemptRef<R>): Promise<ProviderAnswer>;
  /**
   * The provider's refund API, for providers that have one. Asked once per refund unless the
   * provider's record (`refunded`) says an earlier request of it was not made: no provider promises
   * that a request sent twice refunds once.
   */
  refund?(attempt: AttemptRef<R> & { providerTransactionId: string; customer: Customer }, refund: { amount: number; whole: boolean }): Promise<RefundAnswer>;
  /** What the provider's own record says was refunded of a paid attempt (with `refund`). */
  refunded?(attempt: AttemptRef<R>): Promise<RefundedRecord>;
}

/** The provider did not start the attempt (no answer, an error, an answer that does not fit). */
export class ProviderUnavailableError extends Error {}

/**
 * The provider refused the request as invalid (Khalti's 400 `validation_error`): it answered as it
 * should, so this is no failure of the provider and counts nothing against its health.
 */
export class ProviderRefusedError extends Error {}
