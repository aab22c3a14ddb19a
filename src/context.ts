import type { Clock, IdSource } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/db.js';

/** What every use case may need: the store, the time, randomness and configuration. */
export interface AppContext {
  db: Db;
  clock: Clock;
  ids: IdSource;
  config: Config;
}
