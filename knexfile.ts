import type { Knex } from 'knex';
import { embeddedDatabaseForCommand } from './src/db/embedded.ts';
import { knexConfig } from './src/db/knex.ts';
import { loadConfigOrExit } from './src/server/boot.ts';

/**
 * The knex CLI's configuration (`npm run knex -- migrate:status`), the same as the app's:
 * read from src/config.ts, DATABASE_URL when set, else the embedded database under DATA_DIR
 * (the running app's, or started for the one command).
 */
export default async function knexfile(): Promise<Knex.Config> {
  const config = loadConfigOrExit();
  const url =
    config.databaseUrl ??
    (await embeddedDatabaseForCommand({ dataDir: config.dataDir, port: config.embeddedPgPort }));
  return knexConfig(url, config.databasePoolMax);
}
