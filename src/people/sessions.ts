// Sessions of people who sign in: one mechanism for every kind of account (operators now, merchant
// users), each kind with its own policy — cookie path, absolute lifetime, idle time.
// The browser holds a random token in an HttpOnly cookie; the database holds only its SHA-256, so
// neither a copy of the table nor the logs can sign anyone in. A session starts at the password
// and becomes 'signed_in' only after the second factor.
import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import type { Queryable } from '../db/db.js';
import {
  type AccountKind,
  deleteAccountSessions,
  deleteEndedSessions,
  deletePeopleSession,
  findLivePeopleSession,
  insertPeopleSession,
  type SessionStage,
  touchPeopleSession,
  updatePeopleSessionStage,
} from './session-store.js';

export type { AccountKind, SessionStage };

export interface SessionPolicy {
  kind: AccountKind;
  cookie: string;
  path: string;
  /** The session ends this long after the second factor, whatever happens in between. */
  lifetimeSeconds: number;
  /** … or after this long without a request. */
  idleSeconds: number;
  /** A session that has only the password ends this soon. */
  halfwaySeconds: number;
}

export const OPERATOR_SESSIONS: SessionPolicy = {
  kind: 'operator',
  cookie: 'bhuktani_console',
  path: '/console',
  lifetimeSeconds: 8 * 60 * 60,
  idleSeconds: 30 * 60,
  halfwaySeconds: 10 * 60,
};

/** last_seen_at is written at most this often, so reading pages does not write on every request. */
const TOUCH_EVERY_SECONDS = 60;
const TOKEN = /^[\w-]{43}$/;

export interface PeopleSession {
  /** The SHA-256 of the cookie's token: what identifies the session on the server. */
  id: string;
  accountId: number;
  stage: SessionStage;
  expiresAt: Date;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const idleSince = (policy: SessionPolicy, now: Date) => new Date(now.getTime() - policy.idleSeconds * 1000);

/** HttpOnly, SameSite=Strict (no other site can start a request that carries it), Secure behind https, only sent to its path. */
export function sessionCookieOptions(policy: SessionPolicy, config: Pick<Config, 'publicUrl'>) {
  return { path: policy.path, httpOnly: true, sameSite: 'strict' as const, secure: config.publicUrl.startsWith('https:') };
}

/** A new session for someone who has just given their password; returns the cookie's token. */
export async function startSession(db: Queryable, policy: SessionPolicy, options: { accountId: number; stage: SessionStage; now: Date }): Promise<{ token: string; session: PeopleSession }> {
  const { now } = options;
  const token = randomBytes(32).toString('base64url');
  const lifetime = options.stage === 'signed_in' ? policy.lifetimeSeconds : policy.halfwaySeconds;
  const expiresAt = new Date(now.getTime() + lifetime * 1000);
  await deleteEndedSessions(db, policy.kind, options.accountId, now, idleSince(policy, now));
  await insertPeopleSession(db, { token_hash: hashToken(token), account_kind: policy.kind, account_id: options.accountId, stage: options.stage, created_at: now, last_seen_at: now, expires_at: expiresAt });
  return { token, session: { id: hashToken(token), accountId: options.accountId, stage: options.stage, expiresAt } };
}

/** The live session a cookie's token names (unknown, malformed, ended or idle: undefined); counts as activity. */
export async function findSession(db: Queryable, policy: SessionPolicy, options: { token: string | undefined; now: Date }): Promise<PeopleSession | undefined> {
  if (!options.token || !TOKEN.test(options.token)) return undefined;
  const { now } = options;
  const row = await findLivePeopleSession(db, policy.kind, hashToken(options.token), now, idleSince(policy, now));
  if (!row) return undefined;
  if (now.getTime() - row.last_seen_at.getTime() >= TOUCH_EVERY_SECONDS * 1000) await touchPeopleSession(db, row.token_hash, now);
  return { id: row.token_hash, accountId: Number(row.account_id), stage: row.stage, expiresAt: row.expires_at };
}

/** The second factor is done: the session opens pages, and its absolute lifetime starts now. */
export async function completeSession(db: Queryable, policy: SessionPolicy, options: { sessionId: string; now: Date }): Promise<void> {
  await updatePeopleSessionStage(db, options.sessionId, 'signed_in', new Date(options.now.getTime() + policy.lifetimeSeconds * 1000), options.now);
}

export async function endSession(db: Queryable, options: { sessionId: string }): Promise<void> {
  await deletePeopleSession(db, options.sessionId);
}

/** Ends every session of an account at once (but the one given, if any). */
export async function endAccountSessions(db: Queryable, policy: SessionPolicy, options: { accountId: number; except?: string }): Promise<void> {
  await deleteAccountSessions(db, policy.kind, options.accountId, options.except);
}
