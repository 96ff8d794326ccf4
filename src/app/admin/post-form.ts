import type { EditablePost } from '../../blog/post-editor.ts';
import type { PostInputRaw } from '../../blog/post-schema.ts';

/** What the form shows: a post's fields, without what only a stored post has. */
export type EditorFields = Omit<EditablePost, 'id' | 'publishedAt' | 'createdAt' | 'updatedAt' | 'version'>;

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

/**
 * The form's fields as sent: the schema's input, and as the editor shows them, so a refused save
 * can show them again (without JavaScript the page is rendered anew, and must not fall back to
 * the stored version, or another tab's).
 */
export function postFromForm(form: FormData): PostInputRaw & EditorFields {
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
    status: (text('status') || 'draft') as EditorFields['status'],
    visibility: (text('visibility') || 'public') as EditorFields['visibility'],
    visibilityTiers: form.getAll('visibilityTiers').map(Number),
    publishAt: publishAtFrom(text('publishAt'), text('tzOffset')),
  };
}
