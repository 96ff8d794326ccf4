// Loaded with --import into a child process: at exit, prints every React build file the process
// ran (loaded entries of require.cache: the ESM loader also lists files it only pre-parsed).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
process.on('exit', () => {
  for (const [file, module] of Object.entries(require.cache))
    if (module?.loaded && /\/react(-dom)?\/cjs\/[^/]+\.(development|production)\.js$/.test(file))
      process.stderr.write(`react build: ${file}\n`);
});
