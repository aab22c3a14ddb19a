// Sessions of the merchant website. The browser holds a random token in an HttpOnly cookie; the
// database holds only its SHA-256, so neither a copy of the table nor the logs can log anyone in.
import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import type { AppContext } from '../context.js';
import type { Environment } from '../environment.js';
import type { Merchant } from './merchant.js';
import type { MerchantUser } from './merchant-user.js';
import { deleteExpiredSessions, deleteSessionRow, findLiveSession, insertSession, updateSessionEnvironment } from './session-store.js';

export const SESSION_COOKIE = 'bhuktani_session';
/** A session ends this long after log-in, whatever happens in between. */
export const SESSION_LIFETIME_SECONDS = 12 * 60 * 60;

const TOKEN = /^[\w-]{43}$/;

export interface MerchantSession {
  /** The SHA-256 of the cookie's token: what identifies the session on the server. */
  id: string;
  merchant: Merchant;
  /** The person of the merchant's team who logged in; their role decides what they may do. */
  user: MerchantUser;
  /** The data the merchant is looking at: test (sandbox) or live. */
  environment: Environment;
  expiresAt: Date;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The cookie's attributes: HttpOnly, SameSite=Lax, Secure behind https, only sent to the dashboard. */
export function sessionCookieOptions(config: Pick<Config, 'publicUrl'>, maxAgeSeconds = SESSION_LIFETIME_SECONDS) {
  return { path: '/dashboard', httpOnly: true, sameSite: 'lax' as const, secure: config.publicUrl.startsWith('https:'), maxAge: maxAgeSeconds };
}

/** A new session for a merchant's user who has just proved who they are; returns the cookie's token. */
export async function createSession(ctx: AppContext, options: { merchantId: number; userId: number }): Promise<{ token: string; expiresAt: Date }> {
  const now = ctx.clock.now();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000);
  await deleteExpiredSessions(ctx.db, options.merchantId, now);
  await insertSession(ctx.db, { token_hash: hashToken(token), merchant_id: options.merchantId, user_id: options.userId, created_at: now, expires_at: expiresAt });
  return { token, expiresAt };
}

/** The live session a cookie's token names, or undefined (unknown, malformed or expired). */
export async function findSession(ctx: AppContext, options: { token: string | undefined }): Promise<MerchantSession | undefined> {
  if (!options.token || !TOKEN.test(options.token)) return undefined;
  const found = await findLiveSession(ctx.db, hashToken(options.token), ctx.clock.now());
  if (!found) return undefined;
  return { id: found.session.token_hash, merchant: found.merchant, user: found.user, environment: found.session.environment, expiresAt: found.session.expires_at };
}

export async function switchSessionEnvironment(ctx: AppContext, options: { sessionId: string; environment: Environment }): Promise<void> {
  await updateSessionEnvironment(ctx.db, options.sessionId, options.environment);
}

export async function deleteSession(ctx: AppContext, options: { sessionId: string }): Promise<void> {
  await deleteSessionRow(ctx.db, options.sessionId);
}
