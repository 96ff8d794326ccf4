import '../server/production-by-default.ts';
import path from 'node:path';
import { loadConfigOrExit, processLogger } from '../server/boot.ts';
import { startRuntime } from '../server/runtime.ts';
import { backupDatabase, restoreDatabase } from './backup.ts';

/**
 * `npm run db:backup [FILE]` writes a backup (default: backups/penstand-<time>.backup.gz);
 * `npm run db:restore FILE` replaces the database's content with it.
 */
const [command, fileArg] = process.argv.slice(2);
if (command !== 'backup' && command !== 'restore') {
  process.stderr.write('usage: node src/db/backup-cli.ts backup [FILE] | restore FILE\n');
  process.exit(2);
}
if (command === 'restore' && !fileArg) {
  process.stderr.write('usage: npm run db:restore FILE\n');
  process.exit(2);
}
const config = loadConfigOrExit();
const log = processLogger(config);
const runtime = await startRuntime(config, log);
const url = runtime.databaseUrl;
try {
  if (command === 'backup') {
    const file = path.resolve(
      fileArg ?? `backups/penstand-${new Date().toISOString().replace(/[:.]/g, '-')}.backup.gz`,
    );
    await import('node:fs/promises').then((fs) => fs.mkdir(path.dirname(file), { recursive: true }));
    const header = await backupDatabase(url, file);
    log.info({ file, tables: header.tables.length }, 'backup written');
  } else {
    const header = await restoreDatabase(url, path.resolve(fileArg));
    log.info({ file: fileArg, createdAt: header.createdAt, tables: header.tables.length }, 'backup restored');
  }
} finally {
  await runtime.close();
}
