import type { ChainServices } from '../chain/runtime.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Mailer } from '../mail/mailer.ts';

/**
 * What the server is built from (buildApp) and what routes find on `app.deps`. A service
 * names the part it uses (a Pick of this, or of Config), never the whole: it then cannot
 * reach what it has no business with, and a test builds it from just that part.
 */
export interface AppDeps {
  config: Config;
  database: Database;
  mailer: Mailer;
  chain: ChainServices;
}

/** The database and the mailer: what a service that writes and mails needs. */
export type MailingDeps = Pick<AppDeps, 'database' | 'mailer'>;
