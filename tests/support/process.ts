import { type ChildProcess, spawn } from 'node:child_process';

export type RunningProcess = {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the first JSON log line whose msg matches. */
  waitForLog: (msg: string, timeoutMs?: number) => Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
};

/** Starts a Penstand entry point (e.g. src/server/start.ts) as its own Node 24 process. */
export function startProcess(entry: string, args: string[], env: Record<string, string>): RunningProcess {
  const child = spawn(process.execPath, [entry, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/root',
      BUILD_DIR: process.env.BUILD_DIR ?? 'build',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    async waitForLog(msg, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        for (const line of out.split('\n')) {
          if (!line.startsWith('{')) continue;
          const entry = JSON.parse(line) as Record<string, unknown>;
          if (entry.msg === msg) return entry;
        }
        if (child.exitCode !== null)
          throw new Error(`process exited (${child.exitCode}) before "${msg}":\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no "${msg}" within ${timeoutMs} ms:\n${out}`);
    },
  };
}
