import type { runImport } from './import.ts';

export type ImportJobStatus = {
  state: 'running' | 'done' | 'failed';
  done: number;
  total: number;
  report: Awaited<ReturnType<typeof runImport>> | null;
  message: string | null;
};

/** What the screen shows of an import job: progress while it runs, then its report or its failure. */
export async function importJobStatus(job: {
  getState(): Promise<string>;
  progress: unknown;
  returnvalue: unknown;
  failedReason?: string;
}): Promise<ImportJobStatus> {
  const state = await job.getState();
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
