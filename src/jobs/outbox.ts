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
 * Outbox rows (outboxRow) as a data-modifying CTE of another statement, written only when the CTE
 * named `when` returns a row: a change and its jobs in one round trip, the jobs only with the change.
 */
export function outboxRowsWhen(trx: Db | Knex.Transaction, rows: OutboxInsert[], when: string): Knex.Raw {
  return trx.raw(
    `INSERT INTO outbox (queue, job_name, payload, job_id, run_at)
     SELECT * FROM (VALUES ${rows.map(() => '(?, ?, ?::jsonb, ?, ?::timestamptz)').join(', ')}) AS v
     WHERE EXISTS (SELECT 1 FROM ??)`,
    [...rows.flatMap((row) => [row.queue, row.job_name, row.payload, row.job_id, row.run_at]), when],
  );
}

/** A job's outbox row, its payload checked by the job's schema and written as JSON text. */
export type OutboxInsert = ReturnType<typeof outboxRow>;

export function outboxRow(job: OutboxJob) {
  return {
    queue: queueOf(job.name),
    job_name: job.name,
    payload: JSON.stringify(jobSchemas[job.name].parse(job.data)),
    job_id: job.jobId,
    run_at: job.runAt ?? null,
  };
}

type OutboxRow = { job_name: JobName; payload: unknown; job_id: string | null; run_at: Date | null };

/** The per-order jobs a relay sends together: each order's is idempotent, so a batch may overlap another. */
const BATCHES = {
  'orders.send-confirmation': { name: 'orders.send-confirmations', idPrefix: 'order-confirmations' },
  'orders.expire': { name: 'orders.expire-orders', idPrefix: 'order-expiries' },
} as const;

type Batched = keyof typeof BATCHES;
const isBatched = (name: JobName): name is Batched => name in BATCHES;

/** A batched row's group: its job and, for a delayed one, the second its deadline falls in. */
const groupOf = (row: OutboxRow) =>
  `${row.job_name}@${row.run_at ? Math.ceil(row.run_at.getTime() / 1000) : ''}`;

/**
 * The queue's jobs for the outbox rows. The per-order confirmations of one pass are one job, and
 * so are the expiries due in the same second (run at the last of their deadlines): a product
 * drop's hundreds of orders a second would otherwise cost the queue a job each (its add, claim and
 * completion: more PostgreSQL time than the order's own statements). Each order is still mailed
 * or expired once (both record it on the order), and a batch's id is its orders' list, so a
 * batch relayed twice is added once and a different batch changes no order twice.
 */
function relayedJobs(rows: OutboxRow[]) {
  const groups = Map.groupBy(
    rows.filter((row) => isBatched(row.job_name)),
    groupOf,
  );
  return rows.flatMap((row) => {
    const group = isBatched(row.job_name) ? groups.get(groupOf(row)) : undefined;
    if (!group || group.length === 1) return [queuedJob(row.job_name, row.payload, row.job_id, row.run_at)];
    // The batches where their group's first row was: the jobs keep the order they were written in.
    if (row !== group[0]) return [];
    const batch = BATCHES[row.job_name as Batched];
    const jobs = [];
    // A few batches, not one: the orders queue runs four jobs at once, each sending in turn.
    for (let start = 0; start < group.length; start += ORDERS_PER_BATCH) {
      const part = group.slice(start, start + ORDERS_PER_BATCH);
      const orderIds = part.map((r) => jobSchemas[r.job_name as Batched].parse(r.payload).orderId);
      const runAt = part.reduce<Date | null>(
        (last, r) => (r.run_at && (!last || r.run_at > last) ? r.run_at : last),
        null,
      );
      const batchId = createHash('sha1').update(orderIds.join(',')).digest('base64url');
      jobs.push(queuedJob(batch.name, { orderIds }, `${batch.idPrefix}-${batchId}`, runAt));
    }
    return jobs;
  });
}

/** Orders per batch job: a relay's hundred confirmations are four jobs, sent side by side. */
const ORDERS_PER_BATCH = 25;

function queuedJob(name: JobName, data: unknown, jobId: string | null, runAt: Date | null) {
  const delay = runAt ? Math.max(0, runAt.getTime() - Date.now()) : 0;
  return { name, data, opts: { ...(jobId ? { jobId } : {}), ...(delay ? { delay } : {}) } };
}

/** The most rows one pass of the relay moves. */
export const RELAY_BATCH = 100;

/**
 * Moves committed outbox rows to the queue, deleting them once their jobs are added. Safe to run
 * from several processes at once.
 */
export async function relayOutbox(db: Db, queues: Queues, batch = RELAY_BATCH): Promise<number> {
  return db.transaction(async (trx) => {
    const rows: {
      id: number;
      job_name: JobName;
      payload: unknown;
      job_id: string | null;
      run_at: Date | null;
    }[] = await trx('outbox')
      .select('id', 'job_name', 'payload', 'job_id', 'run_at')
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
        .delete();
    }
    return rows.length;
  });
}
