// The fault simulator's long run, on demand: `npm run test:faults -- --seeds 200` plays 200 seeds
// from --from (default 1), each --steps long (default 60), on PGlite or on DATABASE_URL's PostgreSQL;
// `--seed N` replays one seed and prints its every step; `--profile payouts` draws the payouts'
// operations (payouts through NPI under faults) instead of every one. Exits 1 when any invariant broke, naming
// each failing seed and how to replay it.
import { parseArgs } from 'node:util';
import { usePasswordCost } from '../../src/people/password.js';
import { runSeed, type RunReport } from './run.js';
import { profiles, type Profile } from './schedule.js';
import { runStores } from './stores.js';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '20' },
    from: { type: 'string', default: '1' },
    seed: { type: 'string' },
    steps: { type: 'string', default: '60' },
    profile: { type: 'string', default: 'all' },
    verbose: { type: 'boolean', default: false },
  },
});

// The suite's cost for passwords and MPINs (test/cheap-passwords.ts): the runs make merchants, not hashes.
usePasswordCost('tests');

const steps = Number(values.steps);
if (!Object.hasOwn(profiles, values.profile)) throw new Error(`--profile is ${Object.keys(profiles).join(' or ')}`);
const profile = values.profile as Profile;
const seeds = values.seed !== undefined ? [Number(values.seed)] : Array.from({ length: Number(values.seeds) }, (_, i) => Number(values.from) + i);
const store = runStores();
const failed: RunReport[] = [];
const totals = new Map<string, number>();
const calls = new Map<string, number>();
let forgedReturns = 0;
let forgedChecks = 0;
const started = performance.now();

for (const seed of seeds) {
  const report = await runSeed(seed, { steps, store, profile });
  for (const [kind, n] of Object.entries(report.injected)) totals.set(kind, (totals.get(kind) ?? 0) + n);
  for (const [kind, n] of Object.entries(report.calls)) calls.set(kind, (calls.get(kind) ?? 0) + n);
  forgedReturns += report.forged.returns;
  forgedChecks += report.forged.statusChecks;
  const faults = Object.values(report.injected).reduce((a, b) => a + b, 0);
  console.log(`fault simulator: seed ${seed}: ${report.breaks.length ? `${report.breaks.length} broken` : 'holds'} (${report.steps} steps, ${faults} faults met)`);
  if (values.verbose || values.seed !== undefined) for (const line of report.log) console.log(`  ${line}`);
  if (report.breaks.length) {
    failed.push(report);
    for (const line of report.breaks) console.log(`  ✗ ${line}`);
    console.log(`  replay: npm run test:faults -- --seed ${seed} --steps ${steps}${profile === 'all' ? '' : ` --profile ${profile}`}`);
  }
}

console.log(`\n${seeds.length} seeds of ${steps} steps in ${((performance.now() - started) / 1000).toFixed(1)} s; ${failed.length} broken${failed.length ? `: ${failed.map((r) => r.seed).join(', ')}` : ''}`);
console.log(`faults met: ${[...totals.entries()].sort().map(([kind, n]) => `${kind} ${n}`).join(', ')}`);
console.log(`calls to providers: ${[...calls.entries()].sort().map(([kind, n]) => `${kind} ${n}`).join(', ')}`);
console.log(`forged returns: ${forgedReturns}, status checks they caused at providers: ${forgedChecks}`);
process.exit(failed.length ? 1 : 0);
