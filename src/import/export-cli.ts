import '../server/production-by-default.ts';
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { loadConfigOrExit, processLogger } from '../server/boot.ts';
import { startRuntime } from '../server/runtime.ts';
import { exportSite, uploadsBeside } from './penstand.ts';
import { uploadsArchive } from './uploads-archive.ts';

/**
 * `npm run export -- <file>`: the whole site as one versioned JSON document, and its uploads as a
 * gzipped tar beside it (`<file>.uploads.tar.gz`, what `npm run import` puts back; docs/writers-guide.md:
 * Import and export).
 */
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
  await pipeline(uploadsArchive(runtime.services.uploads), createWriteStream(uploadsBeside(file)));
  process.stdout.write(
    `Exported ${document.posts.length} posts, ${document.products.length} products, ${document.subscribers.length} subscribers and ${document.orders.length} orders to ${file}, and the uploads to ${uploadsBeside(file)}\n`,
  );
} finally {
  await runtime.close();
}
