import '../server/production-by-default.ts';
import { rerenderPosts } from '../blog/rerender.ts';
import { loadConfigOrExit } from '../server/boot.ts';
import { runCommand } from './command.ts';

/** `npm run posts:rerender`: every post's HTML rendered again from its Markdown by the current renderer. */
await runCommand(loadConfigOrExit(), async (runtime, log) => {
  const changed = await rerenderPosts(runtime.services.db, runtime.services.uploads);
  log.info({ changed }, 'posts rendered again');
});
