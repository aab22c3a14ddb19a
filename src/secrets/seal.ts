// Secrets that must be usable again (a provider's secret key, password, signing key) are sealed at
// rest: AES-256-GCM from node:crypto, the one home for every credential column. The key is
// PROVIDER_SECRETS_KEY when set; otherwise one kept in the store's server_secrets, made on first use
// (the sandbox's default: a copy of a credentials table alone opens nothing, a copy of the whole
// database does; so a live credential is refused without PROVIDER_SECRETS_KEY). Each sealed value names
// the key that sealed it, and `context` binds it to its row (the AAD): a value copied into another
// row does not open there.
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
  /** Whether `current` is PROVIDER_SECRETS_KEY (not the store's own key). */
  configured: boolean;
}

export class SealError extends Error {}

/** Names a configured key by its fingerprint, never by itself. */
export const keyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

/** The keys of a store: the configured key first when set, the store's own always (to open what it sealed). */
export async function sealKeys(db: Queryable, configured: Buffer | undefined): Promise<SealKeys> {
  const store = await serverSecret(db, 'seal');
  const byId = new Map<string, Buffer>([[STORE_KEY_ID, store]]);
  if (!configured) return { current: { id: STORE_KEY_ID, key: store }, byId, configured: false };
  const id = keyId(configured);
  byId.set(id, configured);
  return { current: { id, key: configured }, byId, configured: true };
}

/** `s1.<key id>.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function seal(keys: SealKeys, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, keys.current.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

/** The plaintext of `sealed`; a SealError when no key given opens it (another key) or it was altered. */
export function open(keys: SealKeys, sealed: string, context: string): string {
  const [version, id, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !id || !iv || !tag || data === undefined) throw new SealError('not a sealed value');
  const key = keys.byId.get(id);
  if (!key) throw new SealError(`sealed with another key (${id}): give the PROVIDER_SECRETS_KEY it was sealed with`);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SealError('a sealed value does not open: altered, or moved from another row');
  }
}

/** Whether `sealed` was sealed with the configured key (a live credential must be). */
export function sealedWithConfiguredKey(keys: SealKeys, sealed: string): boolean {
  return keys.configured && sealed.split('.')[1] === keys.current.id;
}
