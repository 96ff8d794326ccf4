import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import type { JobName } from './names.ts';
import { jobSchemas, queueOf } from './names.ts';
import type { JobData, Queues } from './queues.ts';

/** One job for writeOutboxJobs. */
export type OutboxJob = {
  [N in JobName]: { name: N; data: JobData<N>; jobId: string; runAt?: Date };
}[JobName];

/**
 * Records a job inside the caller's transaction. It reaches the queue only after the
 * transaction commits (relayOutbox), and it cannot be lost if the process dies in between.
 * jobId makes the relay idempotent: BullMQ ignores a second add with the same id.
 */
export async function writeOutbox<N extends JobName>(
  trx: Knex.Transaction,
  name: N,
  data: JobData<N>,
  jobId: string,
  /** The job waits in the queue until then (a delayed job). */
  runAt?: Date,
): Promise<void> {
  await writeOutboxJobs(trx, [{ name, data, jobId, runAt } as OutboxJob]);
}

/** Several jobs as writeOutbox records one, in one statement. */
export async function writeOutboxJobs(trx: Knex.Transaction, jobs: OutboxJob[]): Promise<void> {
  await trx('outbox').insert(jobs.map(outboxRow));
}

/**
 * The jobs' outbox rows as a data-modifying CTE of another statement, written only when the CTE
 * named `when` returns a row: a change and its jobs in one round trip, the jobs only with the change.
 */
export function writeOutboxJobsWhen(trx: Knex.Transaction, jobs: OutboxJob[], when: string): Knex.Raw {
  const rows = jobs.map(outboxRow);
  return trx.raw(
    `INSERT INTO outbox (queue, job_name, payload, job_id, run_at)
     SELECT * FROM (VALUES ${rows.map(() => '(?, ?, ?::jsonb, ?, ?::timestamptz)').join(', ')}) AS v
     WHERE EXISTS (SELECT 1 FROM ??)`,
    [
      ...rows.flatMap((row) => [
        row.queue,
        row.job_name,
        JSON.stringify(row.payload),
        row.job_id,
        row.run_at,
      ]),
      when,
    ],
  );
}

function outboxRow(job: OutboxJob) {
  return {
    queue: queueOf(job.name),
    job_name: job.name,
    payload: jobSchemas[job.name].parse(job.data),
    job_id: job.jobId,
    run_at: job.runAt ?? null,
  };
}

type OutboxRow = { job_name: JobName; payload: unknown; job_id: string | null; run_at: Date | null };

/**
 * The queue's jobs for the outbox rows, the order confirmations among them as one job: a product
 * drop's hundreds of orders a second would otherwise cost the queue a job each (its add, claim and
 * completion: more PostgreSQL time than the order's own statements). Each order is still mailed
 * once (sendOrderConfirmation records it), and the batch's id is its orders' list, so a batch
 * relayed twice is added once and a different batch mails no one twice.
 */
function relayedJobs(rows: OutboxRow[]) {
  const isConfirmation = (row: OutboxRow) => row.job_name === 'orders.send-confirmation' && !row.run_at;
  const confirmations = rows.filter(isConfirmation);
  const batched = confirmations.length > 1;
  return rows.flatMap((row) => {
    if (batched && isConfirmation(row)) {
      // The batch where its first confirmation was: the jobs keep the order they were written in.
      if (row !== confirmations[0]) return [];
      const orderIds = confirmations.map(
        (c) => jobSchemas['orders.send-confirmation'].parse(c.payload).orderId,
      );
      const batchId = createHash('sha1').update(orderIds.join(',')).digest('base64url');
      return [
        {
          name: 'orders.send-confirmations' as const,
          data: { orderIds },
          opts: { jobId: `order-confirmations-${batchId}` },
        },
      ];
    }
    const delay = row.run_at ? Math.max(0, row.run_at.getTime() - Date.now()) : 0;
    return [
      {
        name: row.job_name,
        data: row.payload,
        opts: { ...(row.job_id ? { jobId: row.job_id } : {}), ...(delay ? { delay } : {}) },
      },
    ];
  });
}

/** Moves committed outbox rows to the queue. Safe to run from several processes at once. */
export async function relayOutbox(db: Db, queues: Queues, batch = 100): Promise<number> {
  return db.transaction(async (trx) => {
    const rows: {
      id: number;
      job_name: JobName;
      payload: unknown;
      job_id: string | null;
      run_at: Date | null;
    }[] = await trx('outbox')
      .select('id', 'job_name', 'payload', 'job_id', 'run_at')
      .whereNull('relayed_at')
      .orderBy('id')
      .limit(batch)
      .forUpdate()
      .skipLocked();
    await queues.enqueueBulk(relayedJobs(rows));
    if (rows.length) {
      await trx('outbox')
        .whereIn(
          'id',
          rows.map((r) => r.id),
        )
        .update({ relayed_at: trx.fn.now() });
    }
    return rows.length;
  });
}
