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

export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/**
 * Starts Debian's redis-server on a loopback port (a free one unless given); null when it is
 * not installed. durable: every write is appended to dir's AOF and fsynced before Redis
 * answers (appendfsync always), so a SIGKILLed server restarted on dir has every job.
 */
export async function startRedisServer(
  dir: string,
  opts: { port?: number; durable?: boolean } = {},
): Promise<{ url: string; port: number; stop: () => Promise<void>; kill: () => Promise<void> } | null> {
  if (!redisServerInstalled()) return null;
  const port = opts.port ?? (await freePort());
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
    ...(opts.durable ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
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
  const pid = async () => Number.parseInt(await readFile(pidFile, 'utf8').catch(() => ''), 10);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      const running = await pid();
      if (running) process.kill(running, 'SIGTERM');
    },
    /** SIGKILL, and returns once the process is gone. */
    async kill() {
      const running = await pid();
      if (!running) return;
      process.kill(running, 'SIGKILL');
      for (;;) {
        try {
          process.kill(running, 0);
        } catch {
          return;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
