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
import { environments, type Environment } from '../environment.js';
import { npiSandboxInProcess } from '../sandbox/npi/npi-member.js';
import { reconcilePayouts } from '../settlements/reconcile-payouts.js';
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

export const payoutReconcile = command({
  usage: 'payout reconcile --date YYYY-MM-DD [--env test|live (default: live)] [--json]',
  parse(args) {
    const { values } = parseArgs({ args, options: { date: { type: 'string' }, env: { type: 'string', default: 'live' }, json: { type: 'boolean', default: false } } });
    if (!values.date) throw new UsageError('--date is required: the day of NPI’s books (YYYY-MM-DD, Nepal’s day)');
    if (!environments.includes(values.env as Environment)) throw new UsageError('--env must be test or live');
    return { date: values.date, environment: values.env as Environment, json: values.json };
  },
  async run(ctx, { date, environment, json }, io) {
    // The test environment's NPI is the sandbox's simulator: this process serves its own copy of it.
    const sandbox = environment === 'test' ? await npiSandboxInProcess(ctx) : undefined;
    try {
      const result = await reconcilePayouts(ctx, { environment, date });
      if (json) io.out(JSON.stringify(result));
      else {
        for (const d of result.differences) {
          const ours = d.bhuktani ? ` payout ${d.bhuktani.idx} ${d.bhuktani.state} ${formatRupees(d.bhuktani.amount)};` : '';
          const theirs = d.npi ? ` NPI ${d.npi.status} ${formatRupees(d.npi.amount)} (${d.npi.detail})` : '';
          io.out(`DIFF ${d.instructionId}: ${d.problem};${ours}${theirs}`);
        }
        io.out(`${date} (${environment}): NPI lists ${result.npiEntries}, Bhuktani posted ${result.transfers}, ${result.matched} matched, ${result.differences.length} difference${result.differences.length === 1 ? '' : 's'}.`);
      }
      return result.differences.length ? 1 : 0;
    } finally {
      await sandbox?.close();
    }
  },
});
