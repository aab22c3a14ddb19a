// The simulator's bank accounts: an account number answers by its last four digits.
// NPI publishes its codes, not its name matching: the score here is the simulator's own (a Dice
// coefficient over letter pairs, word order ignored), 000 at 100, 999 from 50, 523 below.
import { accountValidation } from '../../protocols/npi/codes.js';

export type SandboxAccount = 'holds_given_name' | 'another_name' | 'closed' | 'credit_fails';

/** What a sandbox account is, by its last four digits; any other holds the name given with it. */
export function sandboxAccount(accountId: string): SandboxAccount {
  switch (accountId.slice(-4)) {
    case '0002':
      return 'another_name';
    case '0003':
      return 'closed';
    case '0004':
      return 'credit_fails';
    default:
      return 'holds_given_name';
  }
}

/** The holder of every `…0002` account: another person than the one asked about. */
export const anotherHolder = 'SABITRI KUMARI ADHIKARI';

/** The simulator's choice for a closed account: a creditor bank's (CBS) refusal, as NPI relays one. */
export const closedAccount = { responseCode: '114', responseMessage: 'Account is closed.' } as const;

/** Below this score a name is another person's (523); from it up to 99 a partial match (999). */
const partialFrom = 50;

/** Whether money sent to the account comes back: a closed account or one whose credit fails. */
export const creditFails = (accountId: string) => ['closed', 'credit_fails'].includes(sandboxAccount(accountId));

/** How alike two names are, 0 to 100: 100 only for the same words, in any order, in any case. */
export function nameMatch(given: string, holder: string): number {
  const words = (name: string) => name.toUpperCase().replace(/[^A-Z ]/g, ' ').split(/\s+/).filter(Boolean).sort();
  const a = words(given).join(' ');
  const b = words(holder).join(' ');
  if (a === b) return a ? 100 : 0;
  const pairs = (text: string) => Array.from({ length: Math.max(text.length - 1, 0) }, (_, i) => text.slice(i, i + 2)).filter((pair) => !pair.includes(' '));
  const left = pairs(a);
  const right = pairs(b);
  const pool = [...right];
  let common = 0;
  for (const pair of left) {
    const at = pool.indexOf(pair);
    if (at >= 0) {
      common++;
      pool.splice(at, 1);
    }
  }
  // Never 100 for names that differ.
  return Math.min(99, Math.floor((200 * common) / Math.max(left.length + right.length, 1)));
}

export interface Validation {
  responseCode: string;
  responseMessage: string;
  matchPercentate: number;
}

/** NPI's verdict on `accountName` for a sandbox account. */
export function validateSandboxAccount(accountId: string, accountName: string): Validation {
  const kind = sandboxAccount(accountId);
  if (kind === 'closed') return { ...closedAccount, matchPercentate: 0 };
  const score = kind === 'another_name' ? nameMatch(accountName, anotherHolder) : 100;
  if (score === 100) return { ...accountValidation.matched, matchPercentate: 100 };
  if (score >= partialFrom) {
    return {
      responseCode: accountValidation.partial.responseCode,
      responseMessage: 'The account name differs from the one given. A transaction once sent cannot be reversed: please reconfirm the account before sending.',
      matchPercentate: score,
    };
  }
  return { ...accountValidation.mismatch, matchPercentate: score };
}
