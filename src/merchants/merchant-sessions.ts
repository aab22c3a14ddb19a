// Sessions of the merchant website. The browser holds a random token in an HttpOnly cookie; the
// database holds only its SHA-256, so neither a copy of the table nor the logs can log anyone in.
// Like operators' sessions (src/people/sessions.ts), a session starts at the password and opens
// pages only at the stage 'signed_in': after the TOTP code of a person who has two-factor, or after
// enrolment when the team of the business they look at requires it. A session is a person's; it
// looks at one of their businesses at a time, and switches to another of theirs.
import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { Merchant } from './merchant.js';
import type { MerchantUser, Membership } from './merchant-user.js';
import { listMemberships, markMembershipChosen } from './merchant-user-store.js';
import { recordSecurityAct } from '../people/security-acts.js';
import type { SessionStage } from '../people/session-store.js';
import {
  deleteExpiredSessions,
  deletePersonSession,
  deletePersonSessions,
  deleteSessionRow,
  findLiveSession,
  insertSession,
  listPersonSessions,
  touchSession,
  updateSessionBusiness,
  updateSessionConfirmed,
  updateSessionEnvironment,
  updateSessionStage,
} from './session-store.js';

export const SESSION_COOKIE = 'bhuktani_session';
/** A session ends this long after log-in, whatever happens in between. */
export const SESSION_LIFETIME_SECONDS = 12 * 60 * 60;
/** A session that has only the password ends this soon. */
export const HALFWAY_SECONDS = 10 * 60;
/** last_seen_at is written at most this often, so reading pages does not write on every request. */
const TOUCH_EVERY_SECONDS = 60;

const TOKEN = /^[\w-]{43}$/;

export interface MerchantSession {
  /** The SHA-256 of the cookie's token: what identifies the session on the server. */
  id: string;
  merchant: Merchant;
  /** The person who logged in, as a user of this merchant's team: their role here decides what they may do. */
  user: MerchantUser;
  /** Every business the person belongs to now, this one included (the switcher lists them). */
  memberships: Membership[];
  /** The data the merchant is looking at: test (sandbox) or live. */
  environment: Environment;
  expiresAt: Date;
  /**
   * 'signed_in' opens pages; 'second_factor' waits for the code; 'enrolment' waits for a person this
   * business's team requires two-factor of to set it up (also when the owner required it after this
   * log-in, or when the person switched to this business).
   */
  stage: SessionStage;
  /** The last time the person proved who they are in this session (log-in, a code, their password). */
  confirmedAt: Date | null;
  /** This business's owner requires two-factor of every user of the team. */
  requireTwoFactor: boolean;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The cookie's attributes: HttpOnly, SameSite=Lax, Secure behind https, only sent to the dashboard. */
export function sessionCookieOptions(config: Pick<Config, 'publicUrl'>, maxAgeSeconds = SESSION_LIFETIME_SECONDS) {
  return { path: '/dashboard', httpOnly: true, sameSite: 'lax' as const, secure: config.publicUrl.startsWith('https:'), maxAge: maxAgeSeconds };
}

/** A new session for a person who has just given their password, looking at the business of `user`; returns the cookie's token. */
export async function createSession(
  ctx: AppContext,
  options: { user: Pick<MerchantUser, 'id' | 'merchant_id' | 'person_id'>; stage?: SessionStage; ip?: string; userAgent?: string },
): Promise<{ token: string; expiresAt: Date }> {
  const now = ctx.clock.now();
  const stage = options.stage ?? 'signed_in';
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + (stage === 'signed_in' ? SESSION_LIFETIME_SECONDS : HALFWAY_SECONDS) * 1000);
  await deleteExpiredSessions(ctx.db, options.user.person_id, now);
  await markMembershipChosen(ctx.db, options.user.id, now);
  await insertSession(ctx.db, {
    token_hash: hashToken(token),
    merchant_id: options.user.merchant_id,
    user_id: options.user.id,
    person_id: options.user.person_id,
    stage,
    created_at: now,
    expires_at: expiresAt,
    confirmed_at: stage === 'signed_in' ? now : null,
    ip: (options.ip ?? '').slice(0, 64),
    user_agent: (options.userAgent ?? '').slice(0, 300),
  });
  return { token, expiresAt };
}

