import '../server/production-by-default.ts';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { seedDemoContent } from '../demo/seed.ts';
import { bootstrapAdmin } from '../identity/admin.ts';
import { loadConfigOrExit, onShutdown, processLogger } from '../server/boot.ts';
import { listen } from '../server/http.ts';
import { startRuntime } from '../server/runtime.ts';
import { createApp } from './app.ts';

/**
 * The web process. With --with-worker (what `npm start` uses) the queue workers run in
 * the same process, which is how the embedded single-machine mode works.
 */
const withWorker = process.argv.includes('--with-worker');
const config = loadConfigOrExit();
const log = processLogger(config);

const runtime = await startRuntime(config, log, { role: 'site' });
const { services } = runtime;

const admin = await bootstrapAdmin(services.db, config);
if (config.seedDemo) {
  const seeded = await seedDemoContent(services.db);
  if (seeded) log.info('demo content seeded');
}
if (admin?.generated) {
  // Printed once, on the start that created the account; it is not stored anywhere readable.
  process.stdout.write(
    `\n  Admin account created\n    email:    ${admin.email}\n    password: ${admin.password}\n  Sign in at ${services.publicUrl}/login\n\n`,
  );
}

const { buildDir } = config;
const build = (await import(pathToFileURL(path.join(buildDir, 'server/index.js')).href)) as ServerBuild;
const app = createApp(services, { kind: 'build', buildDir, build });
const web = await listen(app, config.host, config.port);
// Imported only when wanted: a web process alone never loads the workers' libraries (sharp, …).
const workers = withWorker ? (await import('../../workers/index.ts')).startWorkers(services) : undefined;
log.info({ url: services.publicUrl, port: web.port, worker: withWorker }, 'Penstand is listening');

onShutdown(log, async () => {
  await web.close();
  await workers?.close();
  await runtime.close();
});
