import { openBenchDatabase } from './scripts/bench/database.ts';
const b = await openBenchDatabase();
const { rows } = await b.db.raw(`SELECT calls, round((total_exec_time + total_plan_time)::numeric / greatest(calls,1), 3) AS ms_per_call, round(total_plan_time::numeric / greatest(calls,1), 3) AS plan_ms, round((total_exec_time + total_plan_time)::numeric, 0) AS total_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS q FROM pg_stat_statements WHERE calls >= 400 ORDER BY total_exec_time + total_plan_time DESC LIMIT 25`);
for (const r of rows) console.log(String(r.total_ms).padStart(6), String(r.ms_per_call).padStart(7), String(r.plan_ms).padStart(7), String(r.calls).padStart(6), r.q);
await b.stop();
