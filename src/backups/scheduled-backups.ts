import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { uploadsArchive } from '../import/uploads-archive.ts';
import { isStorageName, type UploadStorage } from '../media/storage.ts';
import { backupDatabase } from '../db/backup.ts';

/**
 * Backups without cron, for the one-laptop install: the worker writes the database (backup.ts's
 * format, what `npm run db:restore` reads) and every upload, public and private, as a pair of
 * files in DATA_DIR/backups, and keeps the newest few. A backup is due when the newest one is
 * older than the interval, so a laptop that was asleep at the usual hour still gets its backup
 * when it wakes, and a restart does not start the count again.
 */
export const BACKUP_SUFFIX = '.backup.gz';
export const UPLOADS_SUFFIX = '.uploads.tar.gz';
const LAST_RUN = 'last-run.json';

export type BackupFile = { name: string; size: number; uploadsSize: number | null; createdAt: string };
export type BackupRun = { at: string; ok: boolean; file?: string; size?: number; error?: string };

export const backupsDir = (dataDir: string) => path.join(dataDir, 'backups');

/** The uploads archive written beside a database backup. */
export const uploadsArchiveFor = (backupFile: string) =>
  `${backupFile.slice(0, -BACKUP_SUFFIX.length)}${UPLOADS_SUFFIX}`;

/** The backups in dir, newest first. */
export async function listBackups(dir: string): Promise<BackupFile[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const backups = await Promise.all(
    names
      .filter((name) => name.endsWith(BACKUP_SUFFIX))
      .map(async (name): Promise<BackupFile> => {
        const info = await stat(path.join(dir, name));
        const uploads = await stat(path.join(dir, uploadsArchiveFor(name))).catch(() => null);
        return {
          name,
          size: info.size,
          uploadsSize: uploads?.size ?? null,
          createdAt: info.mtime.toISOString(),
        };
      }),
  );
  return backups.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.name.localeCompare(a.name));
}

export async function lastBackupRun(dir: string): Promise<BackupRun | null> {
  try {
    return JSON.parse(await readFile(path.join(dir, LAST_RUN), 'utf8')) as BackupRun;
  } catch {
    return null;
  }
}

type BackupSources = { databaseUrl: string; uploads: UploadStorage; privateFiles: UploadStorage };

/**
 * Writes one backup pair, then removes all but the newest `keep`. Each file is written under a
 * dot name and renamed when complete, so a listed backup is never a partial one. The outcome is
 * recorded for the dashboard, a failure included.
 */
export async function writeBackup(dir: string, keep: number, sources: BackupSources): Promise<BackupRun> {
  await mkdir(dir, { recursive: true });
  const stem = `penstand-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  const database = path.join(dir, `${stem}${BACKUP_SUFFIX}`);
  const uploads = path.join(dir, `${stem}${UPLOADS_SUFFIX}`);
  let run: BackupRun;
  try {
    await pipeline(
      uploadsArchive(sources.uploads, sources.privateFiles),
      createWriteStream(partial(uploads)),
    );
    await backupDatabase(sources.databaseUrl, partial(database));
    await rename(partial(uploads), uploads);
    await rename(partial(database), database);
    run = {
      at: new Date().toISOString(),
      ok: true,
      file: path.basename(database),
      size: (await stat(database)).size,
    };
    await prune(dir, keep);
  } catch (error) {
    await rm(partial(uploads), { force: true });
    await rm(partial(database), { force: true });
    run = { at: new Date().toISOString(), ok: false, error: (error as Error).message };
  }
  await writeFile(path.join(dir, LAST_RUN), JSON.stringify(run));
  return run;
}

const partial = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.partial`);

async function prune(dir: string, keep: number): Promise<void> {
  for (const old of (await listBackups(dir)).slice(keep)) {
    await rm(path.join(dir, old.name), { force: true });
    await rm(path.join(dir, uploadsArchiveFor(old.name)), { force: true });
  }
}

/** Whether a backup is due: none yet, or the newest is at least the interval old. */
export async function backupDue(dir: string, intervalMs: number, now = Date.now()): Promise<boolean> {
  const [newest] = await listBackups(dir);
  return !newest || now - Date.parse(newest.createdAt) >= intervalMs;
}

/** Checks every minute (or sooner, for a short interval) and writes a backup when one is due. */
export function scheduleBackups(opts: {
  dir: string;
  intervalMs: number;
  keep: number;
  sources: BackupSources;
  onRun: (run: BackupRun) => void;
}): { close: () => Promise<void> } {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = (async () => {
      if (await backupDue(opts.dir, opts.intervalMs))
        opts.onRun(await writeBackup(opts.dir, opts.keep, opts.sources));
    })()
      .catch(() => {})
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, Math.min(60_000, Math.max(1_000, opts.intervalMs / 2)));
  timer.unref();
  tick();
  return {
    async close() {
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * Puts the files of an uploads archive (uploads/NAME, private/NAME) back into their storage, for
 * a restore into a new DATA_DIR. Names that are not plain file names are skipped.
 */
export async function restoreUploadsArchive(
  file: string,
  storages: { uploads: UploadStorage; privateFiles: UploadStorage },
): Promise<number> {
  const extract = tar.extract();
  let restored = 0;
  const done = (async () => {
    for await (const entry of extract) {
      const [area, name, ...rest] = entry.header.name.split('/');
      const storage =
        area === 'uploads' ? storages.uploads : area === 'private' ? storages.privateFiles : null;
      if (storage && name && rest.length === 0 && isStorageName(name) && entry.header.type === 'file') {
        await storage.put(name, Readable.from(entry), 'application/octet-stream');
        restored++;
      } else {
        entry.resume();
      }
    }
  })();
  await Promise.all([pipeline(createReadStream(file), createGunzip(), extract), done]);
  return restored;
}

export type BackupOverview = {
  /** Hours between scheduled backups; 0 when they are off. */
  intervalHours: number;
  keep: number;
  dir: string;
  files: BackupFile[];
  last: BackupRun | null;
};

/** What the admin shows: the schedule, the backups on disk and the last run's outcome. */
export async function backupOverview(config: {
  dataDir: string;
  backupIntervalMs: number;
  backupKeep: number;
}): Promise<BackupOverview> {
  const dir = backupsDir(config.dataDir);
  return {
    intervalHours: config.backupIntervalMs / 3_600_000,
    keep: config.backupKeep,
    dir,
    files: await listBackups(dir),
    last: await lastBackupRun(dir),
  };
}
