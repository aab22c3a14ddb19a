import type { AppContext } from '../context.js';

export interface CommandIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** A CLI command: parses its own arguments, runs against the store, returns the exit code. */
export interface Command {
  usage: string;
  run(ctx: AppContext, args: string[], io: CommandIo): Promise<number>;
}

export class UsageError extends Error {}
