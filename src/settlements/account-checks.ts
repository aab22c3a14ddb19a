// Accounts verified before money moves (NPI's account validation): a full match may be paid; a
// partial match, or another holder's name, waits for an operator's approval in the console; an
// account NPI refuses is refused with NPI's reason; no answer is asked again. Each environment's rail
// asks its own NPI (the sandbox's simulator in test), when the merchant saves the account and again
// when a payout finds it unchecked.
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { AppContext } from '../context.js';
import type { Environment } from '../environment.js';
import { AppError } from '../http/errors.js';
import type { BankAccount } from '../merchants/bank-account.js';
import type { NpiConnector } from '../payout-rails/npi/npi-connector.js';
import { accountValidation } from '../protocols/npi/codes.js';
import { approveAccountCheck, saveAccountCheck, type AccountCheckRow, type AccountKey, type AccountOutcome } from './account-check-store.js';
import { findPayoutRail, npiConnectorOf } from './payout-rail-setup.js';

/**
 * Where a test payout goes when the account names no NCHL bank, or there is no account: a bank of
 * the simulator's (NCHL's published validation example, bankId 0401, branch 81). Its accounts answer
 * by their last four digits (sandbox/npi/npi-accounts.ts); the merchant's own number is kept.
 */
export const SANDBOX_CREDITOR = { bank: '0401', branch: '81' } as const;

/** The NCHL bank an account is paid at in `environment`; undefined when live has none to go by. */
export function creditorBank(environment: Environment, bankCode: string | null | undefined): string | undefined {
  return bankCode ?? (environment === 'test' ? SANDBOX_CREDITOR.bank : undefined);
}

/** NPI's answer as an account check: a name refused (999 at 80 or below, 523) is another holder's, for an operator. */
function outcomeOf(answer: Awaited<ReturnType<NpiConnector['validateAccount']>>): { outcome: AccountOutcome; score: number | null; message: string; branchCode: string | null } {
  switch (answer.kind) {
    case 'match':
      return { outcome: 'match', score: 100, message: 'NPI: the name matches the account’s holder.', branchCode: answer.branchId ?? null };
    case 'partial':
      return { outcome: 'partial', score: answer.score, message: answer.message || 'NPI: the name differs in part.', branchCode: answer.branchId ?? null };
    case 'refused':
      if (answer.code === accountValidation.partial.responseCode || answer.code === accountValidation.mismatch.responseCode) {
        return { outcome: 'partial', score: answer.score ?? null, message: answer.message, branchCode: null };
      }
      return { outcome: 'refused', score: null, message: `${answer.message} (${answer.code})`, branchCode: null };
    case 'unknown':
      return { outcome: 'unknown', score: null, message: answer.detail, branchCode: null };
  }
}

/** Asks NPI about the account and records its word. */
export async function checkAccount(ctx: Pick<AppContext, 'db' | 'clock'>, connector: NpiConnector, key: AccountKey): Promise<AccountCheckRow> {
  const answer = await connector.validateAccount({ bankId: key.bankCode, accountId: key.accountNumber, accountName: key.accountName });
  return saveAccountCheck(ctx.db, key, outcomeOf(answer), ctx.clock.now());
}

/** Why money may not go to the account yet, or undefined when it may. */
export function accountWaits(check: AccountCheckRow | undefined): string | undefined {
  if (!check) return 'Waiting for NPI to validate the bank account.';
  switch (check.outcome) {
    case 'match':
      return undefined;
    case 'partial':
      if (check.approved_by) return undefined;
      return `The account's holder differs from the name given${check.score === null ? '' : ` (NPI's match: ${check.score} of 100)`}: an operator checks it before money goes there.`;
    case 'refused':
      return `NPI refused the bank account: ${check.message} Change the settlement account on the Business page.`;
    case 'unknown':
      return `Waiting for NPI to validate the bank account (${check.message}).`;
  }
}

/**
 * When a merchant saves an account: each environment whose rail is NPI asks it (live only where the
 * account names its bank). A refusal refuses the change with NPI's reason; anything else is saved,
 * and payouts wait where an operator must approve.
 */
export async function validateNewAccount(ctx: AppContext, merchantId: number, account: Pick<BankAccount, 'accountName' | 'accountNumber' | 'bankCode'>): Promise<void> {
  for (const environment of ['test', 'live'] as const) {
    const bankCode = creditorBank(environment, account.bankCode);
    if (!bankCode) continue;
    const rail = await findPayoutRail(ctx, environment);
    if (rail.rail !== 'npi') continue;
    let connector: NpiConnector;
    try {
      connector = npiConnectorOf(ctx, rail.setup);
    } catch {
      continue; // An expired key: payouts say so; the account is asked when the rail serves again.
    }
    const check = await checkAccount(ctx, connector, { merchantId, environment, bankCode, accountNumber: account.accountNumber, accountName: account.accountName });
    if (check.outcome === 'refused') {
      throw new AppError('validation_error', { fields: { account_number: [`NPI refused this account${environment === 'test' ? ' (sandbox)' : ''}: ${check.message}`] } });
    }
  }
}

/**
 * An operator's approval of an account whose holder differs from the name given (NPI's partial
 * match or another name), audited with NPI's score and message: its payouts may then go.
 */
export async function approveAccount(ctx: Pick<AppContext, 'db' | 'clock'>, input: { actor: Actor; checkId: number; reason: string }): Promise<AccountCheckRow> {
  if (!input.reason.trim()) throw new AppError('validation_error', { fields: { reason: ['Say why the account may be paid (e.g. who confirmed it).'] } });
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const approved = await approveAccountCheck(tx, input.checkId, input.actor.label, now);
    if (!approved) throw new AppError('conflict', { detail: 'This account is not waiting for an approval (approved already, or NPI did not ask for one).' });
    await appendAudit(tx, {
      now,
      actor: input.actor,
      action: 'bank_account.approve',
      object: { type: 'bank_account', id: String(approved.id) },
      environment: approved.environment,
      reason: input.reason.trim(),
      before: { outcome: approved.outcome, score: approved.score, message: approved.message },
      after: { approved_by: approved.approved_by },
    });
    return approved;
  });
}
