import type { Config } from '../config.ts';
import { processLogger } from '../server/boot.ts';
import type { Logger } from '../server/logger.ts';
import { type Runtime, startRuntime } from '../server/runtime.ts';

/**
 * The one start-up of every command: the runtime (the database as openDatabase's 'command' role
 * opens it, safe beside a running site; migrations, queues, storage), the work, then the close,
 * whatever the work did.
 */
export async function runCommand<T>(
  config: Config,
  work: (runtime: Runtime, log: Logger) => Promise<T>,
): Promise<T> {
  const log = processLogger(config);
  const runtime = await startRuntime(config, log);
  try {
    return await work(runtime, log);
  } finally {
    await runtime.close();
  }
}
