// `bhuktani backup` while the server runs: the server holds the embedded store, so the CLI asks it
// for a copy over a Unix socket in DATA_DIR (DATA_DIR/backup.sock, its owner's alone: mode 0600).
// One request, `backup`, answered with the whole backup file, or `ERROR <why>`, then closed.
import { chmodSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { BackupError } from './backup-error.js';
import { backupFile } from './backup-file.js';
import type { StoreCopy } from './store-thread-protocol.js';

export const backupSocketPath = (dataDir: string) => join(dataDir, 'backup.sock');

/** Serves copies of the store at DATA_DIR/backup.sock; its close. The caller holds DATA_DIR's lock. */
export async function serveBackups(dataDir: string, copy: () => Promise<StoreCopy>, now: () => Date): Promise<{ close(): Promise<void> }> {
  const path = backupSocketPath(dataDir);
  // Left by a server that was killed: this process holds the directory now.
  rmSync(path, { force: true });
  const server: Server = createServer((socket) => {
    let asked = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      asked += chunk;
      if (!asked.includes('\n')) return asked.length > 64 ? void socket.end('ERROR unknown request\n') : undefined;
      socket.removeAllListeners('data');
      if (asked.split('\n')[0] !== 'backup') return void socket.end('ERROR unknown request\n');
      copy().then(
        (made) => socket.end(backupFile(made, now())),
        (error: unknown) => socket.end(`ERROR ${(error as Error).message}\n`),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(path, { force: true });
      }),
  };
}

/** The backup file of the store a running server holds in `dataDir`. */
export function askRunningServer(dataDir: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(backupSocketPath(dataDir), () => socket.write('backup\n'));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        ['ENOENT', 'ECONNREFUSED'].includes(error.code ?? '')
          ? new BackupError(`the server holding ${dataDir} serves no backups (a release before them, or it is still starting): stop it and back up again`)
          : error,
      ),
    );
    socket.on('end', () => {
      const answer = Buffer.concat(chunks);
      if (answer.subarray(0, 6).toString() === 'ERROR ') reject(new BackupError(`the server could not copy the store: ${answer.subarray(6).toString().trim()}`));
      else resolve(answer);
    });
  });
}
