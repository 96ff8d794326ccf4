import { z } from 'zod';
import {
  analyticsReport,
  lastDays,
  RANGE_PRESETS,
  type RangePreset,
  rangeSchema,
} from '../../analytics/report.ts';
import { backupOverview, backupsDir, lastBackupRun } from '../../backups/scheduled-backups.ts';
import { dashboard } from '../../blog/dashboard.ts';
import {
  COMMENT_STATUS_FILTERS,
  COMMENTS_PAGE_SIZE,
  commentCounts,
  listComments,
  listPendingComments,
} from '../../blog/moderation.ts';
import { listAdminPosts } from '../../blog/post-editor.ts';
import { listSubscribers, recentNewsletters, subscriberCounts } from '../../blog/subscribers.ts';
import {
  listMembers,
  memberFlows,
  memberHistory,
  memberSeries,
  memberTotals,
  signupSources,
} from '../../members/admin.ts';
import { downloadSettings } from '../../orders/downloads.ts';
import { sellerDetails } from '../../orders/invoices.ts';
import { listOrders } from '../../orders/lists.ts';
import { paymentSettings } from '../../orders/payment-settings.ts';
import { listAudit } from '../../server/audit.ts';
import type { AppServices } from '../../server/services.ts';
import { getBlogSettings } from '../../settings/settings.ts';
import { listCarriers } from '../../shop/carriers.ts';
import { discountsPage } from '../../shop/discounts.ts';
import { listProducts } from '../../shop/products.ts';
import { listShippingMethods } from '../../shop/shipping.ts';
import { listTaxRates, pricesIncludeTax, stripeTaxOn } from '../../shop/tax.ts';
import { listTiers } from '../../shop/tiers.ts';
import { MEMBER_FILTERS } from './MembersTab.tsx';
import { FULFILMENT_FILTERS, ORDER_STATUS_FILTERS, PAYMENT_STATUS_FILTERS } from './OrdersTab.tsx';
import { POST_FILTERS } from './PostsTab.tsx';
import { PRODUCT_FILTERS } from './ProductsTab.tsx';
import { SUBSCRIBER_FILTERS } from './SubscribersTab.tsx';
import type { AdminTab } from './tabs.ts';

/** Items on a page of every admin list (the page number past the last goes to the last: admin.tsx). */
const ADMIN_PAGE_SIZE = 25;
/** `?page=` of an admin list: a bad value is the first page. */
const pageParam = z.coerce.number().int().min(1).max(100_000).catch(1);

const postFilters = z.object({
  q: z.string().max(200).catch(''),
  status: z.enum(POST_FILTERS).catch('all'),
});
const commentFilters = z.object({
  view: z.enum(['pending', 'all']).catch('pending'),
  q: z.string().max(200).catch(''),
  status: z.enum(COMMENT_STATUS_FILTERS).catch('all'),
  page: pageParam,
});

async function postsTab(services: AppServices, params: URLSearchParams) {
  const filters = postFilters.parse({ q: params.get('q') ?? '', status: params.get('status') ?? 'all' });
  const { posts, pagination } = await listAdminPosts(services.db, {
    search: filters.q,
    status: filters.status,
    page: pageParam.parse(params.get('page') ?? 1),
    limit: ADMIN_PAGE_SIZE,
  });
  return { tab: 'posts' as const, filters, posts, pagination };
}

async function commentsTab(services: AppServices, params: URLSearchParams) {
  const filters = commentFilters.parse(Object.fromEntries(params));
  const counts = await commentCounts(services.db);
  if (filters.view === 'pending') {
    return {
      tab: 'comments' as const,
      filters,
      counts,
      comments: await listPendingComments(services.db, COMMENTS_PAGE_SIZE, filters.page),
      pagination: {
        page: filters.page,
        limit: COMMENTS_PAGE_SIZE,
        total: counts.pending,
        pages: Math.ceil(counts.pending / COMMENTS_PAGE_SIZE),
      },
    };
  }
  const { comments, pagination } = await listComments(services.db, {
    status: filters.status,
    search: filters.q,
    page: filters.page,
  });
  return { tab: 'comments' as const, filters, counts, comments, pagination };
}

const productFilters = z.object({
  q: z.string().max(200).catch(''),
  status: z.enum(PRODUCT_FILTERS).catch('all'),
});
const orderFilters = z.object({
  q: z.string().max(200).catch(''),
  status: z.enum(ORDER_STATUS_FILTERS).catch('all'),
  payment: z.enum(PAYMENT_STATUS_FILTERS).catch('all'),
  fulfilment: z.enum(FULFILMENT_FILTERS).catch('all'),
});

async function productsTab(services: AppServices, params: URLSearchParams) {
  const filters = productFilters.parse({ q: params.get('q') ?? '', status: params.get('status') ?? 'all' });
  const { products, pagination } = await listProducts(services.db, {
    search: filters.q,
    status: filters.status,
    page: pageParam.parse(params.get('page') ?? 1),
    limit: ADMIN_PAGE_SIZE,
  });
  return { tab: 'products' as const, filters, products, pagination };
}

async function ordersTab(services: AppServices, params: URLSearchParams) {
  const filters = orderFilters.parse({
    q: params.get('q') ?? '',
    status: params.get('status') ?? 'all',
    payment: params.get('payment') ?? 'all',
    fulfilment: params.get('fulfilment') ?? 'all',
  });
  const { orders, pagination } = await listOrders(services.db, {
    search: filters.q,
    status: filters.status,
    paymentStatus: filters.payment,
    fulfilment: filters.fulfilment,
    page: pageParam.parse(params.get('page') ?? 1),
    limit: ADMIN_PAGE_SIZE,
  });
  return { tab: 'orders' as const, filters, orders, pagination };
}

