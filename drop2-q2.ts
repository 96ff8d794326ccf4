import { openBenchDatabase } from './scripts/bench/database.ts';
const b = await openBenchDatabase();
await b.db.raw('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
await b.db.raw('SELECT pg_stat_statements_reset()');
await b.stop();
