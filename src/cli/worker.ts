import '../server/production-by-default.ts';
import { getPriority, setPriority } from 'node:os';
import { startWorkers } from '../../workers/index.ts';
import { loadConfigOrExit, onShutdown, processLogger } from '../server/boot.ts';
import { startRuntime } from '../server/runtime.ts';

/** The worker process (`npm run worker`): the queue workers without the web server. */
const config = loadConfigOrExit();
const log = processLogger(config);
const runtime = await startRuntime(config, log);
const workers = startWorkers(runtime.services);
// Once started, background work (mails, media, imports) yields the CPU to the web process and the
// database on a shared host: in a product drop the cores go to the checkouts, the mails follow.
// WORKER_NICE is relative to the priority the process was started with (19 is the lowest).
const nice = lowerPriorityBy(config.workerNice);
log.info({ backend: runtime.services.queues.connection.kind, nice }, 'worker started');

function lowerPriorityBy(steps: number): number {
  const started = getPriority();
  if (steps === 0) return started;
  const lowered = Math.min(19, started + steps);
  try {
    setPriority(lowered);
    return lowered;
  } catch (error) {
    log.warn({ err: error, nice: lowered }, 'could not lower the worker process priority');
    return started;
  }
}

onShutdown(log, async () => {
  await workers.close();
  await runtime.close();
});
