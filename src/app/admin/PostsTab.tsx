import { Form, Link, useNavigation } from 'react-router';
import type { AdminPostListItem } from '../../blog/post-editor.ts';
import { POST_MESSAGES } from '../../blog/post-messages.ts';
import { formatDate, formatDateTime } from './format.ts';

type Filters = { q: string; status: string };

function authorName(author: AdminPostListItem['author']): string {
  const full = [author.firstName, author.lastName].filter(Boolean).join(' ');
  return full || author.username || 'Anonymous';
}

function PostCard({ post }: { post: AdminPostListItem }) {
  const navigation = useNavigation();
  const deleting = navigation.formData?.get('id') === String(post.id);
  return (
    <li className="card admin-item">
      <div className="admin-item-head">
        <h3>{post.title}</h3>
        <span className={`badge badge-${post.status}`}>{post.status}</span>
      </div>
      <p>{post.excerpt}</p>
      <p className="muted admin-meta">
        <span>{post.category}</span>
        <span>{post.viewCount} views</span>
        <span>By {authorName(post.author)}</span>
        <span>Created {formatDate(post.createdAt)}</span>
        {post.status === 'scheduled' && post.publishAt ? (
          <span>Publishes {formatDateTime(post.publishAt)}</span>
        ) : null}
      </p>
      <div className="admin-actions">
        <a
          className="button button-small button-secondary"
          href={`/post/${post.slug}`}
          target="_blank"
          rel="noreferrer"
        >
          View<span className="visually-hidden"> {post.title} (opens in a new tab)</span>
        </a>
        <Link className="button button-small button-secondary" to={`/admin/posts/${post.id}`}>
          Edit<span className="visually-hidden"> {post.title}</span>
        </Link>
        <Form
          method="post"
          onSubmit={(event) => {
            if (!window.confirm(POST_MESSAGES.confirmDelete)) event.preventDefault();
          }}
        >
          <input type="hidden" name="intent" value="delete-post" />
          <input type="hidden" name="id" value={post.id} />
          <button className="button button-small button-danger" type="submit" disabled={deleting}>
            Delete<span className="visually-hidden"> {post.title}</span>
          </button>
        </Form>
      </div>
    </li>
  );
}

export function PostsTab({ posts, filters }: { posts: AdminPostListItem[]; filters: Filters }) {
  return (
    <div className="admin-stack">
      <div className="admin-toolbar">
        <Form method="get" className="admin-filters" role="search">
          <input type="hidden" name="tab" value="posts" />
          <div className="field">
            <label htmlFor="post-search">Search posts</label>
            <input id="post-search" name="q" type="search" defaultValue={filters.q} />
          </div>
          <div className="field">
            <label htmlFor="post-status">Status</label>
            <select id="post-status" name="status" defaultValue={filters.status}>
              <option value="all">All</option>
              <option value="published">Published</option>
              <option value="draft">Draft</option>
              <option value="scheduled">Scheduled</option>
            </select>
          </div>
          <button className="button button-secondary" type="submit">
            Filter
          </button>
        </Form>
        <Link className="button" to="/admin/posts/new">
          New Post
        </Link>
      </div>
      {posts.length === 0 ? (
        <p className="empty-state">No posts found</p>
      ) : (
        <ul className="admin-items">
          {posts.map((post) => (
            <PostCard key={post.id} post={post} />
          ))}
        </ul>
      )}
    </div>
  );
}
