import type { Db } from '../db/knex.ts';
import { formatPrice } from '../shop/price.ts';
import { lowStockProducts, orderStats, productStats } from '../shop/stats.ts';
import { pendingCommentCount, popularPosts, postStats, userCount, viewsByCategory } from './stats.ts';
import { recentNewsletters, subscriberGrowth } from './subscribers.ts';

/** SPEC §3 'Dashboard response', from plain queries on the areas' tables. */
export type DashboardData = {
  stats: {
    posts: { total: number; published: number; drafts: number };
    products: { total: number; active: number; inactive: number };
    /** refundNeeded: paid after they ended, with their items gone (the money must go back). */
    orders: { total: number; pending: number; refundNeeded: number };
    revenue: { cents: number; formatted: string };
    users: { total: number };
    comments: { pending: number };
    /** Confirmed subscribers, and how many of them confirmed in the last 30 days. */
    subscribers: { confirmed: number; last30Days: number };
  };
  recentActivity: {
    popularPosts: { id: number; title: string; viewCount: number }[];
    lowStockProducts: { id: number; name: string; price: number; stock: number }[];
    /** The latest posts sent by email, with their counts. */
    newsletters: Awaited<ReturnType<typeof recentNewsletters>>;
  };
};

/** currency: the shop's (CURRENCY), in which the revenue is shown. */
export async function dashboardStats(db: Db, currency: string): Promise<DashboardData['stats']> {
  const [posts, products, orders, users, pending, subscribers] = await Promise.all([
    postStats(db),
    productStats(db),
    orderStats(db),
    userCount(db),
    pendingCommentCount(db),
    subscriberGrowth(db),
  ]);
  return {
    posts: { total: posts.total, published: posts.published, drafts: posts.drafts },
    products,
    orders: { total: orders.total, pending: orders.pending, refundNeeded: orders.refundNeeded },
    revenue: { cents: orders.revenueCents, formatted: formatPrice(orders.revenueCents, currency) },
    users: { total: users },
    comments: { pending },
    subscribers,
  };
}

export async function recentActivity(db: Db): Promise<DashboardData['recentActivity']> {
  const [popular, lowStock, newsletters] = await Promise.all([
    popularPosts(db),
    lowStockProducts(db),
    recentNewsletters(db, 5),
  ]);
  return { popularPosts: popular, lowStockProducts: lowStock, newsletters };
}

export async function dashboard(db: Db, currency: string): Promise<DashboardData> {
  const [stats, activity] = await Promise.all([dashboardStats(db, currency), recentActivity(db)]);
  return { stats, recentActivity: activity };
}

export async function analytics(
  db: Db,
): Promise<{ viewsByCategory: Awaited<ReturnType<typeof viewsByCategory>> }> {
  return { viewsByCategory: await viewsByCategory(db) };
}

/** The older admin-test shape: stats.posts, stats.products, stats.comments. */
export async function adminTestStats(db: Db) {
  const [posts, products, pending] = await Promise.all([
    postStats(db),
    productStats(db),
    pendingCommentCount(db),
  ]);
  return {
    stats: {
      posts: { total: posts.total, published: posts.published },
      products: { total: products.total, active: products.active },
      comments: { pending },
    },
  };
}
