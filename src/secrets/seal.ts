// Secrets that must be usable again (a key that signs, a provider's password, a TOTP secret) are
// kept sealed at rest: AES-256-GCM from node:crypto, one home for every such column. The key is
// SECRETS_KEY when set; otherwise one kept in the store's server_secrets, made on first use (the
// development default: a copy of a credentials table alone opens nothing, a copy of the whole
// database does). Each sealed value names the key that sealed it, so values sealed before
// SECRETS_KEY was set (or under an earlier one still given) keep opening; `context` binds a value
// to its row (the AAD), so a sealed value copied into another row does not open there.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/db.js';
import { serverSecret } from '../http/server-secret.js';

const VERSION = 's1';
const STORE_KEY_ID = 'store';

export interface SealKeys {
  /** The key new values are sealed with. */
  current: { id: string; key: Buffer };
  /** Every key a sealed value may name. */
  byId: ReadonlyMap<string, Buffer>;
}

export class SealError extends Error {}

/** Names SECRETS_KEY by its fingerprint, never by itself. */
export const keyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

/** The store's own key never changes once made: read once per store handle. */
const storeKeys = new WeakMap<Queryable, Promise<Buffer>>();

function storeKey(db: Queryable): Promise<Buffer> {
  let key = storeKeys.get(db);
  if (!key) {
    key = serverSecret(db, 'seal');
    storeKeys.set(db, key);
    key.catch(() => storeKeys.delete(db));
  }
  return key;
}

/** The keys of a store: SECRETS_KEY (`configured`) first when set, the store's own always (to open what it sealed). */
export async function sealKeys(db: Queryable, configured: Buffer | undefined): Promise<SealKeys> {
  const store = await storeKey(db);
  const byId = new Map<string, Buffer>([[STORE_KEY_ID, store]]);
  if (!configured) return { current: { id: STORE_KEY_ID, key: store }, byId };
  const id = keyId(configured);
  byId.set(id, configured);
  return { current: { id, key: configured }, byId };
}

/** `s1.<key id>.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function seal(keys: SealKeys, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, keys.current.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

/** The plaintext of `sealed`; a SealError when no key given opens it (another SECRETS_KEY) or it was altered. */
export function open(keys: SealKeys, sealed: string, context: string): string {
  const [version, id, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !id || !iv || !tag || data === undefined) throw new SealError('not a sealed value');
  const key = keys.byId.get(id);
  if (!key) throw new SealError(`sealed with another key (${id}): give the SECRETS_KEY it was sealed with`);
  return decipher(key, { iv, tag, data }, context);
}

const V1 = 'v1';

/** Whether `sealed` is in the format before this one (`v1.<iv>.<tag>.<ciphertext>`). */
export const isSealedV1 = (sealed: string) => sealed.startsWith(`${V1}.`);

/**
 * Opens a value of the format before this one: no key id and no context, under a store key of its
 * own name (TOTP secrets, under `totp-seal`). Read so that such values keep opening; never written.
 */
export async function openV1(db: Queryable, keyName: string, sealed: string): Promise<string> {
  const [version, iv, tag, data, extra] = sealed.split('.');
  if (version !== V1 || !iv || !tag || data === undefined || extra !== undefined) throw new SealError('not a sealed value');
  return decipher(await serverSecret(db, keyName), { iv, tag, data }, undefined);
}

function decipher(key: Buffer, parts: { iv: string; tag: string; data: string }, context: string | undefined): string {
  try {
    // The whole 16-byte tag, always: a shorter one given with a forged value would be easier to guess.
    const gcm = createDecipheriv('aes-256-gcm', key, Buffer.from(parts.iv, 'base64url'), { authTagLength: 16 });
    if (context !== undefined) gcm.setAAD(Buffer.from(context, 'utf8'));
    gcm.setAuthTag(Buffer.from(parts.tag, 'base64url'));
    return Buffer.concat([gcm.update(Buffer.from(parts.data, 'base64url')), gcm.final()]).toString('utf8');
  } catch {
    throw new SealError('a sealed value does not open: altered, or moved from another row');
  }
}
