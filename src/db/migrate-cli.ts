import '../server/production-by-default.ts';
import { loadConfigOrExit, processLogger } from '../server/boot.ts';
import { startRuntime } from '../server/runtime.ts';

/** `npm run db:migrate`: applies pending migrations (start-up does this too) and exits. */
const config = loadConfigOrExit();
const runtime = await startRuntime(config, processLogger(config));
await runtime.close();
