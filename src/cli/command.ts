import type { Config } from '../config.js';
import type { AppContext } from '../context.js';

export interface CommandIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/**
 * A CLI command. Its arguments are parsed before the store is opened, so a usage mistake is
 * answered at once (exit 2) even while a server holds the data directory.
 */
export interface Command<Parsed = unknown> {
  usage: string;
  parse(args: string[]): Parsed;
  run(ctx: AppContext, parsed: Parsed, io: CommandIo): Promise<number>;
}

export function command<Parsed>(definition: Command<Parsed>): Command<unknown> {
  return definition as Command<unknown>;
}

/** A command that opens no store through the usual way: it is given the configuration alone (backup, restore). */
export interface StorelessCommand<Parsed = unknown> {
  store: false;
  usage: string;
  parse(args: string[]): Parsed;
  run(config: Config, parsed: Parsed, io: CommandIo): Promise<number>;
}

export function storelessCommand<Parsed>(definition: StorelessCommand<Parsed>): StorelessCommand<unknown> {
  return definition as StorelessCommand<unknown>;
}

export class UsageError extends Error {}
