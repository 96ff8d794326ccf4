/** The admin tabs, in order; the active one lives in the URL (?tab=). */
export const ADMIN_TABS = [
  { id: 'dashboard', label: 'Dashboard' },
  { id: 'analytics', label: 'Analytics' },
  { id: 'posts', label: 'Posts' },
  { id: 'products', label: 'Products' },
  { id: 'comments', label: 'Comments' },
  { id: 'orders', label: 'Orders' },
  { id: 'discounts', label: 'Discounts' },
  { id: 'subscribers', label: 'Subscribers' },
  { id: 'members', label: 'Members' },
  { id: 'activity', label: 'Activity' },
  { id: 'settings', label: 'Settings' },
] as const;

export type AdminTab = (typeof ADMIN_TABS)[number]['id'];

/** The tabs shown: the Analytics tab only while the 'Analytics' setting is on. */
export function adminTabs(analytics: boolean) {
  return analytics ? ADMIN_TABS : ADMIN_TABS.filter((t) => t.id !== 'analytics');
}

export function parseTab(value: string | null, analytics = true): AdminTab {
  return adminTabs(analytics).find((t) => t.id === value)?.id ?? 'dashboard';
}

/** Notices that survive the editor's redirect back to the admin page: fixed keys, never free text. */
export const ADMIN_NOTICES = {
  'post-created': 'Post created successfully',
  'post-updated': 'Post updated successfully',
  'product-created': 'Product created successfully',
  'product-updated': 'Product updated successfully',
} as const;

export type AdminNotice = keyof typeof ADMIN_NOTICES;

export function parseNotice(value: string | null): string | null {
  return value && value in ADMIN_NOTICES ? ADMIN_NOTICES[value as AdminNotice] : null;
}
