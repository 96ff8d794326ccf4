import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { GHOST_FIXTURE, WXR_FIXTURE } from '../support/import-fixtures.ts';
import { emptyDataDir } from '../support/process.ts';
import { freePort } from '../support/redis-server.ts';

const run = promisify(execFile);
let dataDir = '';
let site: ChildProcess | undefined;

afterAll(async () => {
  // npm start is a process group (npm, then node): Ctrl-C reaches all of it.
  if (site?.pid && site.exitCode === null && site.signalCode === null) {
    process.kill(-site.pid, 'SIGINT');
    await new Promise((resolve) => site?.once('exit', resolve));
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const postmasterPid = () =>
  Number.parseInt(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8'), 10);
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('every command docs/operators-guide.md calls safe runs beside `npm start` on the embedded database, and the site answers 200 throughout', async () => {
  dataDir = await emptyDataDir('beside');
  const port = await freePort();
  // As the operator's guide says, with no DATABASE_URL: only where it keeps its data, its ports and its build
  // (the suite's own build is in use by other tests) differ.
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/root',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    EMBEDDED_PG_PORT: String(await freePort()),
    BUILD_DIR: path.join(dataDir, 'build'),
    LOG_LEVEL: 'warn',
  };
  site = spawn('npm', ['start'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let siteOutput = '';
  site.stdout?.on('data', (d) => {
    siteOutput += d;
  });
  site.stderr?.on('data', (d) => {
    siteOutput += d;
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (
    !(await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (site.exitCode !== null || Date.now() > deadline)
      throw new Error(`npm start did not come up:\n${siteOutput}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const sitePostmaster = postmasterPid();

  const answers: string[] = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      for (const url of [`${base}/api/health`, `${base}/`]) {
        answers.push(
          await fetch(url).then(
            async (r) => {
              await r.arrayBuffer();
              return `${r.status} ${url}`;
            },
            (error: Error) => `${error.message} ${url}`,
          ),
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();

  const backup = path.join(dataDir, 'beside.backup.gz');
  const commands: string[][] = [
    ['db:backup', '--', backup],
    ['db:restore', '--', backup],
    ['import', '--', '--dry-run', GHOST_FIXTURE],
    ['import', '--', GHOST_FIXTURE],
    ['export', '--', path.join(dataDir, 'export.json')],
    ['orders:rebuild'],
    ['posts:rerender'],
    ['admin:create', '--', '--email', 'second-admin@example.com', '--password', 'Second-admin1!'],
    ['db:migrate'],
    ['db:seed'],
    ['knex', '--', 'migrate:status'],
  ];
  try {
    for (const args of commands) {
      const result = await run('npm', ['run', ...args], { env, timeout: 90_000 }).catch(
        (error: { code?: number; stdout?: string; stderr?: string }) => error,
      );
      expect(result, `npm run ${args.join(' ')}: ${JSON.stringify(result)}`).not.toHaveProperty('code');
      // The site's own PostgreSQL served the command: nothing stopped or replaced it.
      expect(postmasterPid(), `after npm run ${args[0]}`).toBe(sitePostmaster);
    }
  } finally {
    polling = false;
    await poller;
  }
  expect(answers.length).toBeGreaterThan(20);
  expect(answers.filter((answer) => !answer.startsWith('200 '))).toEqual([]);

  // A second site on the same DATA_DIR says so and exits; the first keeps serving.
  const second = await run('npm', ['run', 'start:web'], {
    env: { ...env, PORT: String(await freePort()) },
    timeout: 60_000,
  }).catch((error: { code?: number; stderr?: string }) => error);
  expect(second).toMatchObject({ code: 1 });
  expect((second as { stderr: string }).stderr).toContain(`Penstand already runs on ${dataDir}`);
  expect((await fetch(`${base}/api/health`)).status).toBe(200);
  expect(postmasterPid()).toBe(sitePostmaster);

  // Ctrl-C stops the site and the PostgreSQL it started.
  if (site.pid) process.kill(-site.pid, 'SIGINT');
  await new Promise((resolve) => site?.once('exit', resolve));
  await expect.poll(() => isAlive(sitePostmaster)).toBe(false);
  expect(existsSync(path.join(dataDir, 'site.pid'))).toBe(false);

  // With no site running, a command starts the cluster for itself and stops it again, and exits 0
  // with nothing left running after an import that told the (absent) site to drop its pages.
  const imported = await run('npm', ['run', 'import', '--', WXR_FIXTURE], { env, timeout: 90_000 });
  expect(imported.stdout).toMatch(/created: [1-9]/);
  expect(imported.stderr).not.toMatch(/terminating connection|Unhandled|Error/);
  expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
}, 300_000); // npm start builds, seeds and serves; eleven commands run beside it
