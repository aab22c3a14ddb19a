import { randomBytes } from 'node:crypto';

/** Time is injected so tests can move it instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can move forward. */
export class ManualClock implements Clock {
  private ms: number;
  constructor(start: Date = new Date()) {
    this.ms = start.getTime();
  }
  now(): Date {
    return new Date(this.ms);
  }
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

/** Randomness is injected too, so ids can be made predictable where a test needs it. */
export interface IdSource {
  /** At least `bytes` random bytes' worth of letters and digits. */
  random(bytes: number): string;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** The largest multiple of 62 a byte can hold: bytes from it up are skipped, so every letter is as likely. */
const UNBIASED_BELOW = 248;

/**
 * Letters and digits only, like the specification's pidx (base64url's `-` and `_` made one id in 64
 * start with `-`, which a command line takes for an option: `bhuktani payment resolve -S…`).
 * 16 bytes give 22 characters, as base64url did.
 */
function alphanumeric(bytes: number): string {
  const length = Math.ceil((bytes * 8) / Math.log2(ALPHABET.length));
  let id = '';
  while (id.length < length) {
    for (const byte of randomBytes(length + 8)) {
      if (byte < UNBIASED_BELOW) id += ALPHABET[byte % ALPHABET.length];
      if (id.length === length) break;
    }
  }
  return id;
}

export const cryptoIds: IdSource = { random: alphanumeric };
