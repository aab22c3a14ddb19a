import { parseArgs } from 'node:util';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { command } from './command.js';

export const ledgerVerify = command({
  usage: 'ledger verify [--json]',
  parse: (args) => parseArgs({ args, options: { json: { type: 'boolean', default: false } } }).values,
  async run(ctx, values, io) {
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
});
