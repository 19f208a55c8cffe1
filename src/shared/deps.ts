import type { Config } from './config.js';
import type { Db } from './db/database.js';

/** What a service needs from the outside world; passed in, never imported, so tests build real ones. */
export interface ServiceDeps {
  db: Db;
  config: Config;
}
