import '../server/production-by-default.ts';
import { bootstrapAdmin } from '../identity/admin.ts';
import { loadConfigOrExit, processLogger } from '../server/boot.ts';
import { startRuntime } from '../server/runtime.ts';
import { seedDemoContent } from './seed.ts';

/** `npm run db:seed`: seeds the demo content if it has not been seeded before. */
const config = loadConfigOrExit();
const log = processLogger(config);
const runtime = await startRuntime(config, log);
const admin = await bootstrapAdmin(runtime.services.db, config);
const seeded = await seedDemoContent(runtime.services.db);
log.info({ seeded }, seeded ? 'demo content seeded' : 'demo content was already there');
if (admin?.generated) process.stdout.write(`Admin: ${admin.email} / ${admin.password}\n`);
await runtime.close();
