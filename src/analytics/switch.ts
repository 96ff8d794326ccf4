import type { SettingsCache } from '../settings/settings-cache.ts';

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
