import '../server/production-by-default.ts';
import { rebuildProjections } from '../orders/store.ts';
import { loadConfigOrExit } from '../server/boot.ts';
import { runCommand } from './command.ts';

/** `npm run orders:rebuild`: rewrites orders and order_items from order_events. */
await runCommand(loadConfigOrExit(), async (runtime, log) => {
  const result = await rebuildProjections(runtime.services.db);
  log.info(result, 'order projections rebuilt');
});
