import { isRouteErrorResponse, useSearchParams } from 'react-router';
import { MODERATION_MESSAGES } from '../../blog/comment-moderation-messages.ts';
import { ActivityTab } from '../admin/ActivityTab.tsx';
import { AdminTabs, panelId, tabId } from '../admin/AdminTabs.tsx';
import { AnalyticsTab } from '../admin/AnalyticsTab.tsx';
import { runAdminAction } from '../admin/admin-actions.server.ts';
import { loadTab } from '../admin/admin-data.server.ts';
import { BackupOutcome, BackupsCard } from '../admin/Backups.tsx';
import { CommentsTab } from '../admin/CommentsTab.tsx';
import { DashboardTab } from '../admin/DashboardTab.tsx';
import { DiscountsTab } from '../admin/DiscountsTab.tsx';
import { requireAdminUser } from '../admin/guard.server.ts';
import { MembersTab } from '../admin/MembersTab.tsx';
import { Notice } from '../admin/Notice.tsx';
import { OrdersTab } from '../admin/OrdersTab.tsx';
import { PostsTab } from '../admin/PostsTab.tsx';
import { ProductsTab } from '../admin/ProductsTab.tsx';
import { SettingsTab } from '../admin/SettingsTab.tsx';
import { SubscribersTab } from '../admin/SubscribersTab.tsx';
import { ADMIN_TABS, parseNotice, parseTab } from '../admin/tabs.ts';
import { getApp } from '../context.ts';
import { redirectPastLastPage } from '../pagination.server.ts';
import '../styles/admin.css';
import type { Route } from './+types/admin';

export const meta: Route.MetaFunction = () => [
  { title: 'Admin — Penstand' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

export async function loader({ context, request }: Route.LoaderArgs) {
  requireAdminUser(context, request);
  const { services, state } = getApp(context);
  const url = new URL(request.url);
  const params = url.searchParams;
  const analytics = await services.analytics.isOn();
  const tab = parseTab(params.get('tab'), analytics);
  try {
    const data = await loadTab(services, tab, params, analytics);
    if ('pagination' in data && data.pagination) redirectPastLastPage(request, data.pagination);
    return { tab, analytics, data, loadError: null };
  } catch (err) {
    if (err instanceof Response) throw err;
    state.log.error({ err, tab }, 'admin tab failed to load');
    return {
      tab,
      analytics,
      data: null,
      loadError: { message: loadFailure(tab, params), retry: url.pathname + url.search },
    };
  }
}

/** SPEC §8's words for a Comments tab that failed to load; the other tabs say which part failed. */
function loadFailure(tab: string, params: URLSearchParams): string {
  if (tab !== 'comments') return 'Failed to load this section.';
  return params.get('view') === 'all'
    ? MODERATION_MESSAGES.loadFailed
    : MODERATION_MESSAGES.loadPendingFailed;
}

export async function action({ context, request }: Route.ActionArgs) {
  requireAdminUser(context, request);
  const { services, state } = getApp(context);
  return runAdminAction(services, state, await request.formData());
}

function TabContent({ loaderData, actionData }: Pick<Route.ComponentProps, 'loaderData' | 'actionData'>) {
  const { data, loadError } = loaderData;
  if (loadError || !data) {
    return (
      <div className="empty-state" role="alert">
        <p>{loadError?.message ?? 'Failed to load this section.'}</p>
        <a className="button" href={loadError?.retry ?? '/admin'}>
          Try Again
        </a>
      </div>
    );
  }
  switch (data.tab) {
    case 'dashboard':
      return (
        <div className="admin-stack">
          {/* A failed backup is a warning at the top; the last good one a line at the end. */}
          {data.lastBackup?.ok === false && <BackupOutcome last={data.lastBackup} />}
          <DashboardTab
            dashboard={data.dashboard}
            recent={data.recent}
            popular={data.popular}
            members={data.members}
            mailDelivers={data.mailDelivers}
          />
          {data.lastBackup?.ok && <BackupOutcome last={data.lastBackup} />}
        </div>
      );
    case 'analytics':
      return (
        <AnalyticsTab
          report={data.report}
          members={data.members}
          signups={data.signups}
          preset={data.preset}
          rangeError={data.rangeError}
        />
      );
    case 'posts':
      return <PostsTab posts={data.posts} filters={data.filters} pagination={data.pagination} />;
    case 'products':
      return <ProductsTab products={data.products} filters={data.filters} pagination={data.pagination} />;
    case 'orders':
      return <OrdersTab orders={data.orders} filters={data.filters} pagination={data.pagination} />;
    case 'discounts':
      return (
        <DiscountsTab
          discounts={data.discounts}
          pagination={data.pagination}
          fieldErrors={actionData && !actionData.ok ? actionData.fieldErrors : undefined}
          values={actionData && !actionData.ok ? actionData.values : undefined}
        />
      );
    case 'comments':
      return (
        <CommentsTab
          counts={data.counts}
          comments={data.comments}
          pagination={data.pagination}
          filters={data.filters}
        />
      );
    case 'activity':
      return <ActivityTab entries={data.entries} filters={data.filters} pagination={data.pagination} />;
    case 'members':
      return (
        <MembersTab
          members={data.members}
          totals={data.totals}
          tiers={data.tiers}
          filters={data.filters}
          member={data.member}
          refused={actionData && !actionData.ok ? actionData : undefined}
        />
      );
    case 'subscribers':
      return (
        <SubscribersTab
          subscribers={data.subscribers}
          counts={data.counts}
          newsletters={data.newsletters}
          filters={data.filters}
          pagination={data.pagination}
        />
      );
    case 'settings':
      return (
        <div className="admin-stack">
          <SettingsTab
            settings={data.settings}
            payments={data.payments}
            downloads={data.downloads}
            shippingMethods={data.shippingMethods}
            carriers={data.carriers}
            tax={data.tax}
            apiUrl={data.apiUrl}
            environment={data.environment}
            fieldErrors={actionData && !actionData.ok ? actionData.fieldErrors : undefined}
          />
          <BackupsCard backups={data.backups} />
        </div>
      );
  }
}

export default function Admin({ loaderData, actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const notice = parseNotice(params.get('notice'));
  const label = ADMIN_TABS.find((t) => t.id === loaderData.tab)?.label;
  return (
    <div className="container admin">
      <h1>Admin</h1>
      <Notice result={actionData ?? (notice ? { ok: true, title: notice } : null)} />
      <AdminTabs active={loaderData.tab} analytics={loaderData.analytics} />
      <section id={panelId} role="tabpanel" aria-labelledby={tabId(loaderData.tab)} className="admin-panel">
        <h2 className="visually-hidden">{label}</h2>
        <TabContent loaderData={loaderData} actionData={actionData} />
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const forbidden = isRouteErrorResponse(error) && error.status === 403;
  return (
    <section className="container error-page">
      <h1>{forbidden ? '403 Forbidden' : 'Something went wrong'}</h1>
      <p>
        {forbidden
          ? 'You need an administrator account to open the admin area.'
          : 'The admin area could not be shown. Please try again.'}
      </p>
      <a className="button" href="/">
        Back to home
      </a>
    </section>
  );
}
