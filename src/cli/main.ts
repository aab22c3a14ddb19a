// `bhuktani <command>`: operator commands, with the server's configuration.
import { setFlagsFromString } from 'node:v8';
import { cryptoIds, systemClock } from '../clock.js';
import { ConfigError, loadConfig } from '../config.js';
import { DataDirBusyError } from '../db/data-dir-lock.js';
import { openDb } from '../db/open.js';
import { AppError } from '../http/errors.js';
import { createLogger } from '../http/logger.js';
import { createMetrics } from '../http/metrics.js';
import { memoryRateLimiter } from '../http/rate-limiter.js';
import { createMailer } from '../mail/mailer.js';
import { logOtpSender } from '../wallets/otp-sender.js';
import { UsageError, type Command, type CommandIo, type StorelessCommand } from './command.js';
import { BackupError } from '../db/backup-error.js';
import { providerPaymentsPort } from '../provider-payments/port.js';

// Each command's module is loaded only when it runs: a CLI run loads what its command uses (about
// 150 ms less of every run than loading them all), and the usage loads them all.
const merchantDecide = () => import('./merchant-decide.commands.js');
const payouts = () => import('./payout.commands.js');
const payoutRails = () => import('./payout-rail.commands.js');
const providers = () => import('./provider.commands.js');
const wallets = () => import('./wallet.commands.js');
const backups = () => import('./backup.commands.js');

export const commands: Record<string, () => Promise<Command | StorelessCommand>> = {
  migrate: async () => (await import('./migrate.command.js')).migrateCommand,
  'merchant create': async () => (await import('./merchant-create.command.js')).merchantCreate,
  'merchant approve': async () => (await merchantDecide()).merchantApprove,
  'merchant reject': async () => (await merchantDecide()).merchantReject,
  'merchant suspend': async () => (await merchantDecide()).merchantSuspend,
  'merchant reactivate': async () => (await merchantDecide()).merchantReactivate,
  'merchant fee': async () => (await merchantDecide()).merchantFee,
  'wallet create': async () => (await wallets()).walletCreate,
  'wallet topup': async () => (await wallets()).walletTopup,
  'ledger verify': async () => (await import('./ledger-verify.command.js')).ledgerVerify,
  'payment resolve': async () => (await import('./payment-resolve.command.js')).paymentResolve,
  'payout export': async () => (await payouts()).payoutExport,
  'payout mark': async () => (await payouts()).payoutMark,
  'payout reconcile': async () => (await payouts()).payoutReconcile,
  'payout rail set': async () => (await payoutRails()).payoutRailSet,
  'payout rail show': async () => (await payoutRails()).payoutRailShow,
  'operator create': async () => (await import('./operator-create.command.js')).operatorCreate,
  'provider set': async () => (await providers()).providerSet,
  'provider enable': async () => (await providers()).providerEnable,
  'provider disable': async () => (await providers()).providerDisable,
  'provider list': async () => (await providers()).providerList,
  'provider reconcile': async () => (await providers()).providerReconcile,
  backup: async () => (await backups()).backup,
  restore: async () => (await backups()).restore,
};

async function usage(): Promise<string> {
  const all = await Promise.all(Object.values(commands).map((load) => load()));
  return ['usage: bhuktani <command>', '', ...all.map((c) => `  bhuktani ${c.usage}`)].join('\n');
}

async function findCommand(argv: string[]): Promise<{ command: Command | StorelessCommand; args: string[] } | undefined> {
  for (const words of [3, 2, 1]) {
    const load = commands[argv.slice(0, words).join(' ')];
    if (load) return { command: await load(), args: argv.slice(words) };
  }
  return undefined;
}

function describe(error: unknown): string {
  if (error instanceof AppError) {
    const body = error.toBody();
    if (error.fields) {
      return Object.entries(error.fields)
        .map(([field, problems]) => `--${field.replace(/_/g, '-')}: ${Array.isArray(problems) ? problems.join(' ') : JSON.stringify(problems)}`)
        .join('\n');
    }
    return String(body.detail);
  }
  return error instanceof Error ? error.message : String(error);
}

export async function runCli(argv: string[], io: CommandIo): Promise<number> {
  const found = await findCommand(argv);
  if (!found) {
    // Asked for, the usage is the answer (stdout, exit 0); after a mistake it explains it (stderr, 2).
    const asked = argv.length === 0 || argv[0] === 'help' || argv[0] === '--help';
    (asked ? io.out : io.err)(await usage());
    return asked ? 0 : 2;
  }
  let db;
  try {
    const parsed = found.command.parse(found.args);
    const config = loadConfig();
    if ('store' in found.command) return await found.command.run(config, parsed, io);
    db = await openDb(config, 'command');
    const logger = createLogger(config, process.stderr);
    const ctx = { db, clock: systemClock, ids: cryptoIds, config, otp: logOtpSender(logger), metrics: createMetrics(db), limiter: memoryRateLimiter(), mailer: createMailer(config, logger), providerPayments: providerPaymentsPort };
    return await found.command.run(ctx, parsed, io);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`bhuktani: ${(error as Error).message}\nusage: bhuktani ${found.command.usage}`);
      return 2;
    }
    if (error instanceof AppError || error instanceof ConfigError || error instanceof DataDirBusyError || error instanceof BackupError) {
      io.err(`bhuktani: ${describe(error)}`);
      return 1;
    }
    throw error;
  } finally {
    await db?.close();
  }
}

// A command lives a second or so: the embedded store's WebAssembly (PGlite) is compiled by V8's
// baseline compiler (Liftoff) only, not optimized again in the background for a process about to
// exit. A ledger verify on a data directory: 2.4 → 1.2 s of CPU, 1.65 → 1.0 s on the 2-core machine.
// Set before the store opens (and only here, in the process's entry: a test that opens a store
// in-process keeps V8's defaults). Nothing changes on PostgreSQL, which needs no WebAssembly.
setFlagsFromString('--liftoff-only');

runCli(process.argv.slice(2), { out: (line) => console.log(line), err: (line) => console.error(line) }).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
