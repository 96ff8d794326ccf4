import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
// A newcomer's shell: the system's npm and Node, not the project's Node 24 that npm scripts put
// first, and none of the npm_* settings `npm test` hands its children.
const shell = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
  PATH: (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => !dir.includes('node_modules'))
    .join(delimiter),
};
const systemNode = await run('node', ['--version'], { env: shell }).then(
  (r) => Number(/^v(\d+)/.exec(r.stdout)?.[1]),
  () => 0,
);

/** What `npm ci` prints in a copy of the project (offline, nothing installed: the lock file is read). */
async function npmCiOutput(files: string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'penstand-install-'));
  try {
    for (const file of files) await copyFile(join(root, file), join(dir, file));
    const { stdout, stderr } = await run('npm', ['ci', '--dry-run', '--ignore-scripts', '--offline'], {
      cwd: dir,
      env: shell,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout + stderr;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('npm ci on a machine whose Node is older than the project’s', () => {
  it.skipIf(!systemNode || systemNode >= 24)(
    'prints no EBADENGINE warnings, and still its summary',
    {
      timeout: 120_000,
    },
    async () => {
      // Without the project's .npmrc the warnings are there: this machine does show them.
      expect(await npmCiOutput(['package.json', 'package-lock.json'])).toContain('EBADENGINE');
      const output = await npmCiOutput(['package.json', 'package-lock.json', '.npmrc']);
      expect(output).not.toContain('EBADENGINE');
      expect(output).toMatch(/added \d+ packages/);
    },
  );
});
