import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts Debian's redis-server on a free loopback port; null when it is not installed. */
export async function startRedisServer(
  dir: string,
): Promise<{ url: string; port: number; stop: () => Promise<void> } | null> {
  if (spawnSync('redis-server', ['--version']).status !== 0) return null;
  const port = await freePort();
  const pidFile = path.join(dir, `redis-${port}.pid`);
  const started = spawnSync('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--daemonize',
    'yes',
    '--pidfile',
    pidFile,
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
  ]);
  if (started.status !== 0) throw new Error(`redis-server failed: ${started.stderr}`);
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    if (
      spawnSync('redis-cli', ['-p', String(port), 'ping'])
        .stdout?.toString()
        .trim() === 'PONG'
    )
      break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      const pid = Number.parseInt(await readFile(pidFile, 'utf8').catch(() => ''), 10);
      if (pid) process.kill(pid, 'SIGTERM');
    },
  };
}
