import '../server/production-by-default.ts';
import { startWorkers } from '../../workers/index.ts';
import { loadConfigOrExit, onShutdown, processLogger } from '../server/boot.ts';
import { startRuntime } from '../server/runtime.ts';

/** The worker process (`npm run worker`): the queue workers without the web server. */
const config = loadConfigOrExit();
const log = processLogger(config);
const runtime = await startRuntime(config, log);
const workers = startWorkers(runtime.services);
log.info({ backend: runtime.services.queues.connection.kind }, 'worker started');

onShutdown(log, async () => {
  await workers.close();
  await runtime.close();
});
