import '../server/production-by-default.ts';
import { writeFile } from 'node:fs/promises';
import { loadConfigOrExit, processLogger } from '../server/boot.ts';
import { startRuntime } from '../server/runtime.ts';
import { exportSite } from './penstand.ts';

/** `npm run export -- <file>`: the whole site as one versioned JSON document (README: Import and export). */
const [file, ...extra] = process.argv.slice(2);
if (!file || extra.length) {
  process.stderr.write('Usage: npm run export -- <file.json>\n');
  process.exit(2);
}
const config = loadConfigOrExit();
const log = processLogger(config);
const runtime = await startRuntime(config, log);
try {
  const document = await exportSite(runtime.services.db);
  await writeFile(file, `${JSON.stringify(document, null, 2)}\n`);
  process.stdout.write(
    `Exported ${document.posts.length} posts, ${document.products.length} products, ${document.subscribers.length} subscribers and ${document.orders.length} orders to ${file}\n`,
  );
} finally {
  await runtime.close();
}
