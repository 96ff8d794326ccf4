import type { runImport } from './import.ts';

export type ImportJobStatus = {
  state: 'running' | 'done' | 'failed';
  done: number;
  total: number;
  report: Awaited<ReturnType<typeof runImport>> | null;
  message: string | null;
};

/**
 * What the screen shows of an import job: progress while it runs, then its report or its failure.
 * The state is read before the job: a job read first and completed in between would show as
 * finished without its report.
 */
export async function importJobStatus(
  queue: { getJobState(id: string): Promise<string>; getJob(id: string): Promise<ImportJob | undefined> },
  id: string,
): Promise<ImportJobStatus | null> {
  const state = await queue.getJobState(id);
  const job = state === 'unknown' ? undefined : await queue.getJob(id);
  if (!job) return null;
  const progress = (job.progress ?? {}) as { done?: number; total?: number };
  const report = state === 'completed' ? (job.returnvalue as ImportJobStatus['report']) : null;
  return {
    state: state === 'completed' ? 'done' : state === 'failed' ? 'failed' : 'running',
    done: report ? report.total : (progress.done ?? 0),
    total: report ? report.total : (progress.total ?? 0),
    report,
    message: state === 'failed' ? `The import failed: ${job.failedReason ?? 'unknown error'}` : null,
  };
}

type ImportJob = { progress: unknown; returnvalue: unknown; failedReason?: string };
