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
  /** `bytes` random bytes, base64url-encoded. */
  random(bytes: number): string;
}

export const cryptoIds: IdSource = { random: (bytes) => randomBytes(bytes).toString('base64url') };
