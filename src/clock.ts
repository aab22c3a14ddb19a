import { randomFillSync } from 'node:crypto';

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
    const byte = nextRandomByte();
    if (byte < UNBIASED_BELOW) id += ALPHABET[byte % ALPHABET.length];
  }
  return id;
}

/*
 * Random bytes from the CSPRNG 4 KiB at a time, each handed out once, as Node's randomUUID keeps its
 * own: a call to randomBytes costs about 8 µs here whatever its size (a tenth of an initiate's CPU in
 * the service's profile), 4 KiB about as much. The pool never leaves this module.
 */
const pool = Buffer.alloc(4096);
let taken = pool.length;

function nextRandomByte(): number {
  if (taken === pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  const byte = pool[taken];
  pool[taken++] = 0;
  return byte;
}

export const cryptoIds: IdSource = { random: alphanumeric };
