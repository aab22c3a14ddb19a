// The link of an invitation by e-mail, for operators and merchant teams alike: a random 32-byte
// token in the URL, only its SHA-256 kept, valid for 7 days.
import { createHash, randomBytes } from 'node:crypto';

export const INVITATION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;
const TOKEN = /^[\w-]{43}$/;

export const invitationTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** Whether a link's token could be one of ours (checked before any lookup). */
export const isInvitationToken = (token: string) => TOKEN.test(token);

/** A new link's token, the hash to store, and when it stops working. */
export function newInvitationLink(now: Date): { token: string; tokenHash: string; expiresAt: Date } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: invitationTokenHash(token), expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_SECONDS * 1000) };
}
