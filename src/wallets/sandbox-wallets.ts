// The published sandbox wallets exist in every test environment without any set-up: a migration
// step creates and funds them.
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/db.js';
import { findOrCreateAccount } from '../ledger/ledger-store.js';
import { postJournal } from '../ledger/post-journal.js';
import { sandbox } from './wallet.js';
import { insertWallet } from './wallet-store.js';

export async function seedSandboxWallets(tx: Queryable): Promise<void> {
  const now = new Date();
  const funding = await findOrCreateAccount(tx, 'test', 'funding', 0);
  for (const mobile of sandbox.mobiles) {
    const wallet = await insertWallet(tx, {
      idx: randomBytes(16).toString('base64url'),
      environment: 'test',
      mobile,
      name: mobile === sandbox.pendingMobile ? 'Sandbox Pending' : `Sandbox Payer ${mobile.slice(-1)}`,
      mpinHash: null,
      sandbox: true,
      now,
    });
    if (!wallet) continue;
    const account = await findOrCreateAccount(tx, 'test', 'wallet', wallet.id);
    await postJournal(tx, {
      environment: 'test',
      kind: 'topup',
      pidx: null,
      at: now,
      postings: [
        { accountId: funding.id, amount: -sandbox.fundingPaisa },
        { accountId: account.id, amount: sandbox.fundingPaisa, wallet: true },
      ],
    });
  }
}
