import '../server/production-by-default.ts';
import { loadConfigOrExit } from '../server/boot.ts';
import { runCommand } from './command.ts';

/** `npm run db:migrate`: applies pending migrations (start-up does this too) and exits. */
await runCommand(loadConfigOrExit(), async () => {});
