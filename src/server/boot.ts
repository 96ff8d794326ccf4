import { type Config, ConfigError, loadConfig } from '../config.ts';
import { createLogger, type Logger } from './logger.ts';

/** Loads the config or stops the process with one clear line naming the variable. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

export function processLogger(config: Config): Logger {
  return createLogger({ level: config.logLevel });
}

/**
 * Runs the shutdown steps once on SIGTERM/SIGINT and exits 0; a shutdown that takes
 * longer than 10 s exits 1 so an orchestrator is not kept waiting.
 */
export function onShutdown(log: Logger, steps: () => Promise<void>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    setTimeout(() => {
      log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000).unref();
    try {
      await steps();
      log.info('stopped');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
