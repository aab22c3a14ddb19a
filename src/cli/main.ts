// `bhuktani <command>`: operator commands, with the server's configuration.
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
import { UsageError, type Command, type CommandIo } from './command.js';
import { merchantCreate } from './merchant-create.command.js';
import { merchantApprove, merchantFee, merchantReactivate, merchantReject, merchantSuspend } from './merchant-decide.commands.js';
import { migrateCommand } from './migrate.command.js';
import { operatorCreate } from './operator-create.command.js';
import { ledgerVerify } from './ledger-verify.command.js';
import { paymentResolve } from './payment-resolve.command.js';
import { payoutExport, payoutMark } from './payout.commands.js';
import { providerDisable, providerEnable, providerList, providerReconcile, providerSet } from './provider.commands.js';
import { walletCreate, walletTopup } from './wallet.commands.js';

export const commands: Record<string, Command> = {
  migrate: migrateCommand,
  'merchant create': merchantCreate,
  'merchant approve': merchantApprove,
  'merchant reject': merchantReject,
  'merchant suspend': merchantSuspend,
  'merchant reactivate': merchantReactivate,
  'merchant fee': merchantFee,
  'wallet create': walletCreate,
  'wallet topup': walletTopup,
  'ledger verify': ledgerVerify,
  'payment resolve': paymentResolve,
  'payout export': payoutExport,
  'payout mark': payoutMark,
  'operator create': operatorCreate,
  'provider set': providerSet,
  'provider enable': providerEnable,
  'provider disable': providerDisable,
  'provider list': providerList,
  'provider reconcile': providerReconcile,
};

function usage(): string {
  return ['usage: bhuktani <command>', '', ...Object.values(commands).map((c) => `  bhuktani ${c.usage}`)].join('\n');
}

function findCommand(argv: string[]): { command: Command; args: string[] } | undefined {
  for (const words of [2, 1]) {
    const command = commands[argv.slice(0, words).join(' ')];
    if (command) return { command, args: argv.slice(words) };
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
  const found = findCommand(argv);
  if (!found) {
    io.err(usage());
    return argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' ? 0 : 2;
  }
  let db;
  try {
    const parsed = found.command.parse(found.args);
    const config = loadConfig();
    db = await openDb(config, 'command');
    const logger = createLogger(config, process.stderr);
    const ctx = { db, clock: systemClock, ids: cryptoIds, config, otp: logOtpSender(logger), metrics: createMetrics(db), limiter: memoryRateLimiter(), mailer: createMailer(config, logger) };
    return await found.command.run(ctx, parsed, io);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`bhuktani: ${(error as Error).message}\nusage: bhuktani ${found.command.usage}`);
      return 2;
    }
    if (error instanceof AppError || error instanceof ConfigError || error instanceof DataDirBusyError) {
      io.err(`bhuktani: ${describe(error)}`);
      return 1;
    }
    throw error;
  } finally {
    await db?.close();
  }
}

runCli(process.argv.slice(2), { out: (line) => console.log(line), err: (line) => console.error(line) }).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
