import { isMediaReference } from '../media/media-reference.ts';
import { z } from '../zod.ts';
import { POST_MESSAGES } from './post-messages.ts';
import { extractYouTubeId, isYouTubeId } from './youtube.ts';

/**
 * The editor's categories: the union of the home filter's and the editor's lists in the
 * specification (DESIGN decision 8).
 */
export const POST_CATEGORIES = [
  'Technology',
  'Design',
  'Tutorial',
  'Life',
  'Podcasts',
  'Travel',
  'Food',
  'Lifestyle',
  'Business',
  'Health',
  'Education',
  'Entertainment',
  'Sports',
  'News',
] as const;

export const POST_STATUSES = ['draft', 'published', 'scheduled'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/**
 * Text with its line ends made LF, once, where every save comes in (forms send CRLF, API clients
 * either): the stored text is the same however it was sent, and an unchanged save compares equal.
 */
const text = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).overwrite((value) => value.replace(/\r\n?/g, '\n'));

const required = text({ error: POST_MESSAGES.requiredFields }).trim().min(1, POST_MESSAGES.requiredFields);
const optionalText = (max: number, check?: (v: string) => boolean, message?: string) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => v || null)
    .refine((v) => v === null || !check || check(v), { message });

/**
 * The address of a [podcast:URL] marker, as the renderer expands it (src/blog/markdown.ts) and the
 * rich editor loads it as a card: one pattern, so what the editor accepts is what renders.
 */
export const PODCAST_URL = String.raw`(?:https?:\/\/|\/)[^\s\]"<>]+`;
const WHOLE_PODCAST_URL = new RegExp(`^${PODCAST_URL}$`);

/**
 * The link editor's refusal. Here, not in POST_MESSAGES: those ride in the shared chunk that every
 * public page loads, and the editor must not grow it.
 */
export const INVALID_LINK = 'A link starts with https://, http://, / or mailto:';

/**
 * What the editor's dialog takes for a card or a link (src/app/admin/post-editor/AskDialog.tsx),
 * each parsed as the renderer will read it: a YouTube link becomes the marker's video id, a
 * podcast's audio must be an address its marker renders and a file or page the site may embed.
 */
export const CARD_ANSWERS = {
  youtube: z.string().transform(extractYouTubeId).refine(isYouTubeId, POST_MESSAGES.invalidYouTube),
  podcast: z
    .string()
    .trim()
    .refine((v) => WHOLE_PODCAST_URL.test(v) && isMediaReference(v), POST_MESSAGES.invalidPodcast),
  image: z.string().trim().refine(isMediaReference, POST_MESSAGES.invalidImage),
  link: z
    .string()
    .trim()
    .regex(/^(https?:\/\/|\/|mailto:)\S+$/i, INVALID_LINK),
} as const;

/** What search results and social cards show before cutting off: the editor's counters. */
export const SEO_LIMITS = { metaTitle: 60, metaDescription: 160 } as const;

const seoText = (max: number, message: string) =>
  text()
    .trim()
    .max(max, message)
    .nullish()
    .transform((v) => v || null);

/** Tags: trimmed, empty ones dropped, duplicates removed (first spelling kept). */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    if (tag && !seen.has(tag.toLowerCase())) {
      seen.add(tag.toLowerCase());
      out.push(tag);
    }
  }
  return out;
}

/** Who may read a post: everyone, any signed-in member, or paid (and comped) members. */
export const POST_VISIBILITIES = ['public', 'members', 'paid'] as const;
export type PostVisibility = (typeof POST_VISIBILITIES)[number];

const postFields = z.object({
  title: required.max(200),
  content: required.max(200_000),
  excerpt: required.max(1_000),
  category: z.enum(POST_CATEGORIES, { error: POST_MESSAGES.invalidCategory }),
  tags: z
    .array(z.string().max(50))
    .max(30)
    .default([])
    .transform((tags) => normalizeTags(tags)),
  featuredImage: optionalText(2_000, isMediaReference, POST_MESSAGES.invalidImage),
  featuredImageFile: optionalText(2_000, isMediaReference, POST_MESSAGES.invalidImage),
  youtubeVideoId: z
    .string()
    .nullish()
    .transform((v) => (v ? extractYouTubeId(v) : '') || null)
    .refine((v) => v === null || isYouTubeId(v), { message: POST_MESSAGES.invalidYouTube }),
  podcastUrl: optionalText(2_000, isMediaReference, POST_MESSAGES.invalidPodcast),
  metaTitle: seoText(200, POST_MESSAGES.metaTitleTooLong),
  metaDescription: seoText(500, POST_MESSAGES.metaDescriptionTooLong),
  canonicalUrl: optionalText(
    2_000,
    (v) => /^https?:\/\/[^\s/]+\S*$/i.test(v),
    POST_MESSAGES.invalidCanonical,
  ),
  socialImage: optionalText(2_000, isMediaReference, POST_MESSAGES.invalidImage),
  status: z.enum(POST_STATUSES).default('draft'),
  visibility: z.enum(POST_VISIBILITIES, { error: POST_MESSAGES.invalidVisibility }).default('public'),
  /** For a paid post, the tiers whose members read it; none: every paid tier. */
  visibilityTiers: z
    .array(
      z.coerce
        .number()
        .int()
        .positive()
        .max(2 ** 31 - 1),
    )
    .max(20)
    .default([]),
  publishAt: z
    .union([z.string(), z.date()])
    .nullish()
    .transform((v) => {
      if (!v) return null;
      const date = v instanceof Date ? v : new Date(v);
      return Number.isNaN(date.getTime()) ? null : date;
    }),
  slug: z
    .string()
    .trim()
    .max(200)
    .nullish()
    .transform((v) => v || null),
});

/** The one schema of the post editor: the form action, the API and the client share it. */
export const postInputSchema = postFields.superRefine((post, ctx) => {
  if (post.status === 'scheduled' && !post.publishAt)
    ctx.addIssue({ code: 'custom', path: ['publishAt'], message: POST_MESSAGES.publishAtRequired });
});

/**
 * An autosave: what the editor holds mid-writing, so blank required fields pass (they are
 * checked by the explicit save). The same limits keep it from growing without bound.
 */
export const postDraftSchema = postFields.extend({
  title: text().max(200).default(''),
  content: text().max(200_000).default(''),
  excerpt: text().max(1_000).default(''),
  category: z.string().trim().max(50).default(''),
  featuredImage: z.string().max(2_000).nullish(),
  featuredImageFile: z.string().max(2_000).nullish(),
  youtubeVideoId: z.string().max(2_000).nullish(),
  podcastUrl: z.string().max(2_000).nullish(),
  canonicalUrl: z.string().max(2_000).nullish(),
  socialImage: z.string().max(2_000).nullish(),
});

/** The version an editor's save was based on: refused with 409 when the post has moved on. */
export const baseVersionSchema = z.coerce
  .number({ error: 'baseVersion must be a positive integer' })
  .int('baseVersion must be a positive integer')
  .min(1, 'baseVersion must be a positive integer')
  .max(2 ** 31 - 1, 'baseVersion must be a positive integer');

export type PostInput = z.output<typeof postInputSchema>;
export type PostInputRaw = z.input<typeof postInputSchema>;
export type PostDraft = z.output<typeof postDraftSchema>;
