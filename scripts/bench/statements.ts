import type { Db } from '../../src/db/knex.ts';

/**
 * Where the benchmark PostgreSQL's time goes, per statement and per trigger function
 * (`--statements` of `npm run bench` and `npm run bench:orders`): the cluster then starts with
 * these settings, and the breakdown covers every process's statements between a reset and a
 * report (the web process's, the worker's, and those that triggers and functions run).
 */
export const STATEMENT_SETTINGS = {
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.track': 'all',
  'pg_stat_statements.track_planning': 'on',
  track_functions: 'all',
};

/** Clears what the cluster counted so far (statements cluster-wide, functions of this database). */
export async function resetStatementStats(db: Db): Promise<void> {
  await db.raw('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await db.raw('SELECT pg_stat_statements_reset()');
  await db.raw('SELECT pg_stat_reset()');
}

type StatementRow = {
  query: string;
  toplevel: boolean;
  calls: string;
  exec_ms: number;
  plan_ms: number;
  rows: string;
};
type FunctionRow = { funcname: string; calls: string; total_ms: number; self_ms: number };

// A backend sends its function counts at most once a second, and an idle one within 10 s.
const FUNCTION_STATS_DELAY_MS = 11_000;

/**
 * The statements by time (execution and planning), then the trigger functions, per order:
 * calls, ms, mean ms per call and rows per call. A nested statement (run by a trigger or a
 * function; its time is also in the statement that fired it) is marked `↳`.
 */
export async function statementReport(db: Db, orders: number, top = 25): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, FUNCTION_STATS_DELAY_MS));
  const { rows: statements } = await db.raw<{ rows: StatementRow[] }>(
    `SELECT query, toplevel, calls, total_exec_time AS exec_ms, total_plan_time AS plan_ms, rows
     FROM pg_stat_statements
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND query NOT LIKE '%pg_stat%'
     ORDER BY total_exec_time + total_plan_time DESC`,
  );
  const { rows: functions } = await db.raw<{ rows: FunctionRow[] }>(
    `SELECT funcname, calls, total_time AS total_ms, self_time AS self_ms
     FROM pg_stat_user_functions ORDER BY total_time DESC`,
  );
  const perOrder = (n: number) => (n / Math.max(orders, 1)).toFixed(3);
  const toplevel = statements.filter((s) => s.toplevel);
  const sum = (f: (s: StatementRow) => number) => toplevel.reduce((n, s) => n + f(s), 0);
  const lines = [
    `PostgreSQL per order (${orders} orders): ${perOrder(sum((s) => Number(s.calls)))} top-level statements, ` +
      `${perOrder(sum((s) => s.exec_ms))} ms executing, ${perOrder(sum((s) => s.plan_ms))} ms planning`,
    `${'calls'.padStart(7)}${'exec ms'.padStart(9)}${'plan ms'.padStart(9)}${'mean ms'.padStart(9)}${'rows'.padStart(7)}  statement (per order; mean and rows per call)`,
    ...statements.slice(0, top).map((s) => {
      const calls = Number(s.calls);
      const text = s.query.replace(/\s+/g, ' ').slice(0, 110);
      return `${perOrder(calls).padStart(7)}${perOrder(s.exec_ms).padStart(9)}${perOrder(s.plan_ms).padStart(9)}${(s.exec_ms / Math.max(calls, 1)).toFixed(3).padStart(9)}${(Number(s.rows) / Math.max(calls, 1)).toFixed(1).padStart(7)}  ${s.toplevel ? '' : '↳ '}${text}`;
    }),
    `functions (triggers included): ${'calls'.padStart(7)}${'total ms'.padStart(9)}${'self ms'.padStart(9)} (per order)`,
    ...functions.map(
      (f) =>
        `  ${f.funcname.padEnd(29)}${perOrder(Number(f.calls)).padStart(7)}${perOrder(f.total_ms).padStart(9)}${perOrder(f.self_ms).padStart(9)}`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
