import {
  createPostgresBackend,
  type JobsOptions,
  type Processor,
  Queue,
  Worker,
  type WorkerOptions,
} from 'bullmq';
import { Redis } from 'ioredis';
import type { z } from 'zod';
import { type JobName, jobSchemas, type QueueName, queueOf } from './names.ts';

export type QueueConnection = { kind: 'postgres'; url: string } | { kind: 'redis'; url: string };

/**
 * A queue or worker on either backend. The classes are the same; only the backend type
 * parameter differs, and nothing here depends on it, so both are held as the default type.
 */
type AnyQueue = Queue;
type AnyWorker = Worker;

export type JobData<N extends JobName> = z.input<(typeof jobSchemas)[N]>;

/**
 * Retries and retention of every job. Completed jobs are kept for an hour, not by count: on
 * PostgreSQL a count makes every completion compare all the completed jobs kept with the newest
 * ones (1,000 kept: a few ms of PostgreSQL CPU per job, more than the order that queued it), while
 * an age deletes by an index range. A job id added again within the hour (an outbox relayed twice)
 * still finds its job and adds nothing.
 */
const JOB_DEFAULTS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 3_600 },
  removeOnFail: 5_000,
};

/**
 * From how many jobs a queue's share of enqueueBulk goes as one bulk add. On PostgreSQL a bulk add
 * builds two temporary tables (about 5 ms of the server's CPU, whatever the count) where a single
 * add costs a few tenths of a millisecond: a relay pass of a few batch jobs adds them one by one.
 */
const BULK_FROM = 16;

/** The queues of one process, on PostgreSQL (same database) or Redis. */
export class Queues {
  private readonly queues = new Map<QueueName, AnyQueue>();
  private readonly redisClients: Redis[] = [];
  private closed = false;
  readonly connection: QueueConnection;
  private readonly onError: (error: Error) => void;

  /** onError receives connection errors: the queues reconnect by themselves, health reports the outage. */
  constructor(connection: QueueConnection, onError: (error: Error) => void = () => {}) {
    this.connection = connection;
    this.onError = onError;
  }

  /** Prepares the backend (the PostgreSQL backend creates its tables in schema bullmq). */
  async ready(): Promise<void> {
    await Promise.all(
      (['mail', 'views', 'maintenance', 'media', 'orders', 'newsletter', 'import'] as const).map((name) =>
        this.queue(name).waitUntilReady(),
      ),
    );
  }

  queue(name: QueueName): AnyQueue {
    let queue = this.queues.get(name);
    // A queue opened after close() would hold its connections forever.
    if (!queue && this.closed) throw new Error(`The ${name} queue is closed`);
    if (!queue) {
      queue = this.createQueue(name);
      this.queues.set(name, queue);
    }
    return queue;
  }

  async enqueue<N extends JobName>(
    name: N,
    data: JobData<N>,
    opts: JobsOptions = {},
  ): Promise<string | undefined> {
    const payload = jobSchemas[name].parse(data);
    const job = await this.queue(queueOf(name)).add(name, payload, { ...JOB_DEFAULTS, ...opts });
    return job.id;
  }

  /** Several jobs as enqueue adds one, one bulk add per queue (one round trip, not one per job). */
  async enqueueBulk(jobs: { name: JobName; data: unknown; opts?: JobsOptions }[]): Promise<void> {
    const byQueue = new Map<QueueName, { name: JobName; data: unknown; opts: JobsOptions }[]>();
    for (const job of jobs) {
      const queued = byQueue.get(queueOf(job.name)) ?? [];
      queued.push({
        name: job.name,
        data: jobSchemas[job.name].parse(job.data),
        opts: { ...JOB_DEFAULTS, ...job.opts },
      });
      byQueue.set(queueOf(job.name), queued);
    }
    for (const [name, queued] of byQueue) {
      const queue = this.queue(name);
      if (queued.length >= BULK_FROM) await queue.addBulk(queued);
      else for (const job of queued) await queue.add(job.name, job.data, job.opts);
    }
  }

  createWorker(name: QueueName, processor: Processor, opts: Partial<WorkerOptions> = {}): AnyWorker {
    const options = { concurrency: 4, maxStalledCount: 5, ...opts };
    const worker: AnyWorker =
      this.connection.kind === 'postgres'
        ? (new Worker(
            name,
            processor,
            { ...options, connection: this.pgConnection() },
            createPostgresBackend,
          ) as unknown as Worker)
        : new Worker(name, processor, { ...options, connection: this.redis() });
    worker.on('error', this.onError);
    return worker;
  }

  /** Job counts per queue; throws when the backend is unreachable. */
  async counts(): Promise<Record<string, number>> {
    const counts = await this.queue('mail').getJobCounts('waiting', 'active', 'delayed', 'failed');
    return counts;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
    await Promise.allSettled(this.redisClients.map((c) => c.quit()));
  }

  private createQueue(name: QueueName): AnyQueue {
    const queue: AnyQueue =
      this.connection.kind === 'postgres'
        ? (new Queue(name, { connection: this.pgConnection() }, createPostgresBackend) as unknown as Queue)
        : new Queue(name, { connection: this.redis() });
    queue.on('error', this.onError);
    return queue;
  }

  private pgConnection() {
    return {
      connectionString: this.connection.url,
      migrate: true,
      max: 4,
      application_name: 'penstand-queue',
    };
  }

  private redis(): Redis {
    const client = new Redis(this.connection.url, { maxRetriesPerRequest: null, enableOfflineQueue: true });
    client.on('error', this.onError);
    this.redisClients.push(client);
    return client;
  }
}
