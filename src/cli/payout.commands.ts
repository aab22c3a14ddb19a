// `bhuktani payout export` and `bhuktani payout mark`: the operator's side of live payouts.
// Both are audited as the CLI.
import { rm, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { AppError } from '../http/errors.js';
import { formatRupees } from '../http/money.js';
import { bankTransferCsv } from '../settlements/bank-transfer-csv.js';
import { exportPayouts } from '../settlements/export-payouts.js';
import { markPayout } from '../settlements/move-payout.js';
import type { PayoutMove } from '../settlements/payout-state-machine.js';
import { command, UsageError } from './command.js';

export const payoutExport = command({
  usage: 'payout export [--out FILE (default: standard output)]',
  parse: (args) => parseArgs({ args, options: { out: { type: 'string' } } }).values,
  async run(ctx, { out }, io) {
    let written = false;
    try {
      const payouts = await exportPayouts(ctx, {
        actor: CLI_ACTOR,
        async deliver(rows) {
          // Written before the payouts' move commits: no file, no move.
          if (!out) return;
          await writeFile(out, bankTransferCsv(rows), { flag: 'wx', mode: 0o600 }).catch((error: NodeJS.ErrnoException) => {
            if (error.code === 'EEXIST') throw new AppError('conflict', { detail: `${out} exists already: give a new file to --out (nothing was exported).` });
            throw error;
          });
          written = true;
        },
      });
      if (!out) process.stdout.write(bankTransferCsv(payouts));
      const total = payouts.reduce((sum, p) => sum + p.amount, 0);
      io.err(`Exported ${payouts.length} payout${payouts.length === 1 ? '' : 's'} (${formatRupees(total)}), now Processing${out ? `, to ${out}` : ''}.`);
      return 0;
    } catch (error) {
      // The move did not commit: a file left behind would pay what is still Requested.
      if (written && out) await rm(out, { force: true });
      throw error;
    }
  },
});

export const payoutMark = command({
  usage: 'payout mark IDX --paid --reference REF | --failed --reason TEXT',
  parse(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { paid: { type: 'boolean', default: false }, failed: { type: 'boolean', default: false }, reference: { type: 'string' }, reason: { type: 'string' } },
    });
    if (positionals.length !== 1) throw new UsageError('give exactly one payout IDX');
    if (values.paid === values.failed) throw new UsageError('give either --paid or --failed');
    if (values.paid && !values.reference?.trim()) throw new UsageError('--paid needs --reference, the bank’s reference of the transfer');
    if (values.failed && !values.reason?.trim()) throw new UsageError('--failed needs --reason');
    const move: PayoutMove = values.paid ? { name: 'pay', reference: values.reference! } : { name: 'fail', reason: values.reason! };
    return { idx: positionals[0], move };
  },
  async run(ctx, { idx, move }, io) {
    const payout = await markPayout(ctx, { actor: CLI_ACTOR, idx, move });
    io.out(`Payout ${payout.idx} (${formatRupees(payout.amount)}) is now ${payout.state}.`);
    return 0;
  },
});
