/** What a post page shows while it loads after a click (SPEC §2 'Post page': loading skeleton). */
export function PostSkeleton() {
  return (
    <div
      className="container post-skeleton skeleton"
      role="status"
      aria-busy="true"
      data-testid="post-skeleton"
    >
      <span className="visually-hidden">Loading post…</span>
      <span className="skeleton-line short" />
      <span className="skeleton-line title" />
      <span className="skeleton-line short" />
      <span className="skeleton-block" />
      <span className="skeleton-line" />
      <span className="skeleton-line" />
      <span className="skeleton-line" />
      <span className="skeleton-line short" />
    </div>
  );
}
