import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { freePort } from '../support/redis-server.ts';

const run = promisify(execFile);

/** `npm run knex -- args` as an operator types it, with only the given environment. */
function knexCli(args: string[], env: Record<string, string>) {
  return run(process.execPath, ['src/cli/knex.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', ...env },
    timeout: 120_000,
  });
}

let database: TestDatabase | undefined;
const dataDirs: string[] = [];
afterAll(async () => {
  await database?.drop();
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
});

describe('knexfile.ts and npm run knex', () => {
  it('uses the app configuration: DATABASE_URL, with every migration of the app already applied', async () => {
    database = await createTestDatabase();
    const { stdout, stderr } = await knexCli(['migrate:status'], { DATABASE_URL: database.url });
    expect(stdout).toContain('No Pending Migration files Found.');
    expect(stderr).not.toContain('Failed to load external module');
  });

  it('stops with the config error line when a variable is invalid', async () => {
    const failure = await knexCli(['migrate:status'], { DATABASE_URL: 'mysql://nope' }).catch(
      (error) => error,
    );
    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain('Invalid environment variable DATABASE_URL');
  });

  it('without DATABASE_URL, starts the embedded database under DATA_DIR for the command and stops it after', async () => {
    await mkdir('.test-data', { recursive: true });
    const dataDir = await mkdtemp(path.resolve('.test-data', 'knexfile-'));
    await chmod(dataDir, 0o755); // PostgreSQL runs as its own user when the tests run as root
    dataDirs.push(dataDir);
    const port = String(await freePort());
    const { stdout } = await knexCli(['migrate:latest'], { DATA_DIR: dataDir, EMBEDDED_PG_PORT: port });
    expect(stdout).toMatch(/Batch 1 run: \d+ migrations/);
    // The cluster was stopped when the command exited: its pid file goes once it is down.
    await expect
      .poll(() => existsSync(path.join(dataDir, 'pg', 'postmaster.pid')), { timeout: 30_000 })
      .toBe(false);

    // A second command finds the migrations recorded: the same cluster and database.
    const again = await knexCli(['migrate:status'], { DATA_DIR: dataDir, EMBEDDED_PG_PORT: port });
    expect(again.stdout).toContain('No Pending Migration files Found.');
    await expect
      .poll(() => existsSync(path.join(dataDir, 'pg', 'postmaster.pid')), { timeout: 30_000 })
      .toBe(false);
  });
});
