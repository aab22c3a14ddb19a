// Ledger account ids never change once committed, so they are remembered per store; an account
// made inside a transaction is not remembered, as that transaction may still roll back.
import type { Db, Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import { findOrCreateAccount, type AccountKind } from './ledger-store.js';

const SERVICE_OWNER = 0;
const known = new WeakMap<Db, Map<string, number>>();

export interface AccountRef {
  environment: Environment;
  kind: AccountKind;
  ownerId: number;
}

export async function ledgerAccount(db: Db, tx: Queryable, ref: AccountRef): Promise<number> {
  let ids = known.get(db);
  if (!ids) known.set(db, (ids = new Map()));
  const key = `${ref.environment}:${ref.kind}:${ref.ownerId}`;
  const cached = ids.get(key);
  if (cached !== undefined) return cached;
  const account = await findOrCreateAccount(tx, ref.environment, ref.kind, ref.ownerId);
  if (!account.created) ids.set(key, account.id);
  return account.id;
}

export const feeAccount = (environment: Environment): AccountRef => ({ environment, kind: 'fee', ownerId: SERVICE_OWNER });
export const fundingAccount = (environment: Environment): AccountRef => ({ environment, kind: 'funding', ownerId: SERVICE_OWNER });
export const merchantAccount = (environment: Environment, merchantId: number): AccountRef => ({ environment, kind: 'merchant', ownerId: merchantId });
export const walletAccount = (environment: Environment, walletId: number): AccountRef => ({ environment, kind: 'wallet', ownerId: walletId });
/** Money of requested payouts on its way to the merchants' banks. */
export const clearingAccount = (environment: Environment): AccountRef => ({ environment, kind: 'clearing', ownerId: SERVICE_OWNER });
/** Outside Bhuktani: the banks payouts are paid to. Its balance is all the money that has left. */
export const bankAccount = (environment: Environment): AccountRef => ({ environment, kind: 'bank', ownerId: SERVICE_OWNER });
/** What a provider collected for the operator and has not yet settled (its balance is negative: money in). */
export const receivableAccount = (environment: Environment, provider: number): AccountRef => ({ environment, kind: 'receivable', ownerId: provider });
/** What providers kept of what they collected. */
export const providerFeeAccount = (environment: Environment, provider: number): AccountRef => ({ environment, kind: 'provider_fee', ownerId: provider });
/** Money owed back to payers through a provider (refunds and second successes not yet refunded there). */
export const refundDueAccount = (environment: Environment, provider: number): AccountRef => ({ environment, kind: 'refund_due', ownerId: provider });
