import type { AppContext } from '../context.js';
import { PgCode, violates, type Queryable } from '../db/db.js';
import { AppError } from '../http/errors.js';
import { email, integer, object, text } from '../http/fields.js';
import { parseOrThrow } from '../http/parse-fields.js';
import { environments, type Environment } from '../environment.js';
import type { Merchant } from './merchant.js';
import type { MerchantUser } from './merchant-user.js';
import { issueEsewaCredentials, type IssuedEsewaCredential } from './esewa-credentials.js';
import { insertMerchant, insertSecretKey } from './merchant-store.js';
import { insertMerchantPerson } from './merchant-person-store.js';
import { insertMerchantUser } from './merchant-user-store.js';
import { hashPassword, NO_PASSWORD } from '../people/password.js';
import { displayPrefix, generateSecretKey, hashSecretKey } from './secret-key.js';

export const DEFAULT_FEE_BPS = 300;

export const merchantRequest = object({
  name: text({ required: true }),
  email: email({ required: true }),
  password: text({
    required: true,
    maxLength: 256,
    check: (v) => (v.length < 8 ? 'Ensure this field has at least 8 characters.' : undefined),
  }),
  fee_bps: integer({ min: 0, max: 10000 }),
  mobile: text({ maxLength: 32 }),
});

export interface CreatedMerchant {
  merchant: Merchant;
  /** The team's first user: the one who signed up, or whose e-mail the operator gave. */
  owner: MerchantUser;
  test_secret_key: string;
  live_secret_key: string;
  /** The eSewa product code and secret key of each environment, in full only here. */
  esewa: Record<Environment, IssuedEsewaCredential>;
}

/**
 * A merchant with a fresh test and live secret key, and eSewa credentials for each environment; the
 * keys are returned in full only here.
 * `status` is `approved` when an operator creates it (`bhuktani merchant create`), `new` when it
 * signs up on the website: its live key then works only once an operator approves it.
 */
export async function createMerchant(
  ctx: AppContext,
  input: unknown,
  options: { status?: 'new' | 'approved'; logIn?: boolean } = {},
): Promise<CreatedMerchant> {
  const request = parseOrThrow(merchantRequest, input);
  const status = options.status ?? 'approved';
  const now = ctx.clock.now();
  // `logIn: false` (the demo merchant): an owner nobody can log in as, and no scrypt on a first start.
  const passwordHash = options.logIn === false ? NO_PASSWORD : await hashPassword(request.password!);
  // Made by an operator (approved), the e-mail counts as verified: the operator's word; otherwise it waits for its link.
  const emailVerifiedAt = status === 'approved' ? now : null;
  try {
    return await ctx.db.transaction((tx) => insertMerchantAccount(tx, ctx, { name: request.name!, email: request.email!, mobile: request.mobile ?? '', feeBps: request.fee_bps, passwordHash, status, emailVerifiedAt }));
  } catch (error) {
    if (['merchants_email', 'merchant_people_email'].some((name) => violates(error, PgCode.uniqueViolation, name))) {
      throw new AppError('validation_error', { fields: { email: ['A merchant with this email already exists.'] } });
    }
    throw error;
  }
}

/**
 * In `tx`: the merchant, its keys, and its owner, a new person with this e-mail and password hash.
 * Fails on the unique index merchant_people_email when the e-mail has an account.
 */
export async function insertMerchantAccount(
  tx: Queryable,
  ctx: Pick<AppContext, 'db' | 'clock' | 'ids' | 'config'>,
  account: { name: string; email: string; mobile: string; feeBps?: number; passwordHash: string; status: 'new' | 'approved'; emailVerifiedAt: Date | null },
): Promise<CreatedMerchant> {
  const now = ctx.clock.now();
  const merchant = await insertMerchant(tx, {
    idx: ctx.ids.random(16),
    name: account.name,
    email: account.email,
    mobile: account.mobile,
    feeBps: account.feeBps ?? DEFAULT_FEE_BPS,
    status: account.status,
    now,
  });
  // The one who signs up (or whose e-mail the operator gave) is the team's owner.
  const person = await insertMerchantPerson(tx, { email: account.email, passwordHash: account.passwordHash, emailVerifiedAt: account.emailVerifiedAt, now });
  const owner = await insertMerchantUser(tx, { merchantId: merchant.id, personId: person.id, role: 'owner', now });
  const keys = {} as Record<Environment, string>;
  for (const environment of environments) {
    keys[environment] = generateSecretKey(environment);
    await insertSecretKey(tx, { merchantId: merchant.id, environment, keyHash: hashSecretKey(keys[environment]), prefix: displayPrefix(keys[environment]), now });
  }
  const esewa = await issueEsewaCredentials(ctx, tx, merchant.id);
  return { merchant, owner, test_secret_key: keys.test, live_secret_key: keys.live, esewa };
}
