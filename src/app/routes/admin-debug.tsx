import { adminTestStats } from '../../blog/dashboard.ts';
import { listAdminPosts } from '../../blog/post-editor.ts';
import { STOCK_COLUMN_SQL } from '../../shop/stock.ts';
import { requireAdminUser } from '../admin/guard.server.ts';
import { getApp } from '../context.ts';
import '../styles/admin.css';
import type { Route } from './+types/admin-debug';

export const meta: Route.MetaFunction = () => [
  { title: 'Admin Debug — Penstand' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

type Check = { name: string; ok: boolean; body: string };

async function check(name: string, fn: () => Promise<unknown>): Promise<Check> {
  try {
    return { name, ok: true, body: JSON.stringify(await fn(), null, 2) };
  } catch (error) {
    return { name, ok: false, body: (error as Error).message || 'failed' };
  }
}

/** Diagnostics: what the admin-test, posts and products services answer right now. */
export async function loader({ context, request }: Route.LoaderArgs) {
  requireAdminUser(context, request);
  const { db } = getApp(context).services;
  const checks = await Promise.all([
    check('admin-test', () => adminTestStats(db)),
    check('posts', async () => ({ posts: (await listAdminPosts(db, { limit: 5 })).posts })),
    check('products', async () => ({
      products: await db('products as p')
        .select('id', 'name', 'price', db.raw(`${STOCK_COLUMN_SQL} AS stock`), 'status')
        .orderBy('id', 'desc')
        .limit(5),
    })),
  ]);
  return { checks };
}

export default function AdminDebug({ loaderData }: Route.ComponentProps) {
  const failures = loaderData.checks.filter((c) => !c.ok);
  return (
    <div className="container admin">
      <h1>Admin Debug</h1>
      <section className="card" aria-labelledby="failures">
        <h2 id="failures">Failures</h2>
        {failures.length === 0 ? (
          <p>None: every check answered.</p>
        ) : (
          <ul>
            {failures.map((f) => (
              <li key={f.name}>
                {f.name}: {f.body}
              </li>
            ))}
          </ul>
        )}
      </section>
      {loaderData.checks.map((c) => (
        <section key={c.name} className="card admin-debug-check" aria-labelledby={`check-${c.name}`}>
          <h2 id={`check-${c.name}`}>
            {c.name}{' '}
            <span className={c.ok ? 'badge badge-published' : 'badge badge-destructive'}>
              {c.ok ? 'OK' : 'Failed'}
            </span>
          </h2>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
          <pre tabIndex={0}>{c.body}</pre>
        </section>
      ))}
    </div>
  );
}
