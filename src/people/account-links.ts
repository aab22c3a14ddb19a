// Single-use links e-mailed to the people of merchants' teams: verify the e-mail (24 hours) and reset the password
// (1 hour). The token is 256 random bits in the link; only its SHA-256 is stored. Guesses are
// counted per address like every e-mailed link's (link-guesses.ts).
import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import { findUsableLink, insertLink, type LinkPurpose, useLink } from './account-link-store.js';
import { followLink } from './link-guesses.js';

export type { LinkPurpose };

export const LINK_LIFETIME_SECONDS: Record<LinkPurpose, number> = { verify_email: 24 * 60 * 60, reset_password: 60 * 60 };
const TOKEN = /^[\w-]{43}$/;
const hashToken = (token: string) => createHash('sha256').update(`link:${token}`).digest('hex');

/** A new link of `purpose` for the person (their older ones of that purpose stop working); returns the token. */
export async function issueLink(db: Queryable, options: { personId: number; purpose: LinkPurpose; now: Date }): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(options.now.getTime() + LINK_LIFETIME_SECONDS[options.purpose] * 1000);
  await insertLink(db, { tokenHash: hashToken(token), personId: options.personId, purpose: options.purpose, now: options.now, expiresAt });
  return { token, expiresAt };
}

/** The person a link names while it is usable (throws SignInError: 'wrong_code' for a bad or dead link, 'locked'). */
export async function peekLink(ctx: AppContext, options: { token: string; purpose: LinkPurpose; ip: string }): Promise<{ personId: number; email: string }> {
  return followLink(ctx, options.ip, async () => (TOKEN.test(options.token) ? findUsableLink(ctx.db, hashToken(options.token), options.purpose, ctx.clock.now()) : undefined));
}

/** Spends a link in `tx` (exactly one caller wins; peekLink first): the person it named, or undefined when it is dead. */
export async function spendLink(tx: Queryable, options: { token: string; purpose: LinkPurpose; now: Date }): Promise<number | undefined> {
  return TOKEN.test(options.token) ? useLink(tx, hashToken(options.token), options.purpose, options.now) : undefined;
}

