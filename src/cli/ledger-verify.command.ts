import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { runLedgerVerification } from '../ledger/ledger-verifications.js';
import { command } from './command.js';

export const ledgerVerify = command({
  usage: 'ledger verify [--json]',
  parse: (args) => parseArgs({ args, options: { json: { type: 'boolean', default: false } } }).values,
  async run(ctx, values, io) {
    // Kept and audited, so the console's overview shows when the ledger was last proven.
    const { passed: ok, results } = await runLedgerVerification(ctx, { actor: CLI_ACTOR });
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
