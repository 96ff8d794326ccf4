import type { Db } from '../db/knex.ts';
import type { BlogSettingsInput } from './settings-schema.ts';

export type SocialLinks = { youtube?: string; github?: string; twitter?: string; linkedin?: string };

/** The social networks of the settings, by their names, in the order they are shown. */
export const SOCIAL_LABELS: Record<keyof SocialLinks, string> = {
  youtube: 'YouTube',
  github: 'GitHub',
  twitter: 'Twitter',
  linkedin: 'LinkedIn',
};

/** The networks the settings link to, with their names. */
export function socialLinkList(links: SocialLinks): { key: keyof SocialLinks; label: string; url: string }[] {
  return (Object.keys(SOCIAL_LABELS) as (keyof SocialLinks)[]).flatMap((key) => {
    const url = links[key];
    return url ? [{ key, label: SOCIAL_LABELS[key], url }] : [];
  });
}

export type BlogSettings = {
  title: string;
  description: string;
  authorName: string;
  authorBio: string;
  authorProfileImage: string | null;
  /** The home page's short line under the title; null shows none. */
  homeHeadline: string | null;
  /** The shop's shipping and returns notes on every product page; null shows none. */
  shippingNote: string | null;
  returnsNote: string | null;
  socialLinks: SocialLinks;
  /** Where the About page's 'Get In Touch' writes to; null hides it. */
  contactEmail: string | null;
  shopRequiresSignIn: boolean;
  /** 'Require two-factor for admins': the admin opens only to admins with a second factor. */
  requireAdminTwoFactor: boolean;
  /** 'Analytics': collect referrers, devices, visitors and funnels, and show the Analytics tab. */
  analytics: boolean;
};

export const DEFAULT_SETTINGS: BlogSettings = {
  title: 'Penstand',
  description: 'Stories from professional life and beyond.',
  authorName: 'The Author',
  authorBio: 'Writer, builder and occasional podcaster. This is where I share what I learn along the way.',
  authorProfileImage: null,
  homeHeadline: null,
  shippingNote: null,
  returnsNote: null,
  socialLinks: {},
  contactEmail: null,
  shopRequiresSignIn: false,
  requireAdminTwoFactor: false,
  analytics: true,
};

/**
 * The 'Analytics' setting inside a statement, so that a write it guards (an add-to-cart, an
 * order's source) costs no extra round trip.
 */
export const ANALYTICS_ON_SQL = `coalesce((SELECT analytics FROM blog_settings WHERE id = 1), ${DEFAULT_SETTINGS.analytics})`;

/** The blog settings row, with the defaults for anything not set yet. */
export async function getBlogSettings(db: Db): Promise<BlogSettings> {
  const row = await db('blog_settings').where({ id: 1 }).first();
  if (!row) return DEFAULT_SETTINGS;
  return {
    title: row.title || DEFAULT_SETTINGS.title,
    description: row.description || DEFAULT_SETTINGS.description,
    authorName: row.author_name || DEFAULT_SETTINGS.authorName,
    authorBio: row.author_bio || DEFAULT_SETTINGS.authorBio,
    authorProfileImage: row.author_profile_image || null,
    homeHeadline: row.home_headline || null,
    shippingNote: row.shipping_note || null,
    returnsNote: row.returns_note || null,
    socialLinks: pickSocialLinks(row.social_links),
    contactEmail: row.contact_email || null,
    shopRequiresSignIn: row.shop_requires_sign_in,
    requireAdminTwoFactor: row.require_admin_two_factor,
    analytics: row.analytics,
  };
}

function pickSocialLinks(value: unknown): SocialLinks {
  const links: SocialLinks = {};
  if (!value || typeof value !== 'object') return links;
  for (const key of ['youtube', 'github', 'twitter', 'linkedin'] as const) {
    const url = (value as Record<string, unknown>)[key];
    if (typeof url === 'string' && /^https?:\/\//.test(url)) links[key] = url;
  }
  return links;
}

/** Saves the single settings row; empty social links are not stored. */
export async function updateBlogSettings(db: Db, input: BlogSettingsInput): Promise<BlogSettings> {
  const socialLinks = Object.fromEntries(Object.entries(input.socialLinks).filter(([, url]) => url !== ''));
  const row = {
    title: input.title,
    description: input.description,
    author_name: input.authorName,
    author_bio: input.authorBio,
    author_profile_image: input.authorProfileImage,
    home_headline: input.homeHeadline,
    shipping_note: input.shippingNote,
    returns_note: input.returnsNote,
    social_links: JSON.stringify(socialLinks),
    contact_email: input.contactEmail,
    shop_requires_sign_in: input.shopRequiresSignIn,
    ...(input.requireAdminTwoFactor === undefined
      ? {}
      : { require_admin_two_factor: input.requireAdminTwoFactor }),
    ...(input.analytics === undefined ? {} : { analytics: input.analytics }),
    updated_at: db.fn.now(),
  };
  await db('blog_settings')
    .insert({ id: 1, ...row })
    .onConflict('id')
    .merge();
  return getBlogSettings(db);
}

/** Writes some of the shop's columns of the settings row, which may not exist yet. */
export async function updateShopSettings(db: Db, row: Record<string, unknown>): Promise<void> {
  // Without a row, its other columns take the blog's defaults.
  const updated = await db('blog_settings')
    .where({ id: 1 })
    .update({ ...row, updated_at: db.fn.now() });
  if (updated === 0) {
    await db('blog_settings')
      .insert({
        id: 1,
        title: DEFAULT_SETTINGS.title,
        description: DEFAULT_SETTINGS.description,
        author_name: DEFAULT_SETTINGS.authorName,
        author_bio: DEFAULT_SETTINGS.authorBio,
        ...row,
      })
      .onConflict('id')
      .merge(row);
  }
}
