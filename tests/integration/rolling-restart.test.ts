import autocannon from 'autocannon';
import { afterAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { startLoadBalancer } from '../support/load-balancer.ts';
import { type RunningProcess, startProcess } from '../support/process.ts';
import { freePort } from '../support/redis-server.ts';

let database: TestDatabase;
const running: RunningProcess[] = [];
afterAll(async () => {
  for (const proc of running) if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
  await database?.drop();
});

it('restarts two web processes one after the other under load without losing a request', async () => {
  database = await createTestDatabase();
  const ports = [await freePort(), await freePort()];
  const start = async (port: number) => {
    const proc = startProcess('src/web/start.ts', [], {
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      PAGE_CACHE_TTL_SECONDS: '0',
      LOG_LEVEL: 'warn',
    });
    running.push(proc);
    // Ready when it answers its health check.
    for (let i = 0; i < 300; i++) {
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return proc;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`web process on ${port} did not start:\n${proc.output()}`);
  };
  const web = [await start(ports[0]), await start(ports[1])];
  const lb = await startLoadBalancer(ports);
  try {
    const load = autocannon({
      url: lb.url,
      connections: 16,
      duration: 12,
      requests: [
        { method: 'GET', path: '/' },
        { method: 'GET', path: '/api/health' },
      ],
    });
    await new Promise((r) => setTimeout(r, 2_000));
    for (const i of [0, 1]) {
      web[i].child.kill('SIGTERM');
      expect(await web[i].exited).toBe(0);
      web[i] = await start(ports[i]);
      await new Promise((r) => setTimeout(r, 1_000));
    }
    const result = await load;
    expect(result.requests.total).toBeGreaterThan(100);
    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);
  } finally {
    await lb.close();
    for (const proc of web) proc.child.kill('SIGTERM');
    await Promise.all(web.map((p) => p.exited));
  }
}, 120_000); // the load phase alone is 12 s; four process starts on a busy 2-core machine add more
