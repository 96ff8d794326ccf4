import { readFile, rm } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startWebCommand } from '../../scripts/start-web-command.ts';
import { MALLOC_TUNABLES } from '../../src/server/malloc-tunables.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { emptyDataDir, startProcess } from '../support/process.ts';
import { freePort } from '../support/redis-server.ts';

const databases: TestDatabase[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const db of databases) await db.drop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function tempDataDir(): Promise<string> {
  const dir = await emptyDataDir('proc');
  dirs.push(dir);
  return dir;
}

describe('the web process', () => {
  it('renders with the production build of React when NODE_ENV is not set, as npm start runs it', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    await database.db.destroy();
    const port = await freePort();
    const { entry, nodeFlags } = startWebCommand();
    const proc = startProcess(
      entry,
      [],
      { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: database.url, DATA_DIR: await tempDataDir() },
      ['--import', './tests/support/report-react-build.mjs', ...nodeFlags],
    );
    await proc.waitForLog('Penstand is listening');
    const res = await fetch(`http://127.0.0.1:${port}/about`);
    expect(res.status).toBe(200);
    await res.text();
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    const builds = proc.output().match(/react build: \S+/g) ?? [];
    expect(builds.some((line) => line.includes('react-dom-server.node.production'))).toBe(true);
    expect(builds.some((line) => line.includes('/react.production'))).toBe(true);
    expect(builds.filter((line) => line.endsWith('.development.js'))).toEqual([]);
  });

  it('runs with its malloc settings, started again in place with its flags, keeping other glibc settings', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    await database.db.destroy();
    const port = await freePort();
    const { entry, nodeFlags } = startWebCommand();
    const proc = startProcess(
      entry,
      [],
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: database.url,
        DATA_DIR: await tempDataDir(),
        GLIBC_TUNABLES: 'glibc.pthread.rseq=1',
      },
      nodeFlags,
    );
    try {
      await proc.waitForLog('Penstand is listening');
      // The pid its parent started is the server (execve), with the settings and the same flags.
      // glibc parses the variable in place, ending each setting with a NUL.
      const environ = (await readFile(`/proc/${proc.child.pid}/environ`, 'utf8')).split('\0');
      const at = environ.findIndex((entry) => entry.startsWith('GLIBC_TUNABLES='));
      const settings = [environ[at].slice('GLIBC_TUNABLES='.length)];
      for (const entry of environ.slice(at + 1)) {
        if (!entry.startsWith('glibc.')) break;
        settings.push(entry);
      }
      expect(settings.join(':')).toBe(`glibc.pthread.rseq=1:${MALLOC_TUNABLES}`);
      const argv = (await readFile(`/proc/${proc.child.pid}/cmdline`, 'utf8')).split('\0');
      expect(argv).toEqual(
        expect.arrayContaining([...nodeFlags, expect.stringMatching(/src\/web\/start\.ts$/)]),
      );
      expect((await fetch(`http://127.0.0.1:${port}/about`)).status).toBe(200);
    } finally {
      proc.child.kill('SIGTERM');
    }
    expect(await proc.exited).toBe(0);
  });

  it('stops at once with one line naming a bad variable', async () => {
    const proc = startProcess('src/web/start.ts', [], { PORT: 'eighty' });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toBe('Invalid environment variable PORT: expected a number (got "eighty")\n');
  });

  it('finishes in-flight requests on SIGTERM, then exits 0', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    await database.db.destroy();
    const port = await freePort();
    const proc = startProcess('src/web/start.ts', ['--with-worker'], {
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      DATA_DIR: await tempDataDir(),
    });
    await proc.waitForLog('Penstand is listening');
    const base = `http://127.0.0.1:${port}`;
    // The shell is streamed before the deferred part: once every response has its headers, all
    // eight requests are in flight, each with 1.5 s to go.
    const inFlight = await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${base}/_diagnostics/stream?delay=1500`, {
          headers: { 'user-agent': 'Mozilla/5.0 Chrome/130' },
        }),
      ),
    );
    proc.child.kill('SIGTERM');
    const results = await Promise.all(
      inFlight.map(async (res) => ({ status: res.status, body: await res.text() })),
    );
    for (const result of results) {
      expect(result.status).toBe(200);
      expect(result.body).toContain('resolved after 1500 ms');
    }
    expect(await proc.exited).toBe(0);
    expect(proc.output()).toContain('"msg":"stopped"');
  });

  it('keeps its embedded data across restarts and seeds the demo only once', async () => {
    const dataDir = await tempDataDir();
    const env = {
      NODE_ENV: 'test',
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      EMBEDDED_PG_PORT: String(await freePort()),
      DATA_DIR: dataDir,
    };
    const first = startProcess('src/web/start.ts', ['--with-worker'], env);
    await first.waitForLog('Penstand is listening', 90_000);
    expect(first.output()).toContain('"msg":"demo content seeded"');
    expect(first.output()).toMatch(
      /Admin account created\n\s+email: +admin@penstand\.local\n\s+password: +\S{12,}/,
    );
    const client = new pg.Client({
      connectionString: `postgres://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/penstand`,
    });
    await client.connect();
    await client.query(`UPDATE blog_settings SET title = 'Renamed Between Restarts'`);
    const { rows } = await client.query('SELECT count(*)::int AS n FROM posts');
    await client.end();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = startProcess('src/web/start.ts', ['--with-worker'], env);
    await second.waitForLog('Penstand is listening', 90_000);
    expect(second.output()).not.toContain('demo content seeded');
    expect(second.output()).not.toContain('Admin account created');
    const html = await (await fetch(`http://127.0.0.1:${env.PORT}/`)).text();
    expect(html).toContain('Renamed Between Restarts');
    const again = new pg.Client({
      connectionString: `postgres://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/penstand`,
    });
    await again.connect();
    expect((await again.query('SELECT count(*)::int AS n FROM posts')).rows[0].n).toBe(rows[0].n);
    await again.end();
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});

describe('npm run admin:create', () => {
  it('creates an admin who can then sign in, and refuses a weak password', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const env = {
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      LOG_LEVEL: 'warn',
      DATA_DIR: await tempDataDir(),
    };
    const weak = startProcess(
      'src/cli/admin-create.ts',
      ['--email', 'chief@example.com', '--password', 'weak'],
      env,
    );
    expect(await weak.exited).toBe(2);
    const made = startProcess(
      'src/cli/admin-create.ts',
      ['--email', 'chief@example.com', '--password', 'Chief-pass1!'],
      env,
    );
    expect(await made.exited).toBe(0);
    expect(made.output()).toContain('Created admin chief@example.com');
    const row = await database
      .db('users')
      .where({ email: 'chief@example.com' })
      .first('role', 'email_verified');
    expect(row).toEqual({ role: 'admin', email_verified: true });
  });
});
