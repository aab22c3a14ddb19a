// `bhuktani provider set|enable|disable|list|reconcile`. Set-up is audited as the CLI and the same
// for every instance; credentials are sealed, never printed. Each provider's flags are its
// descriptor's set-up fields (registry.ts): `--` and the field's name with dashes.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { environments, type Environment } from '../environment.js';
import { formatRupees } from '../http/money.js';
import { descriptorOf, isProviderName, providerNames, type ProviderName } from '../providers/registry.js';
import type { SetupField } from '../providers/provider.js';
import { enableProvider, listProviders, setProvider } from '../providers/provider-setup.js';
import { reconcileReport } from '../provider-payments/settlement-report.js';
import { command, UsageError } from './command.js';

function nameAndEnv(positionals: string[], env: string | undefined): { name: ProviderName; environment: Environment } {
  if (positionals.length !== 1 || !isProviderName(positionals[0])) throw new UsageError(`give one provider: ${providerNames.join(', ')}`);
  if (!environments.includes(env as Environment)) throw new UsageError('--env must be test or live');
  return { name: positionals[0], environment: env as Environment };
}

/** The flag that carries a set-up field. */
const flagOf = (field: SetupField) => field.flag ?? field.name.replace(/_/g, '-');

/** `--base-url URL --secret-key KEY`: a provider's set-up as its flags. */
function setupUsage(name: ProviderName): string {
  const flags = descriptorOf(name).setup.map((field) => {
    const given = `--${flagOf(field)} ${field.kind === 'file' ? 'FILE' : field.kind === 'url' ? 'URL' : field.name.toUpperCase()}`;
    return field.optional ? `[${given}]` : given;
  });
  return `provider set ${name} --env test|live ${flags.join(' ')}`;
}

export const providerSet = command({
  usage: providerNames.map(setupUsage).join('\n  bhuktani '),
  parse(args) {
    const name = args[0];
    if (!isProviderName(name)) throw new UsageError(`give one provider: ${providerNames.join(', ')}`);
    const fields = descriptorOf(name).setup;
    const options: Record<string, { type: 'string' }> = Object.fromEntries([...fields.map((f) => [flagOf(f), { type: 'string' }] as const), ['env', { type: 'string' }]]);
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options }) as { values: Record<string, string | undefined>; positionals: string[] };
    const { environment } = nameAndEnv(positionals, values.env);
    const given = Object.fromEntries(fields.map((f) => [f.name, values[flagOf(f)]]));
    return { name, environment, given };
  },
  async run(ctx, { name, environment, given }, io) {
    const fields = descriptorOf(name).setup;
    const values: Record<string, string | undefined> = { ...given };
    // A file's flag names the file; the set-up holds its bytes, base64.
    for (const field of fields.filter((f) => f.kind === 'file')) {
      const path = given[field.name];
      if (!path) throw new UsageError(`--${flagOf(field)} is required: ${field.label}`);
      values[field.name] = (await readFile(path).catch(() => {
        throw new UsageError(`cannot read ${path}`);
      })).toString('base64');
    }
    try {
      const set = await setProvider(ctx, { actor: CLI_ACTOR, name, environment, values });
      io.out(`${set.label} (${environment}) is set up${set.enabled ? ' and enabled' : ', disabled'}: ${Object.entries(set.settings).map(([k, v]) => `${k} ${v}`).join(', ')}. Credentials are sealed; they are never shown.`);
      return 0;
    } catch (error) {
      // Field errors named as the flags that carry them.
      const problems = (error as { fields?: Record<string, string[]> }).fields;
      if (!problems) throw error;
      for (const [name, said] of Object.entries(problems)) {
        const field = fields.find((f) => f.name === name);
        io.err(`bhuktani: --${field ? flagOf(field) : name.replace(/_/g, '-')}: ${said.join(' ')}`);
      }
      return 1;
    }
  },
});

const toggle = (enabled: boolean) =>
  command({
    usage: `provider ${enabled ? 'enable' : 'disable'} NAME --env test|live`,
    parse(args) {
      const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { env: { type: 'string' } } });
      return nameAndEnv(positionals, values.env);
    },
    async run(ctx, { name, environment }, io) {
      await enableProvider(ctx, { actor: CLI_ACTOR, name, environment, enabled });
      io.out(`${name} (${environment}) is ${enabled ? 'enabled: offered on the hosted page' : 'disabled: no longer offered on the hosted page'}.`);
      return 0;
    },
  });

export const providerEnable = toggle(true);
export const providerDisable = toggle(false);

export const providerList = command({
  usage: 'provider list [--json]',
  parse: (args) => parseArgs({ args, options: { json: { type: 'boolean', default: false } } }).values,
  async run(ctx, { json }, io) {
    const listings = await listProviders(ctx);
    if (json) {
      io.out(JSON.stringify(listings.map((l) => ({ name: l.name, environment: l.environment, enabled: l.enabled, sandbox: l.sandbox, settings: l.settings }))));
      return 0;
    }
    for (const l of listings) {
      const where = l.sandbox ? 'sandbox simulator' : Object.values(l.settings)[0];
      io.out(`${l.name.padEnd(10)} ${l.environment.padEnd(4)} ${(l.enabled ? 'enabled' : 'disabled').padEnd(8)} ${where}`);
    }
    return 0;
  },
});

export const providerReconcile = command({
  usage: 'provider reconcile NAME --env test|live --file CSV [--json]',
  parse(args) {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { env: { type: 'string' }, file: { type: 'string' }, json: { type: 'boolean', default: false } } });
    if (!values.file) throw new UsageError('--file is required: the provider’s settlement report (CSV)');
    return { ...nameAndEnv(positionals, values.env), file: values.file, json: values.json };
  },
  async run(ctx, { name, environment, file, json }, io) {
    const csv = await readFile(file, 'utf8').catch(() => {
      throw new UsageError(`cannot read ${file}`);
    });
    const result = await reconcileReport(ctx, { actor: CLI_ACTOR, name, environment, fileName: basename(file), csv });
    if (json) io.out(JSON.stringify(result));
    else {
      for (const d of result.differences) {
        const report = d.report?.amount !== undefined ? ` report ${formatRupees(d.report.amount)}${d.report.fee !== undefined ? ` fee ${formatRupees(d.report.fee)}` : ''} (line ${d.report.line})` : '';
        const ledger = d.ledger ? ` ledger ${formatRupees(d.ledger.amount)} fee ${formatRupees(d.ledger.fee)}, attempt ${d.ledger.attempt} (${d.ledger.state}) of payment ${d.ledger.pidx}` : '';
        io.out(`DIFF ${d.key}: ${d.problem};${report}${ledger}`);
      }
      io.out(`${result.rows} rows, ${result.matched} matched, ${result.differences.length} difference${result.differences.length === 1 ? '' : 's'}.`);
    }
    return result.differences.length ? 1 : 0;
  },
});
