import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What `npm run <name>` gives node: the process's V8 flags (its heap bounds) and its entry point,
 * so benches and tests start a process as it is run in production.
 */
export function scriptCommand(name: string): { nodeFlags: string[]; entry: string } {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
  const { scripts } = JSON.parse(readFileSync(file, 'utf8')) as { scripts: Record<string, string> };
  const [, ...args] = scripts[name].split(' ');
  return { nodeFlags: args.slice(0, -1), entry: args[args.length - 1] };
}

/** What `npm run start:web` gives node. */
export function startWebCommand(): { nodeFlags: string[]; entry: string } {
  return scriptCommand('start:web');
}
