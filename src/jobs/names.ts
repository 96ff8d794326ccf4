import { z } from 'zod';

const dayCount = z.object({ day: z.string(), name: z.string().min(1).max(100), views: z.number().int() });

/** Every job: its queue and the schema of its payload. Producers and workers share these. */
export const jobSchemas = {
  'mail.send': z.object({
    to: z.string().min(3),
    subject: z.string().min(1),
    text: z.string(),
    html: z.string().optional(),
    /** Mails whose codes or links must not be logged when SMTP delivers them. */
    sensitive: z.boolean().default(false),
  }),
  /** Tells a commenter who asked that their comment is published, or was answered by this one. */
  'mail.comment-notice': z.object({
    commentId: z.number().int().positive(),
    kind: z.enum(['published', 'reply']),
  }),
  /** A batch of page views, rolled up by the web process (see analytics/recorder.ts). */
  'views.record': z.object({
    /** Names the batch, so that a job run twice adds its views once. */
    batchId: z.uuid().optional(),
    /** For the posts' public view counts: each viewer once per post per day. */
    views: z.array(
      z.object({ postId: z.number().int().positive(), viewer: z.string().min(1).max(200), day: z.string() }),
    ),
    hours: z
      .array(
        z.object({
          hour: z.string(),
          path: z.string().min(1).max(300),
          postId: z.number().int().positive().nullable(),
          productId: z.number().int().positive().nullable(),
          views: z.number().int().positive(),
        }),
      )
      .default([]),
    /** Salted visitor hashes, each once per day and path ('' for the whole site). */
    visitors: z
      .array(z.object({ day: z.string(), hour: z.string(), path: z.string().max(300), visitor: z.string() }))
      .default([]),
    referrers: z.array(dayCount).default([]),
    devices: z.array(dayCount).default([]),
    countries: z.array(dayCount).default([]),
  }),
  'maintenance.sweep-sessions': z.object({}),
  'maintenance.refresh-cache': z.object({ reason: z.string().default('manual') }),
  'maintenance.relay-outbox': z.object({}),
  /** WebP variants of an upload at the image guide's sizes; fileName is a name we generated. */
  'media.variants': z.object({ fileName: z.string().regex(/^[a-f0-9]{32}\.(jpg|png|webp|gif)$/) }),
  /** Publishes one scheduled post when its time comes (jobId per post and time). */
  'maintenance.publish-post': z.object({ postId: z.number().int().positive(), publishAt: z.string() }),
  /** Publishes every scheduled post whose time has passed (catches up after downtime). */
  'maintenance.publish-due': z.object({}),
  /** Written by a trigger on stock_levels when a product's or variant's stock falls to ≤ 10 ('low') or to 0 ('out'). */
  'maintenance.low-stock-alert': z.object({
    productId: z.number().int().positive(),
    /** 0 (or absent, from before variants): the product's own stock. */
    variantId: z.number().int().min(0).optional(),
    stock: z.number().int().min(0),
    level: z.enum(['low', 'out']),
  }),
  'orders.send-confirmation': z.object({ orderId: z.number().int().positive() }),
  /** The confirmations of the orders one outbox relay found (written as one job each), sent in one job. */
  'orders.send-confirmations': z.object({
    orderIds: z.array(z.number().int().positive()).min(1).max(100),
  }),
  /** A mail after the confirmation (payment received, expired, refund, downloads, cancelled), once per key. */
  'orders.send-mail': z.object({
    orderId: z.number().int().positive(),
    kind: z.enum([
      'payment-received',
      'order-expired',
      'refund-issued',
      'downloads',
      'order-shipped',
      'order-cancelled',
    ]),
    key: z.string().min(1).max(100),
  }),
  /** Ends an unpaid order's stock hold at its deadline (a delayed job per order). */
  'orders.expire': z.object({ orderId: z.number().int().positive() }),
  /** The expiries of orders whose deadlines fell in the same second, as one relay found them. */
  'orders.expire-orders': z.object({
    orderIds: z.array(z.number().int().positive()).min(1).max(100),
  }),
  /** Expires every unpaid order past its hold: catches a lost or late expiry job. */
  'orders.expire-due': z.object({}),
  /** Starts every requested newsletter whose post is published: recipients fixed, batches queued. */
  'newsletter.start-due': z.object({}),
  /** Sends one post to up to 50 subscribers, each at most once. */
  'newsletter.batch': z.object({
    postId: z.number().int().positive(),
    subscriberIds: z.array(z.number().int().positive()).min(1).max(100),
  }),
  /** Imports one uploaded export file (src/import/uploaded.ts) with the writer's category mapping. */
  'import.run': z.object({
    uploadId: z.string().regex(/^[a-f0-9]{24}$/),
    categoryMap: z.record(z.string().max(200), z.string().max(100)).default({}),
    fetchImages: z.boolean().default(false),
  }),
} as const;

export type JobName = keyof typeof jobSchemas;
export type QueueName = 'mail' | 'views' | 'maintenance' | 'media' | 'orders' | 'newsletter' | 'import';

export function queueOf(job: JobName): QueueName {
  return job.slice(0, job.indexOf('.')) as QueueName;
}
