// A merchant's settlement bank account: where its payouts go. The request's
// fields are one definition, so the website's forms and any API give the same messages.
import { object, text } from '../http/fields.js';

export interface BankAccount {
  bankName: string;
  branch: string;
  accountName: string;
  /** Digits as the bank prints them, leading zeros kept. */
  accountNumber: string;
  /** NCHL's 4-digit code of the bank, and its branch's code: how NPI routes a payout (null: not given). */
  bankCode?: string | null;
  branchCode?: string | null;
  updatedAt: Date;
}

const ACCOUNT_NUMBER = /^\d{6,20}$/;

export const bankAccountRequest = object({
  bank_name: text({ required: true, maxLength: 100 }),
  branch: text({ required: true, maxLength: 100 }),
  account_name: text({ required: true, maxLength: 100 }),
  account_number: text({
    required: true,
    maxLength: 20,
    check: (v) => (ACCOUNT_NUMBER.test(v.replace(/[\s-]/g, '')) ? undefined : 'Enter the account number: 6 to 20 digits.'),
  }),
  bank_code: text({ maxLength: 4, check: (v) => (/^\d{4}$/.test(v) ? undefined : 'Enter NCHL’s code of the bank: 4 digits, e.g. 0401.') }),
  branch_code: text({ maxLength: 4, check: (v) => (/^[A-Za-z0-9]{1,4}$/.test(v) ? undefined : 'Enter the branch’s code: 1 to 4 letters or digits.') }),
});

/** The fields a form may leave empty: not given at all, rather than given blank. */
export const OPTIONAL_BANK_FIELDS: ReadonlySet<string> = new Set(['bank_code', 'branch_code']);

/** The account to save from a parsed `bankAccountRequest`. */
export function bankAccountFrom(
  fields: { bank_name?: string; branch?: string; account_name?: string; account_number?: string; bank_code?: string; branch_code?: string },
  updatedAt: Date,
): BankAccount {
  return {
    bankName: fields.bank_name!,
    branch: fields.branch!,
    accountName: fields.account_name!,
    accountNumber: normalAccountNumber(fields.account_number!),
    bankCode: fields.bank_code ?? null,
    branchCode: fields.branch_code ?? null,
    updatedAt,
  };
}

/** For the owner's e-mail: where payouts go, the number masked. */
export function payoutsGoToLine(a: Pick<BankAccount, 'bankName' | 'branch' | 'accountName' | 'accountNumber'>): string {
  return `Payouts go to ${a.accountName}, ${a.bankName} (${a.branch}), account ${maskedAccountNumber(a.accountNumber)}.`;
}

/** The account number without the spaces and dashes people type in it. */
export function normalAccountNumber(raw: string): string {
  return raw.replace(/[\s-]/g, '');
}

/** For pages and e-mails: the last four digits only. */
export function maskedAccountNumber(accountNumber: string): string {
  return `••••${accountNumber.slice(-4)}`;
}

/** For pages: `Nepal Bank Ltd., New Road · Himalayan Tea House Pvt. Ltd. · ••••7890`. */
export function bankAccountLine(a: Pick<BankAccount, 'bankName' | 'branch' | 'accountName' | 'accountNumber'>): string {
  return `${a.bankName}, ${a.branch} · ${a.accountName} · ${maskedAccountNumber(a.accountNumber)}`;
}