const memberFilters = z.object({
  q: z.string().trim().max(200).catch(''),
  status: z.enum(MEMBER_FILTERS).catch('all'),
});

async function membersTab(services: AppServices, params: URLSearchParams) {
  const filters = memberFilters.parse({ q: params.get('q') ?? '', status: params.get('status') ?? 'all' });
  const [list, tiers] = await Promise.all([
    listMembers(services.db, {
      q: filters.q || undefined,
      status: filters.status === 'all' ? undefined : filters.status,
      page: 1,
    }),
    listTiers(services.db),
  ]);
  // `?member=` opens one member's panel: their history and the complimentary membership form.
  const memberId = Number(params.get('member'));
  const member =
    Number.isInteger(memberId) && memberId > 0
      ? await memberHistory(services.db, memberId).then(
          (found) => ({ userId: memberId, ...found }),
          () => null,
        )
      : null;
  return { tab: 'members' as const, filters, tiers, member, ...list };
}

const subscriberFilters = z.object({
  q: z.string().max(200).catch(''),
  status: z.enum(SUBSCRIBER_FILTERS).catch('all'),
  page: pageParam,
});

async function subscribersTab(services: AppServices, params: URLSearchParams) {
  const filters = subscriberFilters.parse({
    q: params.get('q') ?? '',
    status: params.get('status') ?? 'all',
    page: params.get('page') ?? 1,
  });
  const [list, counts, newsletters] = await Promise.all([
    listSubscribers(services.db, { search: filters.q, status: filters.status, page: filters.page }),
    subscriberCounts(services.db),
    recentNewsletters(services.db),
  ]);
  return {
    tab: 'subscribers' as const,
    filters: { q: filters.q, status: filters.status },
    counts,
    newsletters,
    ...list,
  };
}

async function settingsTab(services: AppServices) {
  return {
    tab: 'settings' as const,
    settings: await getBlogSettings(services.db),
    payments: {
      ...(await paymentSettings(services.db, { cardPayments: Boolean(services.stripe) })),
      cardPayments: Boolean(services.stripe),
    },
    downloads: await downloadSettings(services.db),
    shippingMethods: await listShippingMethods(services.db),
    carriers: await listCarriers(services.db),
    tax: {
      rates: await listTaxRates(services.db),
      pricesIncludeTax: await pricesIncludeTax(services.db),
      stripeTax: await stripeTaxOn(services.db),
      cardPayments: Boolean(services.stripe),
      seller: await sellerDetails(services.db),
    },
    apiUrl: services.publicUrl,
    environment: services.config.env,
    backups: await backupOverview(services.config),
  };
}

async function analyticsTab(services: AppServices, params: URLSearchParams) {
  const named = RANGE_PRESETS.find((p) => p.id === params.get('range'));
  let preset: RangePreset | 'custom' = named?.id ?? '30d';
  let range = lastDays(named?.days ?? 30);
  let rangeError: string | null = null;
  if (params.get('range') === 'custom') {
    const custom = rangeSchema.safeParse({
      from: params.get('from') ?? undefined,
      to: params.get('to') ?? undefined,
    });
    if (custom.success) {
      preset = 'custom';
      range = custom.data;
    } else rangeError = custom.error.issues[0].message;
  }
  const [report, members, signups] = await Promise.all([
    analyticsReport(services.db, range),
    memberSeries(services.db, range),
    signupSources(services.db, range),
  ]);
  return { tab: 'analytics' as const, report, members, signups, preset, rangeError };
}

/** Only the active tab's data is loaded. */
export async function loadTab(
  services: AppServices,
  tab: AdminTab,
  params: URLSearchParams,
  analytics = true,
) {
  switch (tab) {
    case 'dashboard': {
      // The last 30 days' chart and top 5 posts beside the all-time figures; with analytics off,
      // the all-time figures alone.
      const [all, recent, members, flows] = await Promise.all([
        dashboard(services.db, services.config.currency),
        analytics ? analyticsReport(services.db, lastDays(30), 5) : null,
        memberTotals(services.db),
        memberFlows(services.db),
      ]);
      const popular = params.get('popular') === 'all' || !recent ? ('all' as const) : ('recent' as const);
      // The last run's record alone: the list of files (a stat each) is the Settings tab's.
      const lastBackup =
        services.config.backupIntervalMs > 0
          ? await lastBackupRun(backupsDir(services.config.dataDir))
          : null;
      return {
        tab,
        dashboard: all,
        recent,
        popular,
        lastBackup,
        members: { ...members, ...flows },
        mailDelivers: services.mailer.delivers,
      };
    }
    case 'analytics':
      return analyticsTab(services, params);
    case 'posts':
      return postsTab(services, params);
    case 'comments':
      return commentsTab(services, params);
    case 'products':
      return productsTab(services, params);
    case 'orders':
      return ordersTab(services, params);
    case 'discounts':
      return {
        tab,
        ...(await discountsPage(services.db, {
          page: pageParam.parse(params.get('page') ?? 1),
          limit: ADMIN_PAGE_SIZE,
        })),
      };
    case 'subscribers':
      return subscribersTab(services, params);
    case 'members':
      return membersTab(services, params);
    case 'activity': {
      const filters = {
        actor: (params.get('actor') ?? '').slice(0, 200),
        action: (params.get('action') ?? '').slice(0, 200),
      };
      const page = pageParam.parse(params.get('page') ?? 1);
      return { tab, filters, ...(await listAudit(services.db, { ...filters, page })) };
    }
    case 'settings':
      return settingsTab(services);
  }
}

export type TabData = Awaited<ReturnType<typeof loadTab>>;
