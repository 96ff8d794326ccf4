import '../server/production-by-default.ts';
import { loadConfigOrExit, processLogger } from '../server/boot.ts';
import { startRuntime } from '../server/runtime.ts';
import { rebuildProjections } from './store.ts';

/** `npm run orders:rebuild`: rewrites orders and order_items from order_events. */
const config = loadConfigOrExit();
const log = processLogger(config);
const runtime = await startRuntime(config, log);
try {
  const result = await rebuildProjections(runtime.services.db);
  log.info(result, 'order projections rebuilt');
} finally {
  await runtime.close();
}
