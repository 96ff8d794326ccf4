import '../server/production-by-default.ts';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { BACKUP_SUFFIX, restoreUploadsArchive, uploadsArchiveFor } from '../backups/scheduled-backups.ts';
import { backupDatabase, restoreDatabase } from '../db/backup.ts';
import { loadConfigOrExit } from '../server/boot.ts';
import { PAGE_CACHE_CHANNEL } from '../server/page-cache.ts';
import { runCommand } from './command.ts';

/**
 * `npm run db:backup [FILE]` writes a backup (default: backups/penstand-<time>.backup.gz);
 * `npm run db:restore FILE` replaces the database's content with it, and puts back the uploads
 * of the archive beside it when there is one (what the scheduled backups write).
 */
const [command, fileArg] = process.argv.slice(2);
if (command !== 'backup' && command !== 'restore') {
  process.stderr.write('usage: node src/cli/backup.ts backup [FILE] | restore FILE\n');
  process.exit(2);
}
if (command === 'restore' && !fileArg) {
  process.stderr.write('usage: npm run db:restore FILE\n');
  process.exit(2);
}
await runCommand(loadConfigOrExit(), async (runtime, log) => {
  const url = runtime.databaseUrl;
  if (command === 'backup') {
    const file = path.resolve(
      fileArg ?? `backups/penstand-${new Date().toISOString().replace(/[:.]/g, '-')}.backup.gz`,
    );
    await import('node:fs/promises').then((fs) => fs.mkdir(path.dirname(file), { recursive: true }));
    const header = await backupDatabase(url, file);
    log.info({ file, tables: header.tables.length }, 'backup written');
  } else {
    const file = path.resolve(fileArg);
    const header = await restoreDatabase(url, file);
    // A site running beside it drops the pages it stored from the replaced content.
    await runtime.services.db.raw('SELECT pg_notify(?, ?)', [PAGE_CACHE_CHANNEL, 'db:restore']);
    log.info({ file: fileArg, createdAt: header.createdAt, tables: header.tables.length }, 'backup restored');
    const uploads = file.endsWith(BACKUP_SUFFIX) ? uploadsArchiveFor(file) : null;
    if (uploads && existsSync(uploads)) {
      const { uploads: publicFiles, privateFiles } = runtime.services;
      const files = await restoreUploadsArchive(uploads, { uploads: publicFiles, privateFiles });
      log.info({ file: uploads, files }, 'uploads restored');
    }
  }
});
