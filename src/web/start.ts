import { restartWithMallocTunables } from '../server/malloc-tunables.ts';

// The web process's entry (web-process.ts). Its malloc settings must be in the
// environment when the process starts, so it starts itself again with them first; the server is
// imported only then, since an import is loaded whole before any of it runs.
restartWithMallocTunables();
await import('./web-process.ts');
