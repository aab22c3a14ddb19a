// How a posted credit moves (pure rules, no I/O). connectIPS credits within the HTTP session that
// debited; NCHL-IPS passes each credit through its states, one per `stepSeconds` of the simulator's
// clock (NCHL's settlement sessions, shortened), to ACSC or RJCT.
import { ipsPendingCreditStatuses, publishedReasons } from '../../protocols/npi/codes.js';
import { creditFails } from './npi-accounts.js';
import type { CreditMove } from './npi-books.js';
import type { Rail } from './npi-request.js';

/** A credit's first status and its fate, by the creditor account. */
export function creditCourse(rail: Rail, creditorAccount: string): { creditStatus: string; finalStatus: string } {
  const fails = creditFails(creditorAccount);
  if (rail === 'cips') return { creditStatus: 'ENTR', finalStatus: fails ? publishedReasons.cipsCreditRejected.code : '000' };
  return { creditStatus: 'ENTR', finalStatus: fails ? 'RJCT' : 'ACSC' };
}

/** The status a credit should have reached by `now`; never one behind where it is. */
export function dueCreditStatus(rail: Rail, current: string, final: string, postedAt: Date, now: Date, stepSeconds: number): string {
  if (rail === 'cips') return final;
  const course = [...ipsPendingCreditStatuses, final];
  const steps = stepSeconds > 0 ? Math.floor((now.getTime() - postedAt.getTime()) / (stepSeconds * 1000)) : course.length;
  return course[Math.min(Math.max(steps, course.indexOf(current)), course.length - 1)];
}

/** The move of a credit to `to`; at a failed final status the debit comes back (`reversalStatus` 000, Cases II and VII). */
export function creditMove(rail: Rail, id: number, from: string, to: string, final: string): CreditMove {
  const credited = to === '000' || to === 'ACSC';
  if (to !== final || credited) return { id, from, to, credited };
  const reason = rail === 'cips' ? publishedReasons.cipsCreditRejected : publishedReasons.ipsCreditRejected;
  return { id, from, to, credited, reason_code: reason.code, reason_desc: reason.description, reversal_status: '000' };
}
