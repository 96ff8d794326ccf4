import { Link } from 'react-router';
import { BLOG_MESSAGES } from '../../../blog/messages.ts';
import type { Pagination, PostCardData } from '../../../blog/posts.ts';
import { PostCard } from './PostCard.tsx';

/** The post cards of a list, or the SPEC's empty state. */
export function PostGrid({ posts, filtering }: { posts: PostCardData[]; filtering: boolean }) {
  if (posts.length === 0)
    return (
      <div className="empty-state">
        <h3>{BLOG_MESSAGES.noPosts}</h3>
        <p>{filtering ? BLOG_MESSAGES.noPostsFiltered : BLOG_MESSAGES.noPostsYet}</p>
      </div>
    );
  return (
    <ul className="post-grid">
      {posts.map((post) => (
        <li key={post.id}>
          <PostCard post={post} />
        </li>
      ))}
    </ul>
  );
}

/** Previous, 'Page n of m', Next; nothing when everything fits on one page. */
export function Pager({ pagination, href }: { pagination: Pagination; href: (page: number) => string }) {
  if (pagination.pages <= 1) return null;
  return (
    <nav className="pagination" aria-label="Pages">
      {pagination.page > 1 ? (
        <Link to={href(pagination.page - 1)} rel="prev">
          Previous
        </Link>
      ) : (
        <span aria-disabled="true">Previous</span>
      )}
      <span>
        Page {pagination.page} of {pagination.pages}
      </span>
      {pagination.page < pagination.pages ? (
        <Link to={href(pagination.page + 1)} rel="next">
          Next
        </Link>
      ) : (
        <span aria-disabled="true">Next</span>
      )}
    </nav>
  );
}
