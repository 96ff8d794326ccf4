import '../server/production-by-default.ts';
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { exportSite, uploadsBeside } from '../import/penstand.ts';
import { uploadsArchive } from '../import/uploads-archive.ts';
import { loadConfigOrExit } from '../server/boot.ts';
import { runCommand } from './command.ts';

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
await runCommand(loadConfigOrExit(), async (runtime) => {
  const document = await exportSite(runtime.services.db);
  await writeFile(file, `${JSON.stringify(document, null, 2)}\n`);
  await pipeline(uploadsArchive(runtime.services.uploads), createWriteStream(uploadsBeside(file)));
  process.stdout.write(
    `Exported ${document.posts.length} posts, ${document.products.length} products, ${document.subscribers.length} subscribers and ${document.orders.length} orders to ${file}, and the uploads to ${uploadsBeside(file)}\n`,
  );
});
