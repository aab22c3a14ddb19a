// The published sandbox wallets exist in every test environment without any set-up: a migration
// step creates and funds them (003 Bhuktani's own, 030 eSewa's test IDs).
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/db.js';
import { findOrCreateAccount } from '../ledger/ledger-store.js';
import { postJournal } from '../ledger/post-journal.js';
import { esewaSandbox, sandbox } from './wallet.js';

export interface SandboxPayer {
  mobile: string;
  name: string;
}

export const sandboxPayers: SandboxPayer[] = sandbox.mobiles.map((mobile) => ({
  mobile,
  name: mobile === sandbox.pendingMobile ? 'Sandbox Pending' : `Sandbox Payer ${mobile.slice(-1)}`,
}));

export const esewaSandboxPayers: SandboxPayer[] = esewaSandbox.mobiles.map((mobile) => ({ mobile, name: `eSewa Sandbox Payer ${mobile.slice(-1)}` }));

export async function seedSandboxWallets(tx: Queryable, payers: SandboxPayer[]): Promise<void> {
  const now = new Date();
  const funding = await findOrCreateAccount(tx, 'test', 'funding', 0);
  for (const { mobile, name } of payers) {
    // Its own statement: a migration step sees the table as it was then, not today's columns.
    const [wallet] = await tx.query<{ id: number }>(
      `INSERT INTO wallets (idx, environment, mobile, name, mpin_hash, sandbox, created_at)
       VALUES ($1, 'test', $2, $3, NULL, true, $4) ON CONFLICT (environment, mobile) DO NOTHING RETURNING id`,
      [randomBytes(16).toString('base64url'), mobile, name, now],
    );
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
