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

const MAX_PENDING = 100_000;

type Batch = z.output<(typeof jobSchemas)['views.record']>;
type Pending = (PageView | PostRead) & { at: Date };

function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

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
 * Collects page views in memory and sends them to the queue as one job of rollups per interval:
 * a view (a cached page's too) costs a push onto an array. Visitors are hashed with the day's salt
 * at the flush, so neither the address nor the user agent leaves this process.
 */
export class PageViewRecorder {
  private pending: Pending[] = [];
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
    // While the queue is unreachable the batch is kept, up to a bound: memory matters more than counts.
    if (this.pending.length >= MAX_PENDING) return;
    this.pending.push({ ...view, at: this.clock() });
    this.timer ??= setTimeout(() => this.flush().catch(() => {}), this.intervalMs);
    this.timer.unref();
  }

  /** Sends the collected views; when the queue cannot take them they are kept for the next try. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending.length) return;
    const views = this.pending;
    this.pending = [];
    try {
      await this.queues.enqueue('views.record', await this.rollUp(views), { attempts: 3 });
    } catch (error) {
      this.pending.unshift(...views);
      // A failed timed flush has kept its views and scheduled the next one: nothing to report.
      this.timer ??= setTimeout(() => this.flush().catch(() => {}), this.intervalMs);
      this.timer.unref();
      throw error;
    }
  }

  private async rollUp(views: Pending[]): Promise<Batch> {
    const hours = new Map<string, Batch['hours'][number]>();
    const seen = new Map<string, Batch['visitors'][number]>();
    const postViews = new Map<string, Batch['views'][number]>();
    const perDay = { referrers: new Map<string, number>(), devices: new Map<string, number>() };
    const countries = new Map<string, number>();
    const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
    // The salts of the batch's days first (only those are kept: an older day's is of no more use
    // here), then each visitor hashed once per batch, however many pages they read.
    const days = new Set(views.map((view) => utcDay(view.at)));
    for (const day of this.salts.keys()) if (!days.has(day)) this.salts.delete(day);
    for (const day of days) if (!this.salts.has(day)) this.salts.set(day, await saltOf(this.db, day));
    const hashes = new Map<string, string>();
    for (const view of views) {
      const at = view.at.toISOString();
      const day = at.slice(0, 10);
      const hour = `${at.slice(0, 13)}:00:00Z`;
      let visitor: string | null = null;
      if (view.visitor) {
        const key = `${day}|${view.visitor.address}|${view.visitor.userAgent}`;
        visitor = hashes.get(key) ?? this.visitorHash(day, view.visitor);
        hashes.set(key, visitor);
      }
      if (view.postId) {
        // Without a session or a hash (DNT) each view counts: nothing may tell such readers apart.
        const viewer = view.sessionId ?? visitor ?? `once:${randomBytes(12).toString('base64url')}`;
        postViews.set(`${view.postId}|${viewer}|${day}`, { postId: view.postId, viewer, day });
      }
      if (!('path' in view)) continue;
      const hourKey = `${hour}|${view.path}`;
      const row = hours.get(hourKey) ?? {
        hour,
        path: view.path,
        postId: view.postId,
        productId: view.productId,
        views: 0,
      };
      row.views++;
      hours.set(hourKey, row);
      bump(perDay.referrers, `${day}|${view.source}`);
      bump(perDay.devices, `${day}|${view.device}`);
      if (view.country) bump(countries, `${day}|${view.country}`);
      if (visitor) {
        // The site ('') and the path: the first hour of the batch a visitor was seen on each.
        for (const path of ['', view.path]) {
          const key = `${day}|${visitor}|${path}`;
          if (!seen.has(key)) seen.set(key, { day, hour, path, visitor });
        }
      }
    }
    const split = (map: Map<string, number>) =>
      [...map].map(([key, views]) => {
        const [day, name] = key.split('|');
        return { day, name, views };
      });
    return {
      batchId: randomUUID(),
      views: [...postViews.values()],
      hours: [...hours.values()],
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
