// The embedded store's backup file: a line naming the format, a line of JSON (when, the schema's last
// migration, the copy's length and SHA-256), and the copy itself (the data directory as a gzipped
// tar). A truncated, damaged or foreign file is refused with its reason (embedded-backup.ts).
import { createHash } from 'node:crypto';
import { BackupError } from './backup-error.js';
import type { StoreCopy } from './store-thread-protocol.js';

const MAGIC = 'BHUKTANI-BACKUP 1\n';


export interface BackupFacts {
  created_at: string;
  /** The last migration the copied store had run. */
  schema: string;
  bytes: number;
  sha256: string;
}

/** The backup file's bytes for a copy of the store taken at `at`. */
export function backupFile(copy: StoreCopy, at: Date): Buffer {
  const tarball = Buffer.from(copy.tarball.buffer, copy.tarball.byteOffset, copy.tarball.byteLength);
  const facts: BackupFacts = { created_at: at.toISOString(), schema: copy.schema, bytes: tarball.length, sha256: createHash('sha256').update(tarball).digest('hex') };
  return Buffer.concat([Buffer.from(MAGIC), Buffer.from(`${JSON.stringify(facts)}\n`), tarball]);
}

/** The facts and the copy of a backup file; a BackupError saying why when it is not one, or not whole. */
export function readBackup(file: Buffer): { facts: BackupFacts; tarball: Buffer } {
  if (!file.subarray(0, MAGIC.length).equals(Buffer.from(MAGIC))) throw new BackupError('not a Bhuktani backup (it does not begin as one)');
  const end = file.indexOf(0x0a, MAGIC.length);
  if (end < 0) throw new BackupError('the backup is truncated (its description is cut off)');
  let facts: BackupFacts;
  try {
    facts = JSON.parse(file.subarray(MAGIC.length, end).toString('utf8')) as BackupFacts;
  } catch {
    throw new BackupError('the backup is damaged (its description is not readable)');
  }
  if (!Number.isSafeInteger(facts.bytes) || typeof facts.sha256 !== 'string' || typeof facts.schema !== 'string') throw new BackupError('the backup is damaged (its description lacks its length, checksum or schema)');
  const tarball = file.subarray(end + 1);
  if (tarball.length < facts.bytes) throw new BackupError(`the backup is truncated: ${tarball.length} of its ${facts.bytes} bytes`);
  if (tarball.length > facts.bytes) throw new BackupError(`the backup is damaged: ${tarball.length - facts.bytes} bytes more than it says`);
  if (createHash('sha256').update(tarball).digest('hex') !== facts.sha256) throw new BackupError('the backup is damaged: its checksum does not hold');
  return { facts, tarball };
}
