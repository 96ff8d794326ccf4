import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Db } from '../db/knex.ts';
import type { jobSchemas } from '../jobs/names.ts';
import type { Queues } from '../jobs/queues.ts';
import type { Device } from './classify.ts';

/** One counted page view, as the collection middleware describes it. */
export type PageView = {
  path: string;
  postId: number | null;
  productId: number | null;
  /** Null when the browser asks not to be tracked (DNT, Sec-GPC): counted, never in uniques. */
  visitor: { address: string; userAgent: string } | null;
  /** The visitor's session, when it has one: the post's public count knows a reader by it. */
  sessionId: string | null;
  source: string;
  device: Device;
  country: string | null;
};

/** A post page's view while analytics is off: only for the post's public count. */
export type PostRead = Pick<PageView, 'postId' | 'visitor' | 'sessionId'>;

type Batch = z.output<(typeof jobSchemas)['views.record']>;

/**
 * Distinct things kept (hour-and-path rows, visitors, a post's viewers), counted and unsent: views
 * past the bound are not counted while the queue is unreachable. Memory matters more than counts.
 */
const MAX_KEPT = 100_000;
const HOUR_MS = 3_600_000;

/** A visitor seen this hour: the paths they read (and whether they count at all, see Viewers). */
type Visitor = { address: string; userAgent: string; paths: Set<string> };

/** Who read a post this hour: sessions, visitors (hashed at the flush), and DNT views each once. */
type Viewers = { sessions: Set<string>; visitors: Set<Visitor>; untracked: number };

/** Everything counted in one UTC hour, added up as the views arrive. */
type HourTally = {
  startMs: number;
  day: string;
  hour: string;
  paths: Map<string, Batch['hours'][number]>;
  referrers: Map<string, number>;
  devices: Map<string, number>;
  countries: Map<string, number>;
  /** By address, then user agent: no key string is built per view. */
  visitors: Map<string, Map<string, Visitor>>;
  posts: Map<number, Viewers>;
};

function hourTally(ms: number): HourTally {
  const startMs = ms - (ms % HOUR_MS);
  const iso = new Date(startMs).toISOString();
  return {
    startMs,
    day: iso.slice(0, 10),
    hour: `${iso.slice(0, 13)}:00:00Z`,
    paths: new Map(),
    referrers: new Map(),
    devices: new Map(),
    countries: new Map(),
    visitors: new Map(),
    posts: new Map(),
  };
}

/** The entry of a key, made and kept first when there is none. */
function entryOf<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

const bump = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);

/** Today's salt, created by whichever process asks first. */
async function saltOf(db: Db, day: string): Promise<string> {
  await db('analytics_salts')
    .insert({ day, salt: randomBytes(32).toString('base64url') })
    .onConflict('day')
    .ignore();
  const row = await db('analytics_salts').where({ day }).first('salt');
  return row.salt as string;
}

/**
 * Counts page views in memory, into per-hour tallies as they arrive (a view, a cached page's too,
 * costs a few map lookups and keeps no object of its own), and sends them to the queue as one job
 * of rollups per interval. Visitors are hashed with the day's salt at the flush, so neither the
 * address nor the user agent leaves this process.
 */
export class PageViewRecorder {
  private tallies = new Map<number, HourTally>();
  /** The tally of the hour views last arrived in: nearly every view's. */
  private current: HourTally | undefined;
  private kept = 0;
  /** Batches the queue refused, sent again first (with their ids, so never counted twice). */
  private unsent: { batch: Batch; size: number }[] = [];
  private unsentSize = 0;
  /** Flushes run one after another: two at once could send the same unsent batch twice. */
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private readonly salts = new Map<string, string>();
  /** The time a view is counted at; tests move it to another day. */
  clock: () => Date = () => new Date();

  private readonly db: Db;
  private readonly queues: Queues;
  private readonly intervalMs: number;

  constructor(db: Db, queues: Queues, intervalMs = 2_000) {
    this.db = db;
    this.queues = queues;
    this.intervalMs = intervalMs;
  }

