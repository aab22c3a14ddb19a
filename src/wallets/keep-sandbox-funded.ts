import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import { ledgerAccount, walletAccount } from '../ledger/accounts.js';
import { lockedWalletBalance } from '../ledger/ledger-store.js';
import { fundWallet } from './topup-wallet.js';
import { sandbox, type Wallet } from './wallet.js';

/** Sandbox wallets never run dry: one short of `amount` is topped up first, in the caller's transaction. */
export async function keepSandboxFunded(ctx: AppContext, tx: Queryable, wallet: Wallet, amount: number): Promise<void> {
  if (!wallet.sandbox) return;
  // Locked, so two payments at once cannot both find the money there and then both debit it.
  const balance = await lockedWalletBalance(tx, await ledgerAccount(ctx.db, tx, walletAccount(wallet.environment, wallet.id)));
  if (balance < amount) await fundWallet(ctx, tx, wallet, sandbox.fundingPaisa + amount);
}