/** The live session a cookie's token names, or undefined (unknown, malformed or expired); counts as activity. */
export async function findSession(ctx: AppContext, options: { token: string | undefined }): Promise<MerchantSession | undefined> {
  if (!options.token || !TOKEN.test(options.token)) return undefined;
  const now = ctx.clock.now();
  const found = await findLiveSession(ctx.db, hashToken(options.token), now);
  if (!found) return undefined;
  const { session, user } = found;
  if (now.getTime() - session.last_seen_at.getTime() >= TOUCH_EVERY_SECONDS * 1000) await touchSession(ctx.db, session.token_hash, now);
  const stage = session.stage === 'signed_in' && found.requireTwoFactor && !user.totp_enrolled_at ? 'enrolment' : session.stage;
  const memberships = await listMemberships(ctx.db, user.person_id);
  return {
    id: session.token_hash,
    merchant: found.merchant,
    user,
    memberships,
    environment: session.environment,
    expiresAt: session.expires_at,
    stage,
    confirmedAt: session.confirmed_at,
    requireTwoFactor: found.requireTwoFactor,
  };
}

/** The person proved who they are (the second factor, or enrolment): the session opens pages, its lifetime starts now. */
export async function completeSession(ctx: AppContext, options: { sessionId: string }): Promise<void> {
  const now = ctx.clock.now();
  await updateSessionStage(ctx.db, options.sessionId, { stage: 'signed_in', expiresAt: new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000), confirmedAt: now });
}

/** The person proved who they are again (step-up). */
export async function confirmSession(ctx: AppContext, options: { sessionId: string }): Promise<void> {
  await updateSessionConfirmed(ctx.db, options.sessionId, ctx.clock.now());
}

/** What the sessions page shows of one session; `ref` names it in forms without giving its id away. */
export interface SessionListing {
  ref: string;
  current: boolean;
  /** The business the session looks at. */
  merchantName: string;
  createdAt: Date;
  lastSeenAt: Date;
  ip: string;
  userAgent: string;
}

const refOf = (id: string) => createHash('sha256').update(`session-ref:${id}`).digest('hex').slice(0, 24);

export async function listSessions(ctx: AppContext, options: { personId: number; currentId: string }): Promise<SessionListing[]> {
  const rows = await listPersonSessions(ctx.db, options.personId, ctx.clock.now());
  return rows.map((row) => ({ ref: refOf(row.token_hash), current: row.token_hash === options.currentId, merchantName: row.merchant_name, createdAt: row.created_at, lastSeenAt: row.last_seen_at, ip: row.ip, userAgent: row.user_agent }));
}

/** Ends one of the person's own sessions by its ref, in their teams' logs; false when it is not (or no longer) theirs. */
export async function endSessionByRef(ctx: AppContext, options: { personId: number; ref: string }): Promise<boolean> {
  const rows = await listPersonSessions(ctx.db, options.personId, ctx.clock.now());
  const row = rows.find((r) => refOf(r.token_hash) === options.ref);
  if (!row) return false;
  return ctx.db.transaction(async (tx) => {
    if (!(await deletePersonSession(tx, options.personId, row.token_hash))) return false;
    await recordSecurityAct(tx, { personId: options.personId, act: 'session_end', now: ctx.clock.now() });
    return true;
  });
}

/** "Log out everywhere": every session of the person ends, the one asking too; in their teams' logs. */
export async function logOutEverywhere(ctx: AppContext, options: { personId: number }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await endPersonSessions(tx, { personId: options.personId });
    await recordSecurityAct(tx, { personId: options.personId, act: 'logout_everywhere', now: ctx.clock.now() });
  });
}

/** Every session of a person but `except` (none left out: logged out everywhere). */
export async function endPersonSessions(db: Queryable, options: { personId: number; except?: string }): Promise<void> {
  await deletePersonSessions(db, options.personId, options.except);
}

/**
 * The session looks at another of its person's businesses from now on (by the merchant's idx); false,
 * and nothing changed, when the person is not a present user of that merchant.
 */
export async function switchSessionBusiness(ctx: AppContext, options: { sessionId: string; merchantIdx: string }): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const switched = await updateSessionBusiness(tx, options.sessionId, options.merchantIdx);
    if (switched) await markMembershipChosen(tx, switched.userId, ctx.clock.now());
    return switched !== undefined;
  });
}

export async function switchSessionEnvironment(ctx: AppContext, options: { sessionId: string; environment: Environment }): Promise<void> {
  await updateSessionEnvironment(ctx.db, options.sessionId, options.environment);
}

export async function deleteSession(ctx: AppContext, options: { sessionId: string }): Promise<void> {
  await deleteSessionRow(ctx.db, options.sessionId);
}
