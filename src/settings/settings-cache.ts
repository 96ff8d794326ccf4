import type { Db } from '../db/knex.ts';
import { type BlogSettings, DEFAULT_SETTINGS, getBlogSettings } from './settings.ts';

/** Read again at least this often, in case a change's notification was missed. */
const MAX_AGE_MS = 30_000;

/** What drops stored pages: an admin's write here, or in another process (PostgreSQL NOTIFY). */
type Invalidations = { readonly enabled: boolean; currentVersion(): number };

/**
 * The blog settings, read once per process and kept until a write. Every settings save is an
 * admin's write, which moves the page cache's version in every process: the next request reads
 * them again. Only while the page cache is on: without it no process hears of another's writes,
 * so each request reads them (as it did).
 */
export class SettingsCache {
  private value: BlogSettings | null = null;
  /** The last settings read, for a caller that would rather have them than an error. */
  lastKnown: BlogSettings = DEFAULT_SETTINGS;
  private version = Number.NaN;
  private readAt = 0;
  private reading: { version: number; settings: Promise<BlogSettings> } | null = null;
  private readonly db: Db;
  private readonly invalidations: Invalidations;

  constructor(db: Db, invalidations: Invalidations) {
    this.db = db;
    this.invalidations = invalidations;
  }

  /** The settings; a promise only when they must be read (a write since, their age, no page cache). */
  get(): BlogSettings | Promise<BlogSettings> {
    if (!this.invalidations.enabled) return this.read();
    const version = this.invalidations.currentVersion();
    if (this.value && version === this.version && Date.now() - this.readAt < MAX_AGE_MS) return this.value;
    // A read started before a write may have the old settings: not joined, nor kept.
    if (this.reading?.version === version) return this.reading.settings;
    const settings = this.read().then((read) => {
      if (this.reading?.settings === settings) this.reading = null;
      if (version === this.invalidations.currentVersion()) {
        this.value = read;
        this.version = version;
        this.readAt = Date.now();
      }
      return read;
    });
    settings.catch(() => {
      if (this.reading?.settings === settings) this.reading = null;
    });
    this.reading = { version, settings };
    return settings;
  }

  private async read(): Promise<BlogSettings> {
    this.lastKnown = await getBlogSettings(this.db);
    return this.lastKnown;
  }
}
