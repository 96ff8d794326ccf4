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
    await queues.enqueueBulk(
      rows.map((row) => {
        const delay = row.run_at ? Math.max(0, row.run_at.getTime() - Date.now()) : 0;
        return {
          name: row.job_name,
          data: row.payload,
          opts: { ...(row.job_id ? { jobId: row.job_id } : {}), ...(delay ? { delay } : {}) },
        };
      }),
    );
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
