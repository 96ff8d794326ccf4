import type { Worker } from 'bullmq';
import { applyPageViews, sweepAnalytics } from '../src/analytics/rollups.ts';
import { backupsDir, scheduleBackups } from '../src/backups/scheduled-backups.ts';
import { sendCommentNotice } from '../src/blog/comment-notices.ts';
import { sendNewsletterBatch, startDueNewsletters } from '../src/blog/newsletter-delivery.ts';
import { publishDuePosts, publishScheduledPost } from '../src/blog/scheduling.ts';
import { sweepViewLog } from '../src/blog/views.ts';
import { sweepExpiredSessions } from '../src/identity/sessions.ts';
import { runImport } from '../src/import/import.ts';
import { removeUpload, sweepUploadedImports, withUploadedFile } from '../src/import/uploaded.ts';
import { jobSchemas } from '../src/jobs/names.ts';
import { RELAY_BATCH, relayOutbox } from '../src/jobs/outbox.ts';
import { sweepExpiredRateLimits } from '../src/kernel/rate-limit.ts';
import { orderLink } from '../src/orders/access-key.ts';
import { sendOrderConfirmation, sendOrderConfirmations, sendOrderMail } from '../src/orders/confirmation.ts';
import { downloadMailLinks } from '../src/orders/downloads.ts';
import {
  expireDueOrders,
  expireOrder,
  expireOrders,
  paymentGuidance,
  paymentGuidanceOfBatch,
} from '../src/orders/payments.ts';
import { sweepAuditLog } from '../src/server/audit.ts';
import type { AppServices } from '../src/server/services.ts';
import { sendLowStockAlert } from '../src/shop/low-stock-alert.ts';
import { mediaProcessor } from './media.ts';

export type Workers = { close: () => Promise<void> };

const OUTBOX_POLL_MS = 500;
const SWEEP_EVERY_MS = 60 * 60 * 1000;
/** Scheduled posts missed while no worker ran are published by this sweep. */
const PUBLISH_SWEEP_EVERY_MS = 60 * 1000;
/** Unpaid orders whose expiry job was lost are expired by this sweep. */
const EXPIRY_SWEEP_EVERY_MS = 60 * 1000;

