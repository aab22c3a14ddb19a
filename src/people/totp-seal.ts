// TOTP secrets are kept sealed like every secret at rest (secrets/seal.ts), bound to the kind of
// account they belong to, so a copy of the operators or people tables alone — a partial dump, a
// report query, a row in a log — does not give anyone the codes. Without SECRETS_KEY the key sits in
// server_secrets, so a copy of the whole database still does: this narrows the leak, it does not
// replace guarding the database. The password is needed as well in any case.
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import { isSealedV1, open, openV1, seal, sealKeys } from '../secrets/seal.js';
import type { RecoveryAccountKind } from './recovery-code-store.js';

type Ctx = { config: Pick<AppContext['config'], 'secretsKey'> };

const context = (account: RecoveryAccountKind) => `totp:${account}`;

/** Secrets sealed before seal.ts was their home: the `v1` format under this store key, still opened. */
const V1_KEY = 'totp-seal';

export async function sealTotpSecret(ctx: Ctx, db: Queryable, account: RecoveryAccountKind, secret: string): Promise<string> {
  return seal(await sealKeys(db, ctx.config.secretsKey), secret, context(account));
}

export async function openTotpSecret(ctx: Ctx, db: Queryable, account: RecoveryAccountKind, sealed: string): Promise<string> {
  if (isSealedV1(sealed)) return openV1(db, V1_KEY, sealed);
  return open(await sealKeys(db, ctx.config.secretsKey), sealed, context(account));
}
