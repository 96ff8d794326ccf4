// `npm run knex -- <command>`: the knex CLI with knexfile.ts. Node runs TypeScript itself; marking
// .ts as loadable stops the CLI from hunting for ts-node and the like (and printing each miss).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
require.extensions['.ts'] ??= require.extensions['.js'];
process.argv.push('--knexfile', 'knexfile.ts');
require('knex/bin/cli.js');
