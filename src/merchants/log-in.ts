// Merchant log-in, of a person by their e-mail, landing on the business they chose last. A slow-down: after repeated failures for one email, or from one address,
// log-ins are refused for a time that doubles with every further failure. Counted in the database,
// so the slow-down holds across instances.
import type { AppContext } from '../context.js';
import type { MerchantUser } from './merchant-user.js';
import { findPersonForLogIn } from './merchant-person-store.js';
import { findLandingUser } from './merchant-user-store.js';
import { countSignInFailure, forgetSignInFailures, lockedForSeconds } from '../people/sign-in-throttle.js';
import { hashPassword, verifyPassword } from '../people/password.js';

/** Failures for one email before it is locked; an address shared by many people (an office) gets more. */
export const EMAIL_FAILURES_BEFORE_LOCK = 5;
export const IP_FAILURES_BEFORE_LOCK = 20;

export class LogInError extends Error {
  constructor(
    readonly code: 'wrong_credentials' | 'locked',
    readonly retryAfterSeconds = 0,
  ) {
    super(code === 'locked' ? `Too many failed log-ins. Try again in ${retryAfterSeconds} seconds.` : 'Wrong email or password.');
  }
}

// Checked against when the email is unknown, so a wrong email takes as long as a wrong password.
let decoyHash: Promise<string> | undefined;

/**
 * The person whose e-mail and password these are, as the user of the business they chose last. A
 * person who belongs to no business any more is answered as a wrong password (after the same work).
 */
export async function logIn(ctx: AppContext, options: { email: string; password: string; ip: string }): Promise<{ user: MerchantUser }> {
  const now = ctx.clock.now();
  const email = options.email.trim().toLowerCase();
  const scopes = { email: `email:${email}`, ip: `ip:${options.ip}` };
  const locked = await lockedForSeconds(ctx.db, [scopes.email, scopes.ip], now);
  if (locked > 0) throw new LogInError('locked', locked);

  const found = email ? await findPersonForLogIn(ctx.db, email) : undefined;
  const passwordHash = found?.passwordHash ?? (await (decoyHash ??= hashPassword('decoy password, never matches')));
  const matches = (await verifyPassword(options.password, passwordHash)) && found !== undefined;
  if (matches) {
    // Only the email's count: clearing the address's would let one valid account reset it for guessing at others.
    await forgetSignInFailures(ctx.db, scopes.email);
    const user = await findLandingUser(ctx.db, found.person.id);
    if (user) return { user };
    throw new LogInError('wrong_credentials');
  }

  const lockFor = await countSignInFailure(
    ctx.db,
    [
      [scopes.email, EMAIL_FAILURES_BEFORE_LOCK],
      [scopes.ip, IP_FAILURES_BEFORE_LOCK],
    ],
    now,
  );
  if (lockFor > 0) throw new LogInError('locked', lockFor);
  throw new LogInError('wrong_credentials');
}
