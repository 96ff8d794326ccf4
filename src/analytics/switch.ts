import { DEFAULT_SETTINGS, getBlogSettings } from '../blog/settings.ts';
import type { Db } from '../db/knex.ts';

/**
 * The 'Analytics' setting inside a statement, so that a write it guards (an add-to-cart, an
 * order's source) costs no extra round trip.
 */
export const ANALYTICS_ON_SQL = `coalesce((SELECT analytics FROM blog_settings WHERE id = 1), ${DEFAULT_SETTINGS.analytics})`;

/** Read again at least this often, in case a change's notification was missed. */
const MAX_AGE_MS = 30_000;

/**
 * The 'Analytics' setting as the counting path reads it on every page view (cached pages too):
 * from memory. A settings save is an admin's write, which moves the page cache's version in every
 * process (PostgreSQL NOTIFY): the next view reads the setting again.
 */
export class AnalyticsSwitch {
  private value = DEFAULT_SETTINGS.analytics;
  private version = Number.NaN;
  private readAt = 0;
  private reading: Promise<boolean> | null = null;
  private readonly db: Db;
  private readonly pageCache: { currentVersion(): number };

  constructor(db: Db, pageCache: { currentVersion(): number }) {
    this.db = db;
    this.pageCache = pageCache;
  }

  /** The setting; a promise only when it must be read again (a change, or its age). */
  isOn(): boolean | Promise<boolean> {
    const version = this.pageCache.currentVersion();
    if (version === this.version && Date.now() - this.readAt < MAX_AGE_MS) return this.value;
    this.reading ??= getBlogSettings(this.db)
      .then(
        (settings) => {
          this.value = settings.analytics;
          return this.value;
        },
        // The database away: the last value holds until it answers again.
        () => this.value,
      )
      .finally(() => {
        this.version = version;
        this.readAt = Date.now();
        this.reading = null;
      });
    return this.reading;
  }
}
