import type { EditablePost } from '../../../blog/post-editor.ts';
import type { PostRevision } from '../../../blog/post-revisions.ts';
import type { PostDraft } from '../../../blog/post-schema.ts';
import type { EditorFields } from '../post-form.ts';

/** datetime-local wants the browser's local time; the server gets the offset beside it. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** A revision's fields over the post: what the editor shows after a restore. */
export function withRevision(post: EditablePost, revision: PostRevision): EditablePost {
  const { settings } = revision;
  return {
    ...post,
    ...settings,
    slug: settings.slug ?? post.slug,
    title: revision.title,
    excerpt: revision.excerpt,
    content: revision.content,
  };
}

/** A new post's draft kept in this browser, as the form shows it. */
export function draftFields(draft: PostDraft): EditorFields {
  return {
    ...draft,
    slug: draft.slug ?? '',
    featuredImage: draft.featuredImage ?? null,
    featuredImageFile: draft.featuredImageFile ?? null,
    youtubeVideoId: draft.youtubeVideoId ?? null,
    podcastUrl: draft.podcastUrl ?? null,
    canonicalUrl: draft.canonicalUrl ?? null,
    socialImage: draft.socialImage ?? null,
    publishAt: draft.publishAt?.toISOString() ?? null,
  };
}

export function savedTime(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });
}
