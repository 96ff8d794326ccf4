import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What `npm run start:web` gives node: the web process's V8 flags (its heap bounds) and its entry
 * point, so the bench and the process tests start the web process as it is deployed.
 */
export function startWebCommand(): { nodeFlags: string[]; entry: string } {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
  const { scripts } = JSON.parse(readFileSync(file, 'utf8')) as { scripts: Record<string, string> };
  const [, ...args] = scripts['start:web'].split(' ');
  return { nodeFlags: args.slice(0, -1), entry: args[args.length - 1] };
}
