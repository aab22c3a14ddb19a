// Ids from a seed: the same seed gives the same ids in the same order, so a run is replayed with the
// same pidx, attempts and provider references. SHA-256 of the seed and a counter, read as letters
// and digits like the service's own ids (src/clock.ts).
import { createHash } from 'node:crypto';
import type { IdSource } from '../../src/clock.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function seededIds(seed: string): IdSource {
  let counter = 0;
  let pool: Buffer = Buffer.alloc(0);
  let taken = 0;
  const nextByte = () => {
    if (taken === pool.length) {
      pool = createHash('sha256').update(`${seed}:${counter++}`).digest();
      taken = 0;
    }
    return pool[taken++];
  };
  return {
    random(bytes) {
      const length = Math.ceil((bytes * 8) / Math.log2(ALPHABET.length));
      let id = '';
      while (id.length < length) {
        const byte = nextByte();
        // Bytes from 248 up are skipped, so every letter is as likely (as src/clock.ts does).
        if (byte < 248) id += ALPHABET[byte % ALPHABET.length];
      }
      return id;
    },
  };
}
