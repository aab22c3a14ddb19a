// `bhuktani merchant approve|reject|suspend|reactivate IDX [--reason R]` and `merchant fee IDX --bps B`:
// the console's merchant decisions for scripts, audited as the CLI actor.
import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { changeMerchantFee } from '../merchants/change-merchant-fee.js';
import { approveMerchant, reactivateMerchant, rejectMerchant, suspendMerchant, type MerchantDecision } from '../merchants/decide-merchant.js';
import type { Merchant } from '../merchants/merchant.js';
import { command, UsageError } from './command.js';

function oneIdx(positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError('give exactly one merchant IDX');
  return positionals[0];
}

const show = (merchant: Merchant) => JSON.stringify({ idx: merchant.idx, name: merchant.name, status: merchant.status, status_reason: merchant.status_reason, fee_bps: merchant.fee_bps });

function decisionCommand(verb: string, decide: (ctx: AppContext, decision: MerchantDecision & { reason: string }) => Promise<Merchant>, reasonRequired: boolean) {
  return command({
    usage: `merchant ${verb} IDX ${reasonRequired ? '--reason R' : '[--reason R]'} [--json]`,
    parse(args) {
      const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { reason: { type: 'string' }, json: { type: 'boolean', default: false } } });
      if (reasonRequired && !values.reason?.trim()) throw new UsageError(`--reason is required: the merchant is shown why it was ${verb === 'reject' ? 'rejected' : 'suspended'}`);
      return { merchantIdx: oneIdx(positionals), reason: values.reason, json: values.json };
    },
    async run(ctx, { merchantIdx, reason, json }, io) {
      const merchant = await decide(ctx, { actor: CLI_ACTOR, merchantIdx, reason: reason! });
      io.out(json ? show(merchant) : `Merchant ${merchant.name} (idx ${merchant.idx}) is now ${merchant.status}.`);
      return 0;
    },
  });
}

export const merchantApprove = decisionCommand('approve', approveMerchant, false);
export const merchantReject = decisionCommand('reject', rejectMerchant, true);
export const merchantSuspend = decisionCommand('suspend', suspendMerchant, true);
export const merchantReactivate = decisionCommand('reactivate', reactivateMerchant, false);

export const merchantFee = command({
  usage: 'merchant fee IDX --bps B [--reason R] [--json]',
  parse(args) {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { bps: { type: 'string' }, reason: { type: 'string' }, json: { type: 'boolean', default: false } } });
    if (values.bps === undefined) throw new UsageError('--bps is required');
    return { merchantIdx: oneIdx(positionals), bps: values.bps, reason: values.reason, json: values.json };
  },
  async run(ctx, { merchantIdx, bps, reason, json }, io) {
    const merchant = await changeMerchantFee(ctx, { actor: CLI_ACTOR, merchantIdx, feeBps: bps, reason }).catch((error: unknown) => {
      // The use case names the field fee_bps; here it is --bps.
      if (error instanceof AppError && error.fields?.fee_bps) throw new AppError('validation_error', { fields: { bps: error.fields.fee_bps } });
      throw error;
    });
    io.out(json ? show(merchant) : `Merchant ${merchant.name} (idx ${merchant.idx}) now pays ${merchant.fee_bps} bps on new payments.`);
    return 0;
  },
});
