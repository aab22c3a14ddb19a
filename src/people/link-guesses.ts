// Guesses at the links e-mailed to people: a password reset, an e-mail verification, an invitation
// to a merchant's team or to the console; and the payment links' codes. A wrong, dead or made-up
// link counts against the address it came from, in the database like log-ins, so the limit holds
// across instances. One count for every kind of e-mailed link: guessing at one kind buys no more
// guesses at another.
import type { AppContext } from '../context.js';
import { SignInError } from './sign-in-error.js';
import { countSignInFailure, lockedForSeconds } from './sign-in-throttle.js';

/** Wrong or dead links from one address before links are refused there for a while (30 s, doubling). */
export const LINK_FAILURES_BEFORE_LOCK = 10;

/** A kind of link whose guesses are counted together: its scope in the failure counts, and its limit. */
export interface LinkKind {
  scope: string;
  failuresBeforeLock: number;
}

const emailedLinks: LinkKind = { scope: 'link', failuresBeforeLock: LINK_FAILURES_BEFORE_LOCK };

/**
 * Payment links' codes (/l/<code>, printed and scanned) count apart from the e-mailed links, and more
 * of them are let through: many payers share one mobile network's address, and a lock refuses every
 * payer behind it. Codes are 53 random bits, so the limit only slows a search that cannot succeed.
 */
export const paymentLinkCodes: LinkKind = { scope: 'paylink', failuresBeforeLock: 30 };

/**
 * What `find` finds for a link followed from `ip`. Throws SignInError: 'locked' while the address
 * is locked (even for a right link, which is not looked up), 'wrong_code' when nothing is found
 * (counted; the count's last one locks).
 */
export async function followLink<T>(ctx: AppContext, ip: string, find: () => Promise<T | undefined>, kind: LinkKind = emailedLinks): Promise<T> {
  const scope = `${kind.scope}:ip:${ip}`;
  const locked = await lockedForSeconds(ctx.db, [scope], ctx.clock.now());
  if (locked > 0) throw new SignInError('locked', locked);
  const found = await find();
  if (found !== undefined) return found;
  const lockFor = await countSignInFailure(ctx.db, [[scope, kind.failuresBeforeLock]], ctx.clock.now());
  throw lockFor > 0 ? new SignInError('locked', lockFor) : new SignInError('wrong_code');
}
