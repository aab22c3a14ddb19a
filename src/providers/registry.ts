// Every provider Bhuktani speaks to, one line each: a provider is its folder and its line here.
// Everything else that names providers (the CLI's options, the console's forms, the hosted page's
// buttons, the list's type names, the ledger's accounts, the settlement report's columns) is derived
// from these descriptors, and registry.test.ts holds the rest (the store's checks, the typed client's
// names) to them. Each provider's simulator is the sandbox's line (src/sandbox/simulators.ts).
import { connectips } from './connectips/connectips.js';
import { esewa } from './esewa/esewa.js';
import { fonepay } from './fonepay/fonepay.js';
import { khalti } from './khalti/khalti.js';
import type { KnownRecordType } from '../client/types.js';
import type { ProviderDescriptor } from './provider.js';

/** In the order the hosted page offers them. */
export const providers = {
  khalti,
  esewa,
  connectips,
  fonepay,
} as const satisfies Record<string, ProviderDescriptor>;

export type ProviderName = keyof typeof providers;

/**
 * The providers of `registry` whose `field` another provider has too (never when each has its own):
 * a copied descriptor shares its ledger number, its list name and its label.
 */
export type Shared<R extends Record<string, ProviderDescriptor>, F extends 'ledgerNumber' | 'recordType' | 'label'> = {
  [K in keyof R]: R[K][F] extends R[Exclude<keyof R, K>][F] ? K : never;
}[keyof R];

/** `true` when each provider of `registry` has its own ledger number, list name and label; else what is shared. */
export type EachItsOwn<R extends Record<string, ProviderDescriptor>> = [Shared<R, 'ledgerNumber'> | Shared<R, 'recordType'> | Shared<R, 'label'>] extends [never]
  ? true
  : { shareALedgerNumber: Shared<R, 'ledgerNumber'>; shareAListName: Shared<R, 'recordType'>; shareALabel: Shared<R, 'label'> };

/** `true` when the typed client knows every list name of `registry` (src/client/types.ts); else the names it lacks. */
export type ListedInClient<R extends Record<string, ProviderDescriptor>> = [Exclude<R[keyof R]['recordType'], KnownRecordType>] extends [never]
  ? true
  : { notInTheTypedClient: Exclude<R[keyof R]['recordType'], KnownRecordType> };

// A copied descriptor, or a list name the typed client does not know, fails the type check here.
export const registryHolds: [EachItsOwn<typeof providers>, ListedInClient<typeof providers>] = [true, true];
export const providerNames = Object.keys(providers) as ProviderName[];

export const isProviderName = (value: unknown): value is ProviderName => typeof value === 'string' && Object.hasOwn(providers, value);

export const descriptorOf = (name: ProviderName): ProviderDescriptor => providers[name];
export const providerLabel = (name: ProviderName): string => providers[name].label;
/** The list's `type.name` of a payment through it. */
export const recordTypeOf = (name: ProviderName): ProviderRecordType => providers[name].recordType;
export type ProviderRecordType = (typeof providers)[ProviderName]['recordType'];
/** The owner id of its ledger accounts. */
export const ledgerNumberOf = (name: ProviderName): number => providers[name].ledgerNumber;

/** Whether the provider takes a payment of `amount` paisa. */
export function acceptsAmount(name: ProviderName, amount: number): boolean {
  const { least, most } = providers[name].amounts as ProviderDescriptor['amounts'];
  return amount >= least && (most === undefined || amount <= most);
}

/** The names and ledger numbers as parallel arrays, for SQL's unnest (`unnest($1::text[], $2::int[])`). */
export const providerNumbersForSql = (): [string[], number[]] => [providerNames, providerNames.map(ledgerNumberOf)];
