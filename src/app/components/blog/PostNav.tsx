import { BLOG_MESSAGES } from '../../../blog/messages.ts';
import type { PostLink } from '../../../blog/posts.ts';

/** The older and the newer post, as plain links. */
export function PostNav({ previous, next }: { previous: PostLink | null; next: PostLink | null }) {
  if (!previous && !next) return null;
  return (
    <nav className="post-nav" aria-label="More posts">
      {previous && (
        <a className="post-nav-link post-nav-previous card" href={`/post/${previous.slug}`} rel="prev">
          <span className="post-nav-label muted">← {BLOG_MESSAGES.previousPost}</span>
          <span className="post-nav-title">{previous.title}</span>
        </a>
      )}
      {next && (
        <a className="post-nav-link post-nav-next card" href={`/post/${next.slug}`} rel="next">
          <span className="post-nav-label muted">{BLOG_MESSAGES.nextPost} →</span>
          <span className="post-nav-title">{next.title}</span>
        </a>
      )}
    </nav>
  );
}
