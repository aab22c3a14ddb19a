import { CLI_ACTOR, type Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
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

/** A payer wallet made by the operator, empty until topped up. The MPIN is stored hashed. Audited, as `actor`'s act. */
export async function createWallet(ctx: AppContext, input: unknown, options: { actor: Actor } = { actor: CLI_ACTOR }): Promise<Wallet> {
  const request = parseOrThrow(walletRequest, input);
  // A test wallet unless live is asked for: a live one needs the server to send real OTPs.
  const environment: Environment = request.environment ?? 'test';
  const mpinHash = await hashPassword(request.mpin!);
  const now = ctx.clock.now();
  const wallet = await ctx.db.transaction(async (tx) => {
    const made = await insertWallet(tx, {
      idx: ctx.ids.random(16),
      environment,
      mobile: request.mobile!,
      name: request.name!,
      mpinHash,
      sandbox: false,
      now,
    });
    if (made) {
      const after = { mobile: made.mobile, name: made.name };
      await appendAudit(tx, { now, actor: options.actor, action: 'wallet.create', object: { type: 'wallet', id: made.idx }, environment, after });
    }
    return made;
  });
  if (!wallet) throw new AppError('validation_error', { fields: { mobile: [`A ${environment} wallet with this mobile number already exists.`] } });
  return wallet;
}
