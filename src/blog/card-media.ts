import type { PostSummary } from './posts.ts';

// Kept out of posts.ts: the cards that use these hydrate, and posts.ts reaches the Markdown
// renderer (through the paywall), which would then ship to every hydrated page.

/** Media shown on a card (SPEC §4): the featured image (file first), else a video or podcast placeholder. */
export function cardMedia(
  post: Pick<
    PostSummary,
    'featuredImage' | 'featuredImageFile' | 'youtubeVideoId' | 'podcastUrl' | 'category'
  >,
): { kind: 'image'; src: string } | { kind: 'video' } | { kind: 'podcast' } | { kind: 'none' } {
  const src = post.featuredImageFile || post.featuredImage;
  if (src) return { kind: 'image', src };
  if (post.youtubeVideoId) return { kind: 'video' };
  if (post.category === 'Podcasts' && post.podcastUrl) return { kind: 'podcast' };
  return { kind: 'none' };
}

/** Podcast, Video or Article, for the carousel's label. */
export function postType(
  post: Pick<PostSummary, 'podcastUrl' | 'youtubeVideoId' | 'category'>,
): 'Podcast' | 'Video' | 'Article' {
  if (post.podcastUrl || post.category === 'Podcasts') return 'Podcast';
  if (post.youtubeVideoId) return 'Video';
  return 'Article';
}
