import '../src/server/production-by-default.ts';
import { loadConfigOrExit, onShutdown, processLogger } from '../src/server/boot.ts';
import { startRuntime } from '../src/server/runtime.ts';
import { startWorkers } from './index.ts';

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
