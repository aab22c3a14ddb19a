import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { choice, object, text } from '../http/fields.js';
import { parseOrThrow } from '../http/parse-fields.js';
import { hashPassword } from '../people/password.js';
import { environments, type Environment } from '../environment.js';
import { MOBILE_PATTERN, MPIN_PATTERN, type Wallet } from './wallet.js';
import { insertWallet } from './wallet-store.js';

export const walletRequest = object({
  mobile: text({ required: true, check: (v) => (MOBILE_PATTERN.test(v) ? undefined : 'Enter a 10-digit mobile number starting with 9.') }),
  name: text({ required: true }),
  mpin: text({ required: true, check: (v) => (MPIN_PATTERN.test(v) ? undefined : 'The MPIN must be 4 digits.') }),
  environment: choice(environments),
});

/** A payer wallet made by the operator, empty until topped up. The MPIN is stored hashed. */
export async function createWallet(ctx: AppContext, input: unknown): Promise<Wallet> {
  const request = parseOrThrow(walletRequest, input);
  const environment: Environment = request.environment ?? 'live';
  const wallet = await insertWallet(ctx.db, {
    idx: ctx.ids.random(16),
    environment,
    mobile: request.mobile!,
    name: request.name!,
    mpinHash: await hashPassword(request.mpin!),
    sandbox: false,
    now: ctx.clock.now(),
  });
  if (!wallet) throw new AppError('validation_error', { fields: { mobile: [`A ${environment} wallet with this mobile number already exists.`] } });
  return wallet;
}
