import type { Knex } from 'knex';
import { openDatabase } from './src/db/embedded.ts';
import { knexConfig } from './src/db/knex.ts';
import { loadConfigOrExit } from './src/server/boot.ts';

/**
 * The knex CLI's configuration (`npm run knex -- migrate:status`), the same as the app's:
 * read from src/config.ts, DATABASE_URL when set, else the embedded database under DATA_DIR
 * (the running app's, or started for the one command).
 */
export default async function knexfile(): Promise<Knex.Config> {
  const config = loadConfigOrExit();
  // The knex CLI ends the process itself: a cluster started for it is stopped on exit.
  const { url } = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    port: config.embeddedPgPort,
    role: 'command',
    log: { info: () => {}, error: (message) => process.stderr.write(`${message}\n`), debug: () => {} },
  });
  return knexConfig(url, config.databasePoolMax);
}
