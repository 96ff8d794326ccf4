import { PageViewRecorder } from '../analytics/recorder.ts';
import { AnalyticsSwitch } from '../analytics/switch.ts';
import type { Config } from '../config.ts';
import { DatabaseAvailability } from '../db/availability.ts';
import { type DatabaseRole, DataDirBusyError, openDatabase } from '../db/embedded.ts';
import { createDb } from '../db/knex.ts';
import { migrateLatest } from '../db/migrate.ts';
import { createMailer } from '../jobs/mailer.ts';
import { Queues } from '../jobs/queues.ts';
import { createUploadStorage } from '../media/storage.ts';
import { createStripeClient } from '../payments/stripe.ts';
import { SettingsCache } from '../settings/settings-cache.ts';
import { JsonCache } from './json-cache.ts';
import type { Logger } from './logger.ts';
import { Metrics } from './metrics.ts';
import { PageCache } from './page-cache.ts';
import type { AppServices } from './services.ts';

export type Runtime = { services: AppServices; databaseUrl: string; close: () => Promise<void> };

/**
 * Database (DATABASE_URL, or the embedded cluster: the site's own, supervised, or the running one
 * a command attaches to; see openDatabase), migrations, queues and mailer.
 */
export async function startRuntime(
  config: Config,
  log: Logger,
  opts: { migrate?: boolean; role?: DatabaseRole } = {},
): Promise<Runtime> {
  const pgLog = log.child({ component: 'postgres' });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    port: config.embeddedPgPort,
    role: opts.role ?? 'command',
    log: {
      info: (message) => pgLog.info(message),
      error: (message) => pgLog.error(message),
      debug: (message) => pgLog.debug(message),
    },
  }).catch((error: unknown) => {
    // Another site or command holds DATA_DIR: one line that says which, and nothing touched.
    if (!(error instanceof DataDirBusyError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
  if (database.startedCluster)
    log.info({ port: config.embeddedPgPort, dataDir: config.dataDir }, 'embedded PostgreSQL started');
  const databaseUrl = database.url;
  const dbLog = log.child({ component: 'db' });
  const db = createDb(databaseUrl, config.databasePoolMax, {
    warn: (message) => dbLog.warn(message),
    error: (message) => dbLog.error(message),
  });
  const dbAvailability = new DatabaseAvailability(db, (up) =>
    up
      ? dbLog.info('database reachable again')
      : dbLog.error('database unreachable; answering 503 until it is back'),
  );
  if (opts.migrate !== false) {
    const applied = await migrateLatest(db);
    if (applied.length) log.info({ migrations: applied }, 'migrations applied');
  }
  const queueLog = log.child({ component: 'queue' });
  const queues = new Queues(
    config.redisUrl ? { kind: 'redis', url: config.redisUrl } : { kind: 'postgres', url: databaseUrl },
    (error) => queueLog.warn({ err: error.message }, 'queue connection error'),
  );
  await queues.ready();
  const metrics = new Metrics();
  metrics.watch(db, queues);
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    log: log.child({ component: 'mail' }),
    onSent: () => metrics.mailsSent.inc(),
  });
  const publicUrl = config.publicUrl ?? `http://localhost:${config.port}`;
  const pageCache = new PageCache({
    ttlMs: config.pageCacheTtlSeconds * 1000,
    staleMs: config.pageCacheStaleSeconds * 1000,
  });
  if (pageCache.enabled) await pageCache.listen(databaseUrl, log);
  const jsonCache = new JsonCache(pageCache, { ttlMs: config.pageCacheTtlSeconds * 1000 });
  const pageViews = new PageViewRecorder(db, queues);
  const settings = new SettingsCache(db, pageCache);
  const uploads = createUploadStorage(config);
  const privateFiles = createUploadStorage(config, 'private');
  const services: AppServices = {
    pageViews,
    settings,
    analytics: new AnalyticsSwitch(settings),
    config,
    db,
    databaseUrl,
    dbAvailability,
    queues,
    log,
    mailer,
    metrics,
    pageCache,
    jsonCache,
    publicUrl,
    uploads,
    privateFiles,
    stripe: createStripeClient(config),
  };
  return {
    services,
    databaseUrl,
    async close() {
      await pageViews.flush().catch(() => {});
      dbAvailability.stop();
      await pageCache.close();
      await queues.close();
      mailer.close();
      uploads.close();
      privateFiles.close();
      await db.destroy();
      await database.close();
    },
  };
}
