import type { PostStatus } from '../blog/post-schema.ts';

export type SourceSystem = 'wordpress' | 'ghost' | 'substack' | 'medium';

export type ImportComment = {
  sourceId: string;
  author: string;
  email: string;
  date: Date;
  /** HTML as the old site stored it. */
  html: string;
};

/** One post or page of an export, whatever system wrote it. */
export type ImportItem = {
  sourceSystem: SourceSystem;
  sourceId: string;
  kind: 'post' | 'page';
  title: string;
  slug: string;
  status: PostStatus;
  /** Publication date (UTC); for a scheduled post, when it goes out. */
  date: Date | null;
  html: string;
  /** Plain text. */
  excerpt: string;
  authorName: string | null;
  /** The old site's category names (WordPress categories; Ghost's first tag), for the mapping. */
  categories: string[];
  tags: string[];
  featuredImage: string | null;
  featured: boolean;
  comments: ImportComment[];
  /** Paths the post answered on the old site ('/2013/01/03/slug/', '/?p=149'). */
  oldPaths: string[];
  /** The notes of WordPress's footnotes block (the post's `footnotes` meta), if any. */
  footnotes?: { id: string; html: string }[];
  /**
   * Who could read it on the old site when not everyone could: signed-in members (Ghost's
   * 'members', Substack's subscribers-only posts) or paying ones. Its body marks where the public
   * preview ends with PAYWALL_COMMENT, if it does.
   */
  visibility?: 'members' | 'paid';
  /** What the reader changed on the way (for the report). */
  warnings: string[];
};

export type ReaderEvent =
  | { type: 'item'; item: ImportItem }
  | { type: 'skip'; sourceId: string; title: string; reason: string };

/** An import that cannot run (a bad file, an unknown category): the message is shown to the writer as it is. */
export class ImportError extends Error {}
