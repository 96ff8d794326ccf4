import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { COUNTS_TABLES, RECOUNT_SQL } from './counts.ts';
import pg from './pg.ts';

/**
 * A logical backup of every application table, as PostgreSQL COPY text in one gzip file.
 * pg_dump is not always at hand (embedded PostgreSQL ships none, and Debian's client is older
 * than the server), while COPY works against any server we run on.
 *
 * Format: a JSON header line, then per table `--TABLE <name>` followed by its COPY rows and a
 * `\.` line. Queue state (schema bullmq) is not included: jobs are transient, and the outbox is.
 */
export type BackupHeader = {
  format: 'penstand-backup';
  version: 1;
  createdAt: string;
  migrations: string[];
  tables: { name: string; columns: string[] }[];
  sequences: Record<string, number>;
};

const TABLE_MARK = '--TABLE ';
const END_OF_COPY = '\\.';

async function appTables(client: pg.Client): Promise<{ name: string; columns: string[] }[]> {
  const { rows } = await client.query<{ table_name: string; columns: string[] }>(
    `
    SELECT c.table_name, array_agg(c.column_name::text ORDER BY c.ordinal_position) AS columns
    FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.is_generated = 'NEVER'
      AND c.table_name NOT LIKE 'knex_migrations%'
      AND c.table_name <> ALL($1::text[])
    GROUP BY c.table_name`,
    [COUNTS_TABLES],
  );
  const { rows: edges } = await client.query<{ child: string; parent: string }>(`
    SELECT conrelid::regclass::text AS child, confrelid::regclass::text AS parent
    FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace`);
  // Parents before children, so the restore satisfies foreign keys as it goes.
  const byName = new Map(rows.map((r) => [r.table_name, r.columns]));
  const ordered: string[] = [];
  const visit = (name: string, path: Set<string>) => {
    if (ordered.includes(name) || path.has(name)) return;
    path.add(name);
    for (const e of edges) if (e.child === name && e.parent !== name) visit(e.parent, path);
    ordered.push(name);
  };
  for (const name of [...byName.keys()].sort()) visit(name, new Set());
  return ordered.filter((n) => byName.has(n)).map((name) => ({ name, columns: byName.get(name) ?? [] }));
}

const quote = (id: string) => `"${id.replaceAll('"', '""')}"`;

export async function backupDatabase(databaseUrl: string, file: string): Promise<BackupHeader> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const gzip = createGzip();
  const out = pipeline(gzip, createWriteStream(file));
  try {
    // One snapshot for every table.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const tables = await appTables(client);
    const migrations = (
      await client.query<{ name: string }>('SELECT name FROM knex_migrations ORDER BY id')
    ).rows.map((r) => r.name);
    const { rows: seqRows } = await client.query<{ name: string; value: string | null }>(
      `SELECT sequencename AS name, last_value AS value FROM pg_sequences WHERE schemaname = 'public'`,
    );
    const sequences = Object.fromEntries(
      seqRows.filter((r) => r.value !== null).map((r) => [r.name, Number(r.value)]),
    );
    const header: BackupHeader = {
      format: 'penstand-backup',
      version: 1,
      createdAt: new Date().toISOString(),
      migrations,
      tables,
      sequences,
    };
    gzip.write(`${JSON.stringify(header)}\n`);
    for (const table of tables) {
      gzip.write(`${TABLE_MARK}${table.name}\n`);
      const stream = client.query(
        copyTo(`COPY ${quote(table.name)} (${table.columns.map(quote).join(', ')}) TO STDOUT`),
      );
      for await (const chunk of stream) {
        if (!gzip.write(chunk)) await once(gzip, 'drain');
      }
      gzip.write(`${END_OF_COPY}\n`);
    }
    await client.query('COMMIT');
    gzip.end();
    await out;
    return header;
  } finally {
    await client.end();
  }
}

/**
 * Replaces every application table's rows with the backup's, in one transaction: either the
 * whole backup is restored or nothing changes. The database must be migrated to the same version.
 */
export async function restoreDatabase(databaseUrl: string, file: string): Promise<BackupHeader> {
  const lines = createInterface({
    input: createReadStream(file).pipe(createGunzip()),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  const header = JSON.parse(first.value ?? '{}') as BackupHeader;
  if (header.format !== 'penstand-backup' || header.version !== 1)
    throw new Error(`${file} is not a Penstand backup`);

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const current = (
      await client.query<{ name: string }>('SELECT name FROM knex_migrations ORDER BY id')
    ).rows.map((r) => r.name);
    const missing = header.migrations.filter((m) => !current.includes(m));
    if (missing.length)
      throw new Error(`the database lacks migrations the backup has: ${missing.join(', ')}`);
    await client.query('BEGIN');
    const truncated = [...new Set([...header.tables.map((t) => t.name), ...COUNTS_TABLES])];
    await client.query(`TRUNCATE ${truncated.map(quote).join(', ')} RESTART IDENTITY CASCADE`);
    // Counts (in backups made before they were left out) are skipped, then recounted below.
    let skipping = false;
    let copy: NodeJS.WritableStream | null = null;
    let copied: Promise<void> | null = null;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const line = next.value;
      if (skipping) {
        skipping = line !== END_OF_COPY;
      } else if (copy === null) {
        if (!line.startsWith(TABLE_MARK)) throw new Error(`unexpected line in backup: ${line.slice(0, 40)}`);
        const table = header.tables.find((t) => t.name === line.slice(TABLE_MARK.length));
        if (!table) throw new Error(`backup names an unknown table: ${line}`);
        if ((COUNTS_TABLES as readonly string[]).includes(table.name)) {
          skipping = true;
          continue;
        }
        const stream = client.query(
          copyFrom(`COPY ${quote(table.name)} (${table.columns.map(quote).join(', ')}) FROM STDIN`),
        );
        copy = stream;
        copied = new Promise<void>((resolve, reject) => {
          stream.on('finish', () => resolve());
          stream.on('error', reject);
        });
      } else if (line === END_OF_COPY) {
        copy.end();
        await copied;
        copy = null;
      } else if (!copy.write(`${line}\n`)) {
        await once(copy as unknown as NodeJS.EventEmitter, 'drain');
      }
    }
    if (copy !== null || skipping) throw new Error('the backup ends in the middle of a table');
    await client.query(RECOUNT_SQL);
    for (const [name, value] of Object.entries(header.sequences)) {
      await client.query('SELECT setval($1::regclass, $2)', [quote(name), value]);
    }
    await client.query('COMMIT');
    return header;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}
