import '../server/production-by-default.ts';
import { loadConfigOrExit, processLogger } from '../server/boot.ts';
import { startRuntime } from '../server/runtime.ts';
import { rerenderPosts } from './rerender.ts';

/** `npm run posts:rerender`: every post's HTML rendered again from its Markdown by the current renderer. */
const config = loadConfigOrExit();
const log = processLogger(config);
const runtime = await startRuntime(config, log);
try {
  const changed = await rerenderPosts(runtime.services.db, runtime.services.uploads);
  log.info({ changed }, 'posts rendered again');
} finally {
  await runtime.close();
}
