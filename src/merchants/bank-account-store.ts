// The SQL of merchants' settlement bank accounts.
import type { Queryable } from '../db/db.js';
import type { BankAccount } from './bank-account.js';

export async function findBankAccount(db: Queryable, merchantId: number): Promise<BankAccount | undefined> {
  const [row] = await db.query<{ bank_name: string; branch: string; account_name: string; account_number: string; bank_code: string | null; branch_code: string | null; updated_at: Date }>(
    'SELECT bank_name, branch, account_name, account_number, bank_code, branch_code, updated_at FROM merchant_bank_accounts WHERE merchant_id = $1',
    [merchantId],
  );
  return (
    row && {
      bankName: row.bank_name,
      branch: row.branch,
      accountName: row.account_name,
      accountNumber: row.account_number,
      bankCode: row.bank_code,
      branchCode: row.branch_code,
      updatedAt: row.updated_at,
    }
  );
}

/** Sets the merchant's account, replacing the one before; returns the one before, for the audit and the owner's e-mail. */
export async function saveBankAccount(db: Queryable, merchantId: number, account: BankAccount): Promise<BankAccount | undefined> {
  const before = await findBankAccount(db, merchantId);
  await db.query(
    `INSERT INTO merchant_bank_accounts (merchant_id, bank_name, branch, account_name, account_number, bank_code, branch_code, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (merchant_id) DO UPDATE
        SET bank_name = EXCLUDED.bank_name, branch = EXCLUDED.branch, account_name = EXCLUDED.account_name,
            account_number = EXCLUDED.account_number, bank_code = EXCLUDED.bank_code, branch_code = EXCLUDED.branch_code,
            updated_at = EXCLUDED.updated_at`,
    [merchantId, account.bankName, account.branch, account.accountName, account.accountNumber, account.bankCode ?? null, account.branchCode ?? null, account.updatedAt],
  );
  return before;
}
