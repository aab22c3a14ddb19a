// Sign-up on the website: the form's answer must not tell whether the address has an
// account, so every valid sign-up is answered "check your e-mail". A new address gets a link (24 hours,
// once) that creates the merchant, logs its owner in and shows the keys: the test key works at once
// from there, and the e-mail is verified by it. An address that has an account gets an e-mail saying
// so, with links to log in and to reset the password; nothing is created. Both paths hash the password
// and send the e-mail without waiting for it, so the time taken does not tell either.
import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.js';
import { PgCode, pgCode } from '../db/db.js';
import { AppError } from '../http/errors.js';
import { parseOrThrow } from '../http/parse-fields.js';
import { finishSignUpMail, signUpTakenMail } from '../people/account-mail.js';
import { followLink } from '../people/link-guesses.js';
import { hashPassword } from '../people/password.js';
import { countSignInFailure, lockedForSeconds } from '../people/sign-in-throttle.js';
import { type CreatedMerchant, insertMerchantAccount, merchantRequest } from './create-merchant.js';
import { findPersonByEmail } from './merchant-person-store.js';
import { findUsableSignUp, insertSignUp, type SignUpRow, useSignUp } from './sign-up-store.js';

export const SIGN_UP_LINK_SECONDS = 24 * 60 * 60;
/** Sign-up e-mails to one address before more are quietly not sent for a while (no mail bombing). */
export const SIGN_UP_MAILS_BEFORE_LOCK = 3;

const TOKEN = /^[\w-]{43}$/;
const hashToken = (token: string) => createHash('sha256').update(`sign-up:${token}`).digest('hex');

/**
 * Checks the form (a 400 names every failing field, whoever has the address) and mails the address:
 * the link to finish, or that it has an account. The caller answers the same whatever happens here.
 */
export async function requestSignUp(ctx: AppContext, input: { name: string; email: string; password: string }, onMailError: (error: unknown) => void): Promise<void> {
  const request = parseOrThrow(merchantRequest, { name: input.name, email: input.email, password: input.password });
  const email = request.email!;
  const now = ctx.clock.now();
  const scope = `sign-up-mail:${email.toLowerCase()}`;
  if ((await lockedForSeconds(ctx.db, [scope], now)) > 0) return;
  await countSignInFailure(ctx.db, [[scope, SIGN_UP_MAILS_BEFORE_LOCK]], now);
  const person = await findPersonByEmail(ctx.db, email);
  const passwordHash = await hashPassword(request.password!);
  if (person) {
    const site = `${ctx.config.publicUrl}/dashboard`;
    ctx.mailer.send(signUpTakenMail({ to: person.email, logInLink: `${site}/login`, resetLink: `${site}/forgot-password` })).catch(onMailError);
    return;
  }
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SIGN_UP_LINK_SECONDS * 1000);
  await insertSignUp(ctx.db, { tokenHash: hashToken(token), name: request.name!, email, passwordHash, now, expiresAt });
  const link = `${ctx.config.publicUrl}/dashboard/signup/${token}`;
  ctx.mailer.send(finishSignUpMail({ to: email, name: request.name!, link, expiresAt, timeZone: ctx.config.timeZone })).catch(onMailError);
}

/** The sign-up a link followed from `ip` names, while usable (throws SignInError otherwise, link-guesses.ts). */
export function usableSignUp(ctx: AppContext, options: { token: string; ip: string }): Promise<Pick<SignUpRow, 'name' | 'email'>> {
  return followLink(ctx, options.ip, async () => {
    const row = TOKEN.test(options.token) ? await findUsableSignUp(ctx.db, hashToken(options.token), ctx.clock.now()) : undefined;
    return row && { name: row.name, email: row.email };
  });
}

/**
 * Spends the link and makes the merchant (`new`: test at once, live once approved) with its owner,
 * e-mail verified, in one transaction. Undefined when the link was spent meanwhile; a conflict when
 * the address got an account meanwhile (another sign-up or an invitation finished first).
 */
export async function finishSignUp(ctx: AppContext, options: { token: string }): Promise<CreatedMerchant | undefined> {
  if (!TOKEN.test(options.token)) return undefined;
  const now = ctx.clock.now();
  try {
    return await ctx.db.transaction(async (tx) => {
      const row = await useSignUp(tx, hashToken(options.token), now);
      if (!row) return undefined;
      return insertMerchantAccount(tx, ctx, { name: row.name, email: row.email, mobile: '', passwordHash: row.password_hash, status: 'new', emailVerifiedAt: now });
    });
  } catch (error) {
    if (pgCode(error) !== PgCode.uniqueViolation) throw error;
    throw new AppError('conflict', { detail: 'This address has a Bhuktani account now. Log in with it.' });
  }
}
