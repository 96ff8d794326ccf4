import '../server/production-by-default.ts';
import { seedDemoContent } from '../demo/seed.ts';
import { bootstrapAdmin } from '../identity/admin.ts';
import { loadConfigOrExit } from '../server/boot.ts';
import { runCommand } from './command.ts';

/** `npm run db:seed`: seeds the demo content if it has not been seeded before. */
const config = loadConfigOrExit();
await runCommand(config, async (runtime, log) => {
  const admin = await bootstrapAdmin(runtime.services.db, config);
  const seeded = await seedDemoContent(runtime.services.db);
  log.info({ seeded }, seeded ? 'demo content seeded' : 'demo content was already there');
  if (admin?.generated) process.stdout.write(`Admin: ${admin.email} / ${admin.password}\n`);
});
