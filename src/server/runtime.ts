import { PageViewRecorder } from '../analytics/recorder.ts';
import { AnalyticsSwitch } from '../analytics/switch.ts';
import { SettingsCache } from '../blog/settings-cache.ts';
import type { Config } from '../config.ts';
import { DatabaseAvailability } from '../db/availability.ts';
import { EMBEDDED_DATABASE, startEmbeddedPostgres } from '../db/embedded.ts';
import { createDb } from '../db/knex.ts';
import { migrateLatest } from '../db/migrate.ts';
import { createMailer } from '../jobs/mailer.ts';
import { Queues } from '../jobs/queues.ts';
import { createUploadStorage } from '../media/storage.ts';
import { createStripeClient } from '../payments/stripe.ts';
import { JsonCache } from './json-cache.ts';
import type { Logger } from './logger.ts';
import { Metrics } from './metrics.ts';
import { PageCache } from './page-cache.ts';
import type { AppServices } from './services.ts';

export type Runtime = { services: AppServices; databaseUrl: string; close: () => Promise<void> };

/** Database (embedded when DATABASE_URL is unset), migrations, queues and mailer. */
export async function startRuntime(
  config: Config,
  log: Logger,
  opts: { migrate?: boolean } = {},
): Promise<Runtime> {
  let databaseUrl = config.databaseUrl;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!databaseUrl) {
    const pgLog = log.child({ component: 'postgres' });
    const embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      port: config.embeddedPgPort,
      database: EMBEDDED_DATABASE,
      onLog: (message) => pgLog.debug(message),
    });
    log.info({ port: config.embeddedPgPort, dataDir: config.dataDir }, 'embedded PostgreSQL started');
    databaseUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }
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
      if (stopEmbedded) await stopEmbedded();
    },
  };
}
