import { parseArgs } from 'node:util';
import { resolvePayment } from '../payments/resolve-payment.js';
import { UsageError, type Command } from './command.js';

export const paymentResolve: Command = {
  usage: 'payment resolve PIDX --status Completed|"User canceled" [--json]',
  async run(ctx, args, io) {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { status: { type: 'string' }, json: { type: 'boolean', default: false } } });
    const [pidx] = positionals;
    if (!pidx || positionals.length > 1) throw new UsageError('give exactly one PIDX');
    if (values.status !== 'Completed' && values.status !== 'User canceled') throw new UsageError('--status must be Completed or "User canceled"');
    const payment = await resolvePayment(ctx, pidx, values.status);
    if (values.json) io.out(JSON.stringify({ pidx: payment.pidx, status: payment.status, transaction_id: payment.transaction_id }));
    else io.out(`Payment ${payment.pidx} is now ${payment.status}.`);
    return 0;
  },
};
