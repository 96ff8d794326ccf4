import { openBenchDatabase } from './scripts/bench/database.ts';
const b = await openBenchDatabase();
await b.db.raw("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'");
await b.db.raw("ALTER SYSTEM SET pg_stat_statements.track_planning = on");
await b.stop();
