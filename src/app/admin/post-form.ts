import type { PostInputRaw } from '../../blog/post-schema.ts';

/**
 * A datetime-local value has no zone: the browser sends its offset beside it (tzOffset, in
 * minutes as getTimezoneOffset gives it); without one the value is read as UTC.
 */
function publishAtFrom(local: string, tzOffset: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(local)) return null;
  const asUtc = Date.parse(`${local.slice(0, 16)}:00Z`);
  const offset = /^-?\d{1,4}$/.test(tzOffset) ? Number(tzOffset) : 0;
  return new Date(asUtc + offset * 60_000).toISOString();
}

export function postFromForm(form: FormData): PostInputRaw {
  const text = (name: string) => String(form.get(name) ?? '');
  return {
    title: text('title'),
    slug: text('slug'),
    content: text('content'),
    excerpt: text('excerpt'),
    category: text('category') as PostInputRaw['category'],
    tags: form.getAll('tags').map(String),
    featuredImage: text('featuredImage'),
    featuredImageFile: text('featuredImageFile'),
    youtubeVideoId: text('youtubeVideoId'),
    podcastUrl: text('podcastUrl'),
    metaTitle: text('metaTitle'),
    metaDescription: text('metaDescription'),
    canonicalUrl: text('canonicalUrl'),
    socialImage: text('socialImage'),
    status: (text('status') || 'draft') as PostInputRaw['status'],
    publishAt: publishAtFrom(text('publishAt'), text('tzOffset')),
  };
}
