import { z } from 'zod';

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
  'views.record': z.object({
    views: z.array(
      z.object({ postId: z.number().int().positive(), viewer: z.string().min(1).max(200), day: z.string() }),
    ),
  }),
  'maintenance.sweep-sessions': z.object({}),
  'maintenance.refresh-cache': z.object({ reason: z.string().default('manual') }),
  'maintenance.relay-outbox': z.object({}),
  'orders.send-confirmation': z.object({ orderId: z.number().int().positive() }),
} as const;

export type JobName = keyof typeof jobSchemas;
export type QueueName = 'mail' | 'views' | 'maintenance' | 'media' | 'orders';

export function queueOf(job: JobName): QueueName {
  return job.slice(0, job.indexOf('.')) as QueueName;
}
