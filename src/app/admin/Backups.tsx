import type { BackupOverview } from '../../backups/scheduled-backups.ts';
import { DataTable } from './DataTable.tsx';
import { formatDateTime, formatSize } from './format.ts';

/** Admin → Settings: the schedule and every backup on disk with its size. */
export function BackupsCard({ backups }: { backups: BackupOverview }) {
  return (
    <section className="card" aria-labelledby="backup-settings">
      <h2 id="backup-settings">Backups</h2>
      <p className="muted">
        {backups.intervalHours > 0
          ? `A backup of the database and the uploads every ${backups.intervalHours} hours into ${backups.dir}; the newest ${backups.keep} are kept (BACKUP_INTERVAL_HOURS, BACKUP_KEEP). Restore one with npm run db:restore -- FILE.`
          : 'Scheduled backups are off (BACKUP_INTERVAL_HOURS=0, the default with DATABASE_URL: back up your database server itself).'}
      </p>
      <BackupOutcome last={backups.last} />
      {backups.files.length > 0 ? (
        <DataTable
          caption="Backups on disk, newest first"
          columns={['File', 'Written', 'Database', 'Uploads']}
          rows={backups.files.map((file) => ({
            key: file.name,
            head: file.name,
            cells: [
              formatDateTime(file.createdAt),
              formatSize(file.size),
              file.uploadsSize === null ? '—' : formatSize(file.uploadsSize),
            ],
          }))}
        />
      ) : (
        <p className="empty-state">No backups yet.</p>
      )}
    </section>
  );
}

/** The last scheduled backup's time and outcome; a failure is a warning. */
export function BackupOutcome({ last }: { last: BackupOverview['last'] }) {
  if (!last) return null;
  return last.ok ? (
    <p className="muted">
      Last backup: {formatDateTime(last.at)} (<a href="/admin?tab=settings#backup-settings">all backups</a>).
    </p>
  ) : (
    <div className="admin-banner" role="alert">
      <p>
        <strong>The last backup failed</strong> ({formatDateTime(last.at)}): {last.error}
      </p>
    </div>
  );
}
