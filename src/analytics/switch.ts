import { DEFAULT_SETTINGS } from '../blog/settings.ts';
import type { SettingsCache } from '../blog/settings-cache.ts';

/**
 * The 'Analytics' setting inside a statement, so that a write it guards (an add-to-cart, an
 * order's source) costs no extra round trip.
 */
export const ANALYTICS_ON_SQL = `coalesce((SELECT analytics FROM blog_settings WHERE id = 1), ${DEFAULT_SETTINGS.analytics})`;

/**
 * The 'Analytics' setting as the counting path reads it on every page view (cached pages too):
 * from the settings kept in memory (SettingsCache).
 */
export class AnalyticsSwitch {
  private readonly settings: SettingsCache;

  constructor(settings: SettingsCache) {
    this.settings = settings;
  }

  /** The setting; a promise only when the settings must be read again. */
  isOn(): boolean | Promise<boolean> {
    const settings = this.settings.get();
    if (!(settings instanceof Promise)) return settings.analytics;
    // The database away: the last value holds until it answers again.
    return settings.then(
      (read) => read.analytics,
      () => this.settings.lastKnown.analytics,
    );
  }
}
