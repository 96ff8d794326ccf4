import '../server/production-by-default.ts';
import { setPriority } from 'node:os';
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
try {
  setPriority(config.workerNice);
} catch (error) {
  log.warn({ err: error, nice: config.workerNice }, 'could not lower the worker process priority');
}
log.info({ backend: runtime.services.queues.connection.kind, nice: config.workerNice }, 'worker started');

onShutdown(log, async () => {
  await workers.close();
  await runtime.close();
});
