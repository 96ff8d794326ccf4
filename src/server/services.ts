import type { PageViewRecorder } from '../analytics/recorder.ts';
import type { AnalyticsSwitch } from '../analytics/switch.ts';
import type { DatabaseAvailability } from '../db/availability.ts';
import type { CoreServices } from '../kernel/services.ts';
import type { UploadStorage } from '../media/storage.ts';
import type { SettingsCache } from '../settings/settings-cache.ts';
import type { JsonCache } from './json-cache.ts';
import type { Metrics } from './metrics.ts';
import type { PageCache } from './page-cache.ts';

/** Long-lived dependencies of one process, created once at start-up and passed down. */
export type AppServices = CoreServices & {
  /** Whether PostgreSQL answers; requests fail fast with 503 while it does not. */
  dbAvailability: DatabaseAvailability;
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
};
