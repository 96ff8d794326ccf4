import type Stripe from 'stripe';
import type { PageViewRecorder } from '../analytics/recorder.ts';
import type { AnalyticsSwitch } from '../analytics/switch.ts';
import type { SettingsCache } from '../blog/settings-cache.ts';
import type { Config } from '../config.ts';
import type { DatabaseAvailability } from '../db/availability.ts';
import type { Db } from '../db/knex.ts';
import type { Mailer } from '../jobs/mailer.ts';
import type { Queues } from '../jobs/queues.ts';
import type { UploadStorage } from '../media/storage.ts';
import type { JsonCache } from './json-cache.ts';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';
import type { PageCache } from './page-cache.ts';

/** Long-lived dependencies of one process, created once at start-up and passed down. */
export type AppServices = {
  config: Config;
  db: Db;
  /** The connection string behind db (the embedded cluster's when DATABASE_URL is unset). */
  databaseUrl: string;
  /** Whether PostgreSQL answers; requests fail fast with 503 while it does not. */
  dbAvailability: DatabaseAvailability;
  queues: Queues;
  log: Logger;
  mailer: Mailer;
  metrics: Metrics;
  pageCache: PageCache;
  /** Readers' API answers, dropped with the stored pages. */
  jsonCache: JsonCache;
  /** Uploaded images and their variants: a local directory or an S3 bucket. */
  uploads: UploadStorage;
  /** Page views (and the posts' public counts), batched into one queue job per interval. */
  pageViews: PageViewRecorder;
  /** The blog settings, kept in memory until an admin's write (while the page cache is on). */
  settings: SettingsCache;
  /** The 'Analytics' setting, read from memory by the counting path. */
  analytics: AnalyticsSwitch;
  /** Downloadable products' files: never served but through a download link. */
  privateFiles: UploadStorage;
  /** Resolved public origin, e.g. http://localhost:3000 */
  publicUrl: string;
  /** Stripe's SDK when card payments are configured; manual payment otherwise. */
  stripe: Stripe | undefined;
};
