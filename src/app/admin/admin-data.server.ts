import { z } from 'zod';
import { dashboard } from '../../blog/dashboard.ts';
import { commentCounts, listComments, listPendingComments } from '../../blog/moderation.ts';
import { listAdminPosts } from '../../blog/post-editor.ts';
import { getBlogSettings } from '../../blog/settings.ts';
import type { AppServices } from '../../server/services.ts';
import type { AdminTab } from './tabs.ts';

const postFilters = z.object({
  q: z.string().max(200).catch(''),
  status: z.enum(['all', 'published', 'draft', 'scheduled']).catch('all'),
});
const commentFilters = z.object({
  view: z.enum(['pending', 'all']).catch('pending'),
  q: z.string().max(200).catch(''),
  status: z.enum(['all', 'approved', 'pending']).catch('all'),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

async function postsTab(services: AppServices, params: URLSearchParams) {
  const filters = postFilters.parse({ q: params.get('q') ?? '', status: params.get('status') ?? 'all' });
  const posts = await listAdminPosts(services.db, { search: filters.q, status: filters.status });
  return { tab: 'posts' as const, filters, posts };
}

async function commentsTab(services: AppServices, params: URLSearchParams) {
  const filters = commentFilters.parse(Object.fromEntries(params));
  const counts = await commentCounts(services.db);
  if (filters.view === 'pending') {
    return {
      tab: 'comments' as const,
      filters,
      counts,
      comments: await listPendingComments(services.db),
      pagination: null,
    };
  }
  const { comments, pagination } = await listComments(services.db, {
    status: filters.status,
    search: filters.q,
    page: filters.page,
  });
  return { tab: 'comments' as const, filters, counts, comments, pagination };
}

async function settingsTab(services: AppServices) {
  return {
    tab: 'settings' as const,
    settings: await getBlogSettings(services.db),
    apiUrl: services.publicUrl,
    environment: services.config.env,
  };
}

/** Only the active tab's data is loaded. */
export async function loadTab(services: AppServices, tab: AdminTab, params: URLSearchParams) {
  switch (tab) {
    case 'dashboard':
      return { tab, dashboard: await dashboard(services.db) };
    case 'posts':
      return postsTab(services, params);
    case 'comments':
      return commentsTab(services, params);
    case 'settings':
      return settingsTab(services);
    default:
      return { tab };
  }
}

export type TabData = Awaited<ReturnType<typeof loadTab>>;
