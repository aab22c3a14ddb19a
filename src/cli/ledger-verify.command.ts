import { parseArgs } from 'node:util';
import { verifyLedger } from '../ledger/verify-ledger.js';
import type { Command } from './command.js';

export const ledgerVerify: Command = {
  usage: 'ledger verify [--json]',
  async run(ctx, args, io) {
    const { values } = parseArgs({ args, options: { json: { type: 'boolean', default: false } } });
    const results = await verifyLedger(ctx.db);
    const ok = results.every((r) => r.holds);
    if (values.json) {
      io.out(JSON.stringify({ ok, invariants: results }));
    } else {
      for (const r of results) {
        io.out(`${r.holds ? 'ok  ' : 'FAIL'} ${r.invariant}`);
        for (const v of r.violations) io.out(`     ${JSON.stringify(v)}`);
      }
      io.out(ok ? 'The ledger is consistent.' : 'The ledger has broken invariants (listed above).');
    }
    return ok ? 0 : 1;
  },
};
