import type { Logger } from 'pino';
import type Stripe from 'stripe';
import type { Config } from '../config.ts';
import type { Db } from '../db/knex.ts';
import type { Mailer } from '../jobs/mailer.ts';
import type { Queues } from '../jobs/queues.ts';

/**
 * The long-lived dependencies areas may use, created once at start-up and passed down. The web
 * process's own (caches, metrics) are the server's AppServices, which holds these too.
 */
export type CoreServices = {
  config: Config;
  db: Db;
  /** The connection string behind db (the embedded cluster's when DATABASE_URL is unset). */
  databaseUrl: string;
  queues: Queues;
  log: Logger;
  mailer: Mailer;
  /** Resolved public origin, e.g. http://localhost:3000 */
  publicUrl: string;
  /** Stripe's SDK when card payments are configured; manual payment otherwise. */
  stripe: Stripe | undefined;
};