  record(view: PageView | PostRead): void {
    if (this.kept + this.unsentSize >= MAX_KEPT) return;
    const tally = this.tallyAt(this.clock().getTime());
    let visitor: Visitor | undefined;
    if (view.visitor) {
      const { address, userAgent } = view.visitor;
      visitor = entryOf(
        entryOf(tally.visitors, address, () => new Map()),
        userAgent,
        () => {
          this.kept++;
          return { address, userAgent, paths: new Set<string>() };
        },
      );
    }
    if (view.postId) {
      const viewers = entryOf(
        tally.posts,
        view.postId,
        (): Viewers => ({ sessions: new Set(), visitors: new Set(), untracked: 0 }),
      );
      // A session tells a reader apart best; without one the visitor's hash; DNT views each count.
      if (view.sessionId) {
        if (!viewers.sessions.has(view.sessionId)) {
          viewers.sessions.add(view.sessionId);
          this.kept++;
        }
      } else if (visitor) viewers.visitors.add(visitor);
      else {
        viewers.untracked++;
        this.kept++;
      }
    }
    if ('path' in view) {
      const { path, postId, productId } = view;
      entryOf(tally.paths, path, () => {
        this.kept++;
        return { hour: tally.hour, path, postId, productId, views: 0 };
      }).views++;
      bump(tally.referrers, view.source);
      bump(tally.devices, view.device);
      if (view.country) bump(tally.countries, view.country);
      // Only analytics views count a visitor's paths: a public count's reader is not a visitor.
      if (visitor && !visitor.paths.has(view.path)) {
        visitor.paths.add(view.path);
        this.kept++;
      }
    }
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush().catch(() => {}), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Sends the counted views; when the queue cannot take them they are kept for the next try. */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.send());
    this.flushing = run.catch(() => {});
    return run;
  }

  private async send(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    try {
      if (this.tallies.size) {
        // The salts first: a failure here leaves every tally in place for the next flush.
        const days = new Set([...this.tallies.values()].map((t) => t.day));
        for (const day of this.salts.keys()) if (!days.has(day)) this.salts.delete(day);
        for (const day of days) if (!this.salts.has(day)) this.salts.set(day, await saltOf(this.db, day));
        const tallies = [...this.tallies.values()].sort((a, b) => a.startMs - b.startMs);
        this.tallies = new Map();
        this.current = undefined;
        this.unsent.push({ batch: this.batchOf(tallies), size: this.kept });
        this.unsentSize += this.kept;
        this.kept = 0;
      }
      while (this.unsent.length) {
        const { batch, size } = this.unsent[0];
        await this.queues.enqueue('views.record', batch, { attempts: 3 });
        this.unsent.shift();
        this.unsentSize -= size;
      }
    } catch (error) {
      // A failed timed flush has kept its views and scheduled the next one: nothing to report.
      this.timer ??= setTimeout(() => this.flush().catch(() => {}), this.intervalMs);
      this.timer.unref();
      throw error;
    }
  }

  private tallyAt(ms: number): HourTally {
    const current = this.current;
    if (current && ms >= current.startMs && ms < current.startMs + HOUR_MS) return current;
    const startMs = ms - (ms % HOUR_MS);
    this.current = entryOf(this.tallies, startMs, () => hourTally(ms));
    return this.current;
  }

  /** The job of some hours' tallies, in time order: a visitor's first hour on a path is kept. */
  private batchOf(tallies: HourTally[]): Batch {
    const seen = new Map<string, Batch['visitors'][number]>();
    const postViews: Batch['views'] = [];
    const perDay = { referrers: new Map<string, number>(), devices: new Map<string, number>() };
    const countries = new Map<string, number>();
    const hours: Batch['hours'] = [];
    for (const tally of tallies) {
      const { day, hour } = tally;
      hours.push(...tally.paths.values());
      for (const [name, views] of tally.referrers) bump(perDay.referrers, `${day}|${name}`, views);
      for (const [name, views] of tally.devices) bump(perDay.devices, `${day}|${name}`, views);
      for (const [name, views] of tally.countries) bump(countries, `${day}|${name}`, views);
      const hashes = new Map<Visitor, string>();
      const hashOf = (visitor: Visitor) => entryOf(hashes, visitor, () => this.visitorHash(day, visitor));
      for (const agents of tally.visitors.values()) {
        for (const visitor of agents.values()) {
          if (!visitor.paths.size) continue;
          const hash = hashOf(visitor);
          // The site ('') and each path: the first hour of the batch a visitor was seen on each.
          for (const path of ['', ...visitor.paths]) {
            const key = `${day}|${hash}|${path}`;
            if (!seen.has(key)) seen.set(key, { day, hour, path, visitor: hash });
          }
        }
      }
      for (const [postId, viewers] of tally.posts) {
        const add = (viewer: string) => postViews.push({ postId, viewer, day });
        for (const sessionId of viewers.sessions) add(sessionId);
        for (const visitor of viewers.visitors) add(hashOf(visitor));
        // Without a session or a hash (DNT) each view counts: nothing may tell such readers apart.
        for (let i = 0; i < viewers.untracked; i++) add(`once:${randomBytes(12).toString('base64url')}`);
      }
    }
    const split = (map: Map<string, number>) =>
      [...map].map(([key, views]) => {
        const [day, name] = key.split('|');
        return { day, name, views };
      });
    return {
      batchId: randomUUID(),
      views: postViews,
      hours,
      visitors: [...seen.values()],
      referrers: split(perDay.referrers),
      devices: split(perDay.devices),
      countries: split(countries),
    };
  }

  private visitorHash(day: string, visitor: { address: string; userAgent: string }): string {
    return createHash('sha256')
      .update(`${this.salts.get(day)}|${visitor.address}|${visitor.userAgent}`)
      .digest('base64url')
      .slice(0, 32);
  }
}