/** Starts one BullMQ worker per queue plus the outbox relay and periodic sweeps. */
export function startWorkers(services: AppServices): Workers {
  const { queues, db, mailer, metrics } = services;
  const log = services.log.child({ component: 'worker' });
  const workers: Worker[] = [
    queues.createWorker('mail', async (job) => {
      if (job.name === 'mail.comment-notice') {
        const notice = jobSchemas['mail.comment-notice'].parse(job.data);
        const sent = await sendCommentNotice({ db, mailer, publicUrl: services.publicUrl }, notice);
        log.info({ ...notice, sent }, 'comment notice');
        return;
      }
      const mail = jobSchemas['mail.send'].parse(job.data);
      await mailer.send(mail);
    }),
    queues.createWorker(
      'views',
      async (job) => {
        await applyPageViews(db, jobSchemas['views.record'].parse(job.data));
      },
      { concurrency: 1 },
    ),
    queues.createWorker('maintenance', async (job) => {
      if (job.name === 'maintenance.sweep-sessions') {
        const swept = await sweepExpiredSessions(db);
        if (swept.sessions) log.info(swept, 'expired sessions and their guest carts deleted');
        await sweepViewLog(db);
        await sweepAnalytics(db);
        await sweepExpiredRateLimits(db);
        await sweepAuditLog(db);
        await sweepUploadedImports(services.privateFiles);
      } else if (job.name === 'maintenance.relay-outbox') {
        await relayOutbox(db, queues);
      } else if (job.name === 'maintenance.publish-post') {
        // Readers' cached pages must show the newly published post.
        if (await publishScheduledPost(db, jobSchemas['maintenance.publish-post'].parse(job.data))) {
          services.pageCache.invalidate();
          await queues.enqueue('newsletter.start-due', {});
        }
      } else if (job.name === 'maintenance.publish-due') {
        if ((await publishDuePosts(db)) > 0) services.pageCache.invalidate();
        // Also catches a newsletter whose start job was lost.
        await queues.enqueue('newsletter.start-due', {});
      } else if (job.name === 'maintenance.low-stock-alert') {
        const alert = jobSchemas['maintenance.low-stock-alert'].parse(job.data);
        await sendLowStockAlert(db, queues, alert, String(job.id), {
          baseUrl: services.publicUrl,
          currency: services.config.currency,
        });
      }
    }),
    queues.createWorker('media', mediaProcessor(services), { concurrency: 1 }),
    // One batch at a time per worker process: the rate limit is a per-process pace.
    queues.createWorker(
      'newsletter',
      async (job) => {
        if (job.name === 'newsletter.start-due') {
          const started = await startDueNewsletters(db);
          if (started > 0) log.info({ started }, 'newsletters started');
        } else if (job.name === 'newsletter.batch') {
          const batch = jobSchemas['newsletter.batch'].parse(job.data);
          const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
          const outcome = await sendNewsletterBatch(
            {
              db,
              mailer,
              publicUrl: services.publicUrl,
              currency: services.config.currency,
              ratePerSecond: services.config.newsletterRatePerSecond,
            },
            batch,
            lastAttempt,
          );
          log.info({ postId: batch.postId, ...outcome }, 'newsletter batch');
        }
      },
      { concurrency: 1 },
    ),
    queues.createWorker('orders', async (job) => {
      if (job.name === 'orders.send-confirmation') {
        const { orderId } = jobSchemas['orders.send-confirmation'].parse(job.data);
        const outcome = await sendOrderConfirmation(db, mailer, orderId, () =>
          paymentGuidance(services, orderId),
        );
        log.info({ orderId, outcome }, 'order confirmation');
      } else if (job.name === 'orders.send-confirmations') {
        const { orderIds } = jobSchemas['orders.send-confirmations'].parse(job.data);
        const outcomes = await sendOrderConfirmations(db, mailer, orderIds, paymentGuidanceOfBatch(services));
        log.info({ orders: orderIds.length, ...outcomes }, 'order confirmations');
      } else if (job.name === 'orders.send-mail') {
        const mail = jobSchemas['orders.send-mail'].parse(job.data);
        const url = await orderLink(db, services.publicUrl, mail.orderId);
        const links =
          mail.kind === 'downloads' ? await downloadMailLinks(db, services.publicUrl, mail.orderId) : [];
        const outcome =
          mail.kind === 'downloads' && links.length === 0
            ? 'no-downloads'
            : await sendOrderMail(db, mailer, mail, url, links);
        log.info({ ...mail, outcome }, 'order mail');
      } else if (job.name === 'orders.expire') {
        const { orderId } = jobSchemas['orders.expire'].parse(job.data);
        if (await expireOrder(services, orderId)) log.info({ orderId }, 'order expired');
      } else if (job.name === 'orders.expire-orders') {
        const { orderIds } = jobSchemas['orders.expire-orders'].parse(job.data);
        const expired = await expireOrders(services, orderIds);
        if (expired > 0) log.info({ expired, of: orderIds.length }, 'orders expired');
      } else if (job.name === 'orders.expire-due') {
        const expired = await expireDueOrders(services);
        if (expired > 0) log.info({ expired }, 'orders expired by the sweep');
      }
    }),
    // One import at a time: each item is its own transaction, and two imports would race on slugs.
    queues.createWorker(
      'import',
      async (job) => {
        const { uploadId, categoryMap, fetchImages } = jobSchemas['import.run'].parse(job.data);
        let reported = 0;
        const report = await withUploadedFile(services.privateFiles, uploadId, (file) =>
          runImport(services, file, {
            categoryMap,
            fetchImages,
            onProgress: (done, total) => {
              // A write per item would slow a large import; the page polls every second or two.
              if (done - reported < Math.max(1, total / 50) && done !== total) return;
              reported = done;
              void job.updateProgress({ done, total });
            },
          }),
        );
        await removeUpload(services.privateFiles, uploadId);
        log.info({ uploadId, created: report.created, updated: report.updated }, 'import finished');
        return report;
      },
      { concurrency: 1 },
    ),
  ];
  for (const worker of workers) {
    worker.on('completed', (job) => {
      if (job.finishedOn && job.processedOn) {
        metrics.jobDuration.observe({ queue: worker.name }, (job.finishedOn - job.processedOn) / 1000);
      }
    });
    worker.on('failed', (job, err) => {
      metrics.jobFailures.inc({ queue: worker.name });
      log.warn(
        { queue: worker.name, job: job?.name, attempt: job?.attemptsMade, err: err.message },
        'job failed',
      );
    });
  }

  // Every timer's work in flight, so that close() waits for it: a relay or an enqueue still
  // running when the queues and the database pool close would hold a connection forever.
  const inFlight = new Set<Promise<unknown>>();
  let closing = false;
  const track = (work: Promise<unknown>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };
  let relaying = false;
  const relayTimer = setInterval(() => {
    if (relaying || closing) return;
    relaying = true;
    track(
      (async () => {
        try {
          // Again at once only while passes come back full (a backlog): rows that trickle in wait
          // for the next tick, so that a busy shop's rows go as a few large batches (a pass, its
          // jobs and their runs cost the same for ten rows as for a hundred), not many small ones.
          while (!closing && (await relayOutbox(db, queues)) === RELAY_BATCH) {}
        } catch (err) {
          log.warn({ err: (err as Error).message }, 'outbox relay failed; will retry');
        } finally {
          relaying = false;
        }
      })(),
    );
  }, OUTBOX_POLL_MS);
  const enqueueSweep = (
    name: 'maintenance.sweep-sessions' | 'maintenance.publish-due' | 'orders.expire-due',
  ) => {
    if (!closing) track(queues.enqueue(name, {}).catch(() => {}));
  };
  const sweepTimer = setInterval(() => enqueueSweep('maintenance.sweep-sessions'), SWEEP_EVERY_MS);
  enqueueSweep('maintenance.publish-due');
  const publishTimer = setInterval(() => enqueueSweep('maintenance.publish-due'), PUBLISH_SWEEP_EVERY_MS);
  enqueueSweep('orders.expire-due');
  const expiryTimer = setInterval(() => enqueueSweep('orders.expire-due'), EXPIRY_SWEEP_EVERY_MS);
  const backups =
    services.config.backupIntervalMs > 0
      ? scheduleBackups({
          dir: backupsDir(services.config.dataDir),
          intervalMs: services.config.backupIntervalMs,
          keep: services.config.backupKeep,
          sources: {
            databaseUrl: services.databaseUrl,
            uploads: services.uploads,
            privateFiles: services.privateFiles,
          },
          onRun: (run) =>
            run.ok
              ? log.info({ file: run.file, size: run.size }, 'backup written')
              : log.error({ err: run.error }, 'backup failed'),
        })
      : undefined;

  return {
    async close() {
      closing = true;
      clearInterval(relayTimer);
      clearInterval(sweepTimer);
      clearInterval(publishTimer);
      clearInterval(expiryTimer);
      await backups?.close();
      await Promise.allSettled([...inFlight]);
      await Promise.allSettled(workers.map((w) => w.close()));
    },
  };
}
