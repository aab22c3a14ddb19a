// TOTP secrets are kept sealed (AES-256-GCM) under a server secret, so a copy of the operators
// table alone — a partial dump, a report query, a row in a log — does not give anyone the codes.
// The key sits in server_secrets, so a copy of the whole database still does: this narrows the
// leak, it does not replace guarding the database. The password is needed as well in any case.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/db.js';
import { serverSecret } from '../http/server-secret.js';

const totpKey = (db: Queryable) => serverSecret(db, 'totp-seal');

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export async function sealTotpSecret(db: Queryable, secret: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await totpKey(db), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

export async function openTotpSecret(db: Queryable, sealed: string): Promise<string> {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || !data) throw new Error('unknown TOTP seal');
  const decipher = createDecipheriv('aes-256-gcm', await totpKey(db), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
