// `bhuktani backup --out FILE` and `bhuktani restore FILE`: the embedded store's backups
// (src/db/embedded-backup.ts). A backup is taken from a stopped store by this process, or asked of
// the running server that holds it; either way a consistent copy. It holds the store's rows, sealed
// credentials included, never PROVIDER_SECRETS_KEY, which lives in the server's environment. On
// PostgreSQL, backups are pgBackRest's: both commands say so and exit 2.
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { BackupError } from '../db/backup-error.js';
import { storelessCommand, UsageError, type CommandIo } from './command.js';

const ON_POSTGRES = 'backups of a PostgreSQL store are pgBackRest’s, with point-in-time recovery: docs/deploy.md, “Backups and recovery”';

/** Exit 2 with the reason when the store is not a data directory of its own. */
function embeddedOnly(config: Config, io: CommandIo): boolean {
  if (config.databaseUrl?.startsWith('postgres')) io.err(`bhuktani: ${ON_POSTGRES}`);
  else if (config.databaseUrl === 'memory:') io.err('bhuktani: an in-memory store (DATABASE_URL=memory:) keeps nothing to back up or restore');
  else return true;
  return false;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export const backup = storelessCommand({
  store: false,
  usage: 'backup --out FILE',
  parse: (args) => {
    const { values } = parseArgs({ args, options: { out: { type: 'string' } } });
    if (!values.out) throw new UsageError('give the backup file: --out FILE');
    return { out: values.out };
  },
  async run(config, { out }, io) {
    if (!embeddedOnly(config, io)) return 2;
    const [{ DataDirBusyError }, { copyStoppedStore }, { askRunningServer }, { backupFile, readBackup }] = await Promise.all([
      import('../db/data-dir-lock.js'),
      import('../db/embedded-backup.js'),
      import('../db/backup-socket.js'),
      import('../db/backup-file.js'),
    ]);
    let file: Buffer;
    let from = 'the stopped store';
    try {
      file = backupFile(await copyStoppedStore(config.dataDir), new Date());
    } catch (error) {
      if (!(error instanceof DataDirBusyError)) throw error;
      file = await askRunningServer(config.dataDir);
      from = 'the running server';
    }
    // Read back before it is kept: what is written is a whole backup.
    const { facts } = readBackup(file);
    const partial = `${out}.partial-${process.pid}`;
    try {
      writeFileSync(partial, file, { flag: 'wx', mode: 0o600 });
      // Never over another file: a link that replaced nothing, then the partial name removed.
      renameIfAbsent(partial, out);
    } finally {
      rmSync(partial, { force: true });
    }
    io.out(`Backed up ${from} (schema ${facts.schema}) to ${out}: ${megabytes(file.length)}, sha256 ${facts.sha256.slice(0, 16)}…`);
    return 0;
  },
});

/** Gives `from` the name `to` unless `to` exists (a BackupError then): a hard link, which never replaces. */
function renameIfAbsent(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new BackupError(`${to} exists already: give a new file to --out (nothing was written)`);
    throw error;
  }
}

export const restore = storelessCommand({
  store: false,
  usage: 'restore FILE',
  parse: (args) => {
    const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
    if (positionals.length !== 1) throw new UsageError('give exactly one backup FILE');
    return { file: positionals[0] };
  },
  async run(config, { file }, io) {
    if (!embeddedOnly(config, io)) return 2;
    const [{ readBackup }, { restoreInto }] = await Promise.all([import('../db/backup-file.js'), import('../db/embedded-backup.js')]);
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      throw new BackupError(`${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const backup = readBackup(bytes);
    await restoreInto(config.dataDir, backup);
    io.out(`Restored ${config.dataDir} from ${file} (taken ${backup.facts.created_at}, schema ${backup.facts.schema}). Start the server on it; a backup of live providers needs the PROVIDER_SECRETS_KEY that sealed them.`);
    return 0;
  },
});
