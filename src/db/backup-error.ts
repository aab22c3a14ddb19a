/** A backup that cannot be made or restored, with the reason an operator reads (embedded-backup.ts). */
export class BackupError extends Error {
  override readonly name = 'BackupError';
}
