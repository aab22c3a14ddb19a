// `bhuktani payout rail set|show`: how each environment's payouts leave, the bank file or NCHL's NPI.
// Audited as the CLI and the same for every instance; NPI's client secret, password and key file are
// sealed and never printed. The key file's flag names the .pfx; the set-up holds its bytes.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { environments, type Environment } from '../environment.js';
import { listPayoutRails, setPayoutRail, type PayoutRailListing } from '../settlements/payout-rail-setup.js';
import { command, UsageError } from './command.js';

/** NPI's set-up as flags: each carries the field of its name with underscores. */
const npiFlags = ['base-url', 'client-id', 'client-secret', 'username', 'password', 'key-file', 'key-passphrase', 'debtor-bank', 'debtor-branch', 'debtor-account', 'debtor-name', 'send'] as const;

const envOf = (env: string | undefined): Environment => {
  if (!environments.includes(env as Environment)) throw new UsageError('--env must be test or live');
  return env as Environment;
};

export const payoutRailSet = command({
  usage: [
    'payout rail set npi --env test|live --base-url URL --client-id I --client-secret S --username U --password P --key-file F.pfx [--key-passphrase K (default: none)] --debtor-bank B --debtor-branch R --debtor-account A --debtor-name N [--send real-time|batches (default: real-time)]',
    'payout rail set file --env test|live',
  ].join('\n  bhuktani '),
  parse(args) {
    const options = Object.fromEntries([...npiFlags, 'env'].map((flag) => [flag, { type: 'string' as const }]));
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options }) as { values: Record<string, string | undefined>; positionals: string[] };
    if (positionals.length !== 1 || !['npi', 'file'].includes(positionals[0])) throw new UsageError('give one rail: npi or file');
    const environment = envOf(values.env);
    if (positionals[0] === 'file') {
      const extra = npiFlags.filter((flag) => values[flag] !== undefined);
      if (extra.length) throw new UsageError(`the bank file takes only --env, not --${extra.join(', --')}`);
      return { rail: 'file' as const, environment, given: {} };
    }
    return { rail: 'npi' as const, environment, given: Object.fromEntries(npiFlags.map((flag) => [flag.replace(/-/g, '_'), values[flag]])) };
  },
  async run(ctx, { rail, environment, given }, io) {
    if (rail === 'file') {
      await setPayoutRail(ctx, { actor: CLI_ACTOR, environment, rail });
      io.out(`Payouts of ${environment} now leave by the bank file (bhuktani payout export).`);
      return 0;
    }
    const values: Record<string, string | undefined> = { ...given };
    if (!given.key_file) throw new UsageError('--key-file is required: the PKCS#12 (.pfx) holding the key whose certificate NCHL signed');
    values.key_file = (
      await readFile(given.key_file).catch(() => {
        throw new UsageError(`cannot read ${given.key_file}`);
      })
    ).toString('base64');
    try {
      const set = await setPayoutRail(ctx, { actor: CLI_ACTOR, environment, rail, values });
      io.out(`Payouts of ${environment} now leave through NPI: ${settingsLine(set)}. Credentials are sealed; they are never shown.`);
      return 0;
    } catch (error) {
      // Field errors named as the flags that carry them.
      const problems = (error as { fields?: Record<string, string[]> }).fields;
      if (!problems) throw error;
      for (const [name, said] of Object.entries(problems)) io.err(`bhuktani: --${name.replace(/_/g, '-')}: ${said.join(' ')}`);
      return 1;
    }
  },
});

const settingsLine = (listing: PayoutRailListing) =>
  Object.entries(listing.settings)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

export const payoutRailShow = command({
  usage: 'payout rail show [--json]',
  parse: (args) => parseArgs({ args, options: { json: { type: 'boolean', default: false } } }).values,
  async run(ctx, { json }, io) {
    const listings = await listPayoutRails(ctx);
    if (json) {
      io.out(JSON.stringify(listings.map((l) => ({ environment: l.environment, rail: l.rail, sandbox: l.sandbox, settings: l.settings }))));
      return 0;
    }
    for (const l of listings) {
      const what = l.rail === 'file' ? 'bank file' : l.sandbox ? `NPI, the sandbox's simulator: ${settingsLine(l)}` : `NPI: ${settingsLine(l)}`;
      io.out(`${l.environment.padEnd(4)} ${what}`);
    }
    return 0;
  },
});
