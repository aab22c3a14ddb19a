import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { resolvePayment, type Resolution } from '../payments/resolve-payment.js';
import { command, UsageError } from './command.js';

export const paymentResolve = command({
  usage: 'payment resolve PIDX --status Completed|"User canceled" [--reason TEXT] [--json]',
  parse(args) {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { status: { type: 'string' }, reason: { type: 'string' }, json: { type: 'boolean', default: false } } });
    if (positionals.length !== 1) throw new UsageError('give exactly one PIDX');
    const status = values.status;
    if (status !== 'Completed' && status !== 'User canceled') throw new UsageError('--status must be Completed or "User canceled"');
    return { pidx: positionals[0], status: status as Resolution, reason: values.reason, json: values.json };
  },
  async run(ctx, { pidx, status, reason, json }, io) {
    const payment = await resolvePayment(ctx, { actor: CLI_ACTOR, pidx, resolution: status, reason });
    if (json) io.out(JSON.stringify({ pidx: payment.pidx, status: payment.status, transaction_id: payment.transaction_id }));
    else io.out(`Payment ${payment.pidx} is now ${payment.status}.`);
    return 0;
  },
});
